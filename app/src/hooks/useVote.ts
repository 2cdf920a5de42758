import { useState } from 'react';
import { MSG } from '../../../shared/messages';
import { getStore } from './store';

/** Upvote toggle for a topic or response: pending flag and the Vote Error text. */
export function useVote(target: { type: 'topic' | 'response'; id: string; creatorUid: string }, hasUpvoted: boolean) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function toggle() {
    setPending(true);
    setError(null);
    try {
      await getStore().toggleVote(target);
    } catch (e) {
      setError(e instanceof Error && e.message ? e.message : hasUpvoted ? MSG.voteRemoveFailed : MSG.voteAddFailed);
    } finally {
      setPending(false);
    }
  }
  return { pending, error, toggle };
}
