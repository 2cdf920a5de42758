// Root responses of a topic (parentId null) or the direct replies of one response, oldest first.
import { useMemo } from 'react';
import { useData } from './useData';
import { useObservable } from './useObservable';

export type { ResponseView } from '../data';

/** Nothing is read until `enabled` (replies load on their first expand). */
export function useReplies(topicId: string, parentId: string | null, enabled = true) {
  const data = useData();
  const responses$ = useMemo(
    () => (!enabled ? null : parentId ? data.replies$(parentId) : data.rootResponses$(topicId)),
    [data, topicId, parentId, enabled],
  );
  const { value, error, loading } = useObservable(responses$);
  return { responses: value ?? [], error, loading: enabled && loading && value === undefined };
}
