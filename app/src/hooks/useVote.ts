// Upvote toggle for a topic or response: written locally at once, sent when the server can be reached.
import { useState } from 'react';
import type { TargetType } from '../../../shared/constants';
import { MSG } from '../../../shared/messages';
import { useData } from './useData';

/** A state shown before the local store echoes it, for as long as the store still says `base`. */
interface Optimistic {
  upvoted: boolean;
  base: boolean;
}

/**
 * The pending flag, the Vote Error text (the data layer's, else SPEC's add/remove text) and the upvoted
 * state to show: a click flips it at once (the echo never waits for the store and the list it feeds);
 * the store's value takes over as soon as it changes, and a failed vote falls back to it.
 */
export function useVote(targetType: TargetType, targetId: string, hasUpvoted: boolean) {
  const data = useData();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [optimistic, setOptimistic] = useState<Optimistic | null>(null);
  // The store moved (its echo, or another device): from now on it says what is true.
  const [stored, setStored] = useState(hasUpvoted);
  if (stored !== hasUpvoted) {
    setStored(hasUpvoted);
    setOptimistic(null);
  }
  const upvoted = optimistic && optimistic.base === hasUpvoted ? optimistic.upvoted : hasUpvoted;
  async function toggle() {
    const base = hasUpvoted;
    setOptimistic({ upvoted: !upvoted, base });
    setPending(true);
    setError(null);
    try {
      const now = await data.toggleVote(targetType, targetId);
      // Still waiting for the store's echo: show what the write did (else the store already shows it).
      setOptimistic((held) => (held && held.base === base ? { upvoted: now, base } : held));
    } catch (e) {
      setOptimistic(null);
      setError(e instanceof Error && e.message ? e.message : upvoted ? MSG.voteRemoveFailed : MSG.voteAddFailed);
    } finally {
      setPending(false);
    }
  }
  return { pending, error, toggle, upvoted };
}
