// One topic from the local database; opening it asks the data layer to keep its responses in sync.
import { useEffect, useMemo } from 'react';
import { useData } from './useData';
import { useObservable } from './useObservable';

export type { TopicView } from '../data';

export function useTopic(topicId: string) {
  const data = useData();
  useEffect(() => {
    // Best effort: the page reads the local database either way, and a database that
    // cannot be used shows in the reads below (never an unhandled rejection).
    data.openTopic(topicId).catch(() => undefined);
  }, [data, topicId]);
  const topic$ = useMemo(() => data.topic$(topicId), [data, topicId]);
  const { value, error, loading } = useObservable(topic$, { transition: true });
  const topic = value && value.id === topicId ? value : value === null ? null : undefined;
  return { topic, error, loading: loading || topic === undefined };
}
