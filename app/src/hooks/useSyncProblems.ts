// The signed-in user's writes the server refused or overruled, to fix or discard
// (never dropped silently). The data layer follows the user: sign-out empties the list.
import { useCallback, useMemo } from 'react';
import { useData } from './useData';
import { useObservable } from './useObservable';

export type { SyncProblem } from '../data';

export function useSyncProblems() {
  const data = useData();
  const problems$ = useMemo(() => data.syncProblems$(), [data]);
  const problems = useObservable(problems$).value ?? [];
  /** Sends the write again as the user made it. */
  const retry = useCallback((problemId: string) => data.fixProblem(problemId), [data]);
  /** Forgets the write (the user's version is dropped). */
  const discard = useCallback((problemId: string) => data.discardProblem(problemId), [data]);
  return { problems, retry, discard };
}
