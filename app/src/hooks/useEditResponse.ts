// Saving an edit of one's own response (content, quote, sources), locally at once, sent when possible.
import { useCallback } from 'react';
import type { EditResponseInput } from '../data';
import { useData } from './useData';

export function useEditResponse(): (responseId: string, input: EditResponseInput) => Promise<void> {
  const data = useData();
  return useCallback((responseId: string, input: EditResponseInput) => data.editResponse(responseId, input), [data]);
}
