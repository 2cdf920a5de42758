// The signed-in user's stance on a topic: read live from their synced data,
// recorded and credited locally at once (the data layer sends it when it can).
import { createContext, useCallback, useContext, useMemo, useState } from 'react';
import type { Stance } from '../../../shared/constants';
import type { StanceView } from '../data/api';
import { useData } from './useData';
import { useObservable } from './useObservable';
import { errorMessage } from '../error-message';

export type { StanceView } from '../data/api';

export interface TopicStance {
  /** undefined while not read yet, null when none is recorded (or signed out). */
  stance: StanceView | null | undefined;
  error: unknown;
  /** A write is under way. */
  saving: boolean;
  /** Why the last stance could not be recorded, for a person. */
  writeError: string | null;
  /** Records the stance; a refusal lands in `writeError` (never thrown). */
  setStance(stance: Stance): Promise<void>;
  /** Replaces the credits of the latest change of stance with `responseIds`; throws the refusal (shown by the toggle pressed). */
  creditDeltas(responseIds: string[]): Promise<void>;
}

export function useStance(topicId: string): TopicStance {
  const data = useData();
  const stance$ = useMemo(() => data.stance$(topicId), [data, topicId]);
  const { value, error } = useObservable(stance$);
  const [saving, setSaving] = useState(false);
  const [writeError, setWriteError] = useState<string | null>(null);

  const setStance = useCallback(
    async (next: Stance) => {
      setSaving(true);
      setWriteError(null);
      try {
        await data.setStance(topicId, next);
      } catch (e) {
        setWriteError(errorMessage(e));
      } finally {
        setSaving(false);
      }
    },
    [data, topicId],
  );
  const creditDeltas = useCallback((ids: string[]) => data.creditDeltas(topicId, ids), [data, topicId]);

  return { stance: value, error, saving, writeError, setStance, creditDeltas };
}

/**
 * What every response of the topic page needs to know about the debate: the viewer's stance (for the
 * Δ toggle) and the sides' sizes (for the common-ground badge). One reading shared through context,
 * so a long list does not open one subscription per row.
 */
export interface DebateStanding {
  stance: StanceView | null;
  participants: { agree: number; disagree: number };
  creditDeltas(responseIds: string[]): Promise<void>;
}

export const DebateStandingContext = createContext<DebateStanding | null>(null);

/** null outside a topic page (a response rendered alone shows no badge and no Δ toggle). */
export function useDebateStanding(): DebateStanding | null {
  return useContext(DebateStandingContext);
}
