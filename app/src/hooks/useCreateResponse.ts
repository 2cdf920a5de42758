// Posting a response or reply: it shows at once from the local database and is sent
// (after the topic or response it answers) when the server can be reached.
import { useCallback } from 'react';
import type { NewResponseInput, ResponseView } from '../data';
import { useData } from './useData';

export type { NewResponseInput } from '../data';
/** A source as the forms collect it (URL required, name and description optional). */
export type NewSource = NonNullable<NewResponseInput['sources']>[number];

export function useCreateResponse(): (input: NewResponseInput) => Promise<ResponseView> {
  const data = useData();
  return useCallback((input: NewResponseInput) => data.createResponse(input), [data]);
}
