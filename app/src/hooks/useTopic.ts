import { useEffect } from 'react';
import { getStore } from './store';
import { useObservable } from './useObservable';

/** One topic from the store; opening it asks the store to keep its responses in sync. */
export function useTopic(topicId: string) {
  useEffect(() => {
    void getStore().openTopic(topicId);
  }, [topicId]);
  const { value, error, loading } = useObservable(() => getStore().topic(topicId), topicId);
  const topic = value && value.id === topicId ? value : value === null ? null : undefined;
  return { topic, error, loading: loading || topic === undefined };
}
