// The quote panel's search: the topic's responses (local, works offline) whose text
// contains what was typed, from 3 characters on and after a 300 ms pause.
import { useEffect, useState } from 'react';
import { firstValueFrom } from 'rxjs';
import { MIN_SEARCH_LENGTH, SEARCH_DEBOUNCE_MS } from '../../../shared/constants';
import type { ResponseView } from '../data';
import { useData } from './useData';
import { useDebouncedValue } from './useDebouncedValue';

/** What a response shows of the response it quotes. */
export type QuotedResponse = NonNullable<ResponseView['quoted_response']>;

/** `excludeId`: the response being edited cannot quote itself. Failures read as no results. */
export function useResponseSearch(topicId: string, text: string, excludeId?: string): QuotedResponse[] {
  const data = useData();
  const query = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const [results, setResults] = useState<QuotedResponse[]>([]);
  const isTooShort = query.length < MIN_SEARCH_LENGTH;
  // Too short to search: forget what an earlier query found (adjusted while rendering, not in an effect).
  if (isTooShort && results.length > 0) setResults([]);
  useEffect(() => {
    if (isTooShort) return;
    let live = true;
    const needle = query.toLowerCase();
    // One look at the topic's responses per query: suggestions need not follow later changes.
    firstValueFrom(data.topicResponses$(topicId))
      .then((all) => {
        const found = all.filter((r) => r.id !== excludeId && r.content.toLowerCase().includes(needle));
        if (live) setResults(found.map(({ id, content, username, creator_uid }) => ({ id, content, username, creator_uid })));
      })
      .catch(() => live && setResults([]));
    return () => {
      live = false;
    };
  }, [data, topicId, query, isTooShort, excludeId]);
  return results;
}
