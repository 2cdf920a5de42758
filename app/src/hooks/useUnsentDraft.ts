// A draft this device keeps for a composer's place under another account than the one signed in
// (or under any, signed out), offered back: the identity provider can give the same person a new
// uid (a development Auth emulator forgets its accounts at every restart), and their text, kept
// under the old one, would otherwise never show again. Nothing is deleted here but on Discard.
import { useEffect, useState } from 'react';
import type { UnsentDraft } from '../data/api';
import { useData } from './useData';

export type { UnsentDraft };

export interface UnsentDraftOffer {
  /** The newest such draft not yet restored or discarded here; null when none. */
  draft: UnsentDraft | null;
  /** Hides the offer (its text went into the box); what keeps it on the device is the caller's. */
  taken(): void;
  /** Deletes the draft from the device. */
  discard(): Promise<void>;
}

const idOf = (draft: UnsentDraft) => `${draft.owner}\n${draft.key}\n${draft.updated_at}`;

/** `active`: who is at the composer is known (signed in with their own draft restored, or signed out). */
export function useUnsentDraft(key: string | null, uid: string | null, active: boolean): UnsentDraftOffer {
  const data = useData();
  // What was found, and for whom and where: a change of either shows nothing until asked again.
  const [found, setFound] = useState<{ for: string; list: UnsentDraft[] }>({ for: '', list: [] });
  // Restored or discarded in this composer: not offered again (a visitor's restore keeps it stored until they sign in).
  const [settled, setSettled] = useState<ReadonlySet<string>>(new Set());
  const [asked, setAsked] = useState(0);
  const askedFor = key && active ? `${uid ?? ''}\n${key}` : null;
  useEffect(() => {
    if (!key || !askedFor) return;
    let live = true;
    void data
      .unsentDrafts(key)
      .catch(() => [])
      .then((list) => {
        if (live) setFound({ for: askedFor, list });
      });
    return () => {
      live = false;
    };
  }, [data, key, askedFor, asked]);

  const draft = (found.for === askedFor ? found.list : []).find((d) => !settled.has(idOf(d))) ?? null;
  const settle = (d: UnsentDraft) => setSettled((current) => new Set([...current, idOf(d)]));
  return {
    draft,
    taken: () => {
      if (draft) settle(draft);
    },
    async discard() {
      if (!draft) return;
      settle(draft);
      await data.discardDraft(draft.owner, draft.key);
      setAsked((n) => n + 1);
    },
  };
}
