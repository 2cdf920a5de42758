// Root responses of a topic (parentId null) or the direct replies of one response, oldest first;
// the roots can come common ground first instead.
import { useMemo } from 'react';
import type { ResponseOrder } from '../data/api';
import { useData } from './useData';
import { useObservable } from './useObservable';

export type { ResponseView } from '../data';
export type { ResponseOrder } from '../data/api';

/** Nothing is read until `enabled` (replies load on their first expand). `order` applies to roots only. */
export function useReplies(topicId: string, parentId: string | null, enabled = true, order: ResponseOrder = 'default') {
  const data = useData();
  const responses$ = useMemo(
    () => (!enabled ? null : parentId ? data.replies$(parentId) : data.rootResponses$(topicId, order)),
    [data, topicId, parentId, enabled, order],
  );
  const { value, error, loading } = useObservable(responses$, { transition: true });
  return { responses: value ?? [], error, loading: enabled && loading && value === undefined };
}
