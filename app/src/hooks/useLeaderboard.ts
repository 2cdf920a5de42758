// The leaderboard (kept for offline reading) and who is signed in, to highlight their row.
import { useMemo } from 'react';
import { useData } from './useData';
import { useObservable } from './useObservable';

export type { LeaderboardCopy, RemoteCopy } from '../data';

export function useLeaderboard() {
  const data = useData();
  const leaderboard$ = useMemo(() => data.leaderboard$(), [data]);
  const { value, error } = useObservable(leaderboard$);
  const { value: uid } = useObservable(data.uid$);
  return { copy: value, error, uid: uid ?? null };
}
