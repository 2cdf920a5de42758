// Every live response of a topic from the local store (the debate map: it works offline).
import { useMemo } from 'react';
import { useData } from './useData';
import { useObservable } from './useObservable';

export function useTopicResponses(topicId: string, enabled = true) {
  const data = useData();
  const responses$ = useMemo(() => (enabled ? data.topicResponses$(topicId) : null), [data, topicId, enabled]);
  const { value, error, loading } = useObservable(responses$, { transition: true });
  return { responses: value ?? [], error, loading: enabled && loading && value === undefined };
}
