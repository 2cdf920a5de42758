// Deleting one's own response: gone locally at once; the server also deletes its whole subtree.
import { useCallback } from 'react';
import { useData } from './useData';

export function useDeleteResponse(): (responseId: string) => Promise<void> {
  const data = useData();
  return useCallback((responseId: string) => data.deleteResponse(responseId), [data]);
}
