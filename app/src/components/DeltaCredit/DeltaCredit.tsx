// "This changed my view" (Δ): a response's Δ count, and the toggle with which a user
// whose stance changed credits it (at most MAX_DELTAS_PER_CHANGE per change, never their own).
import { useState } from 'react';
import { MAX_DELTAS_PER_CHANGE } from '../../../../shared/constants';
import { MSG } from '../../../../shared/messages';
import type { DebateStanding } from '../../hooks/useStance';
import './DeltaCredit.css';
import { errorMessage } from '../../error-message';

export const CHANGED_MY_VIEW = 'This changed my view';

export { PERSUASION_EXPLAINED } from '../Explain/explanations';

/** "1 person credited this with changing their view" / "2 people …". */
export const deltaCountLabel = (count: number) => `${count} ${count === 1 ? 'person' : 'people'} credited this with changing their view`;

/** "Δ 2", shown only when someone credited the response. */
export function DeltaCount({ count }: { count: number }) {
  if (count <= 0) return null;
  const label = deltaCountLabel(count);
  return (
    <span className="delta-count" title={label} data-testid="delta-count">
      <span aria-hidden="true">Δ {count}</span>
      <span className="visually-hidden">{label}</span>
    </span>
  );
}

interface DeltaToggleProps {
  responseId: string;
  /** The viewer's stance and credit action; the toggle shows only once their stance has changed. */
  standing: DebateStanding;
}

/** Whether the viewer may see the toggle on this response at all (never on their own). */
export function canCreditDeltas(standing: DebateStanding | null, isOwnResponse: boolean, signedIn: boolean): standing is DebateStanding {
  return Boolean(signedIn && !isOwnResponse && standing?.stance && standing.stance.history.length >= 2);
}

/** Whether the response is credited, and the toggle (the inline button and the phone's menu item share it). */
export function useDeltaCredit(responseId: string, standing: DebateStanding) {
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const credits = standing.stance?.credits ?? [];
  const credited = credits.includes(responseId);

  async function toggle() {
    setError(null);
    const next = credited ? credits.filter((id) => id !== responseId) : [...credits, responseId];
    // Said before anything is written: the data layer would refuse it with the same words.
    if (next.length > MAX_DELTAS_PER_CHANGE) return setError(MSG.deltaTooMany);
    setSaving(true);
    try {
      await standing.creditDeltas(next);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setSaving(false);
    }
  }
  return { credited, saving, error, toggle };
}

/** Why a credit failed: its own line under the action row. */
export function DeltaError({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <p className="error-text delta-error" role="alert">
      {error}
    </p>
  );
}

export function DeltaToggle({ responseId, standing }: DeltaToggleProps) {
  const { credited, saving, error, toggle } = useDeltaCredit(responseId, standing);
  return (
    <>
      <button
        type="button"
        className="btn btn-small btn-ghost delta-toggle"
        aria-pressed={credited}
        disabled={saving}
        onClick={() => void toggle()}
      >
        <span aria-hidden="true">Δ</span> {CHANGED_MY_VIEW}
      </button>
      <DeltaError error={error} />
    </>
  );
}
