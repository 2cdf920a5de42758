// Upvote toggle for a topic or response: written locally at once, sent when the server can be reached.
import { useState } from 'react';
import type { TargetType } from '../../../shared/constants';
import { MSG } from '../../../shared/messages';
import { useData } from './useData';

/** The pending flag and the Vote Error text (the data layer's, else SPEC's add/remove text). */
export function useVote(targetType: TargetType, targetId: string, hasUpvoted: boolean) {
  const data = useData();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function toggle() {
    setPending(true);
    setError(null);
    try {
      await data.toggleVote(targetType, targetId);
    } catch (e) {
      setError(e instanceof Error && e.message ? e.message : hasUpvoted ? MSG.voteRemoveFailed : MSG.voteAddFailed);
    } finally {
      setPending(false);
    }
  }
  return { pending, error, toggle };
}
