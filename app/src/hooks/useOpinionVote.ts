// A disagree or pass on a response: written locally at once, sent when the server can be reached.
import { useState } from 'react';
import type { VoteValue } from '../../../shared/constants';
import { MSG } from '../../../shared/messages';
import { useData } from './useData';

/** A value shown before the local store echoes it, for as long as the store still says `base`. */
interface Optimistic {
  value: VoteValue | null;
  base: VoteValue | null;
}

/**
 * The vote to show (the click's at once, then the store's, as useVote), the pending flag, the error,
 * and `choose`: the value, or taking it back when it already is the vote.
 */
export function useOpinionVote(responseId: string, stored: VoteValue | null) {
  const data = useData();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [optimistic, setOptimistic] = useState<Optimistic | null>(null);
  const [seen, setSeen] = useState(stored);
  if (seen !== stored) {
    setSeen(stored);
    setOptimistic(null);
  }
  const value = optimistic && optimistic.base === stored ? optimistic.value : stored;
  async function choose(next: VoteValue) {
    const wanted = value === next ? null : next;
    setOptimistic({ value: wanted, base: stored });
    setPending(true);
    setError(null);
    try {
      await data.castVote('response', responseId, wanted);
    } catch (e) {
      setOptimistic(null);
      setError(e instanceof Error && e.message ? e.message : MSG.voteChangeFailed);
    } finally {
      setPending(false);
    }
  }
  return { value, pending, error, choose };
}
