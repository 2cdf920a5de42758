// Deleting one's own topic (with all its responses), locally at once, sent when possible.
import { useCallback } from 'react';
import { useData } from './useData';

export function useDeleteTopic(): (topicId: string) => Promise<void> {
  const data = useData();
  return useCallback((topicId: string) => data.deleteTopic(topicId), [data]);
}
