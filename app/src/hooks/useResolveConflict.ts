// Settles a conflict (someone changed the item first) the way the person chose:
// keep their version, keep the server's, or send a merged text. Nothing is overwritten without this call.
import { useCallback } from 'react';
import type { ConflictChoice } from '../data';
import { useData } from './useData';

export type { ConflictChoice } from '../data';

export function useResolveConflict(): (problemId: string, choice: ConflictChoice) => Promise<void> {
  const data = useData();
  return useCallback((problemId: string, choice: ConflictChoice) => data.resolveConflict(problemId, choice), [data]);
}
