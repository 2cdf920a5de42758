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

/** What a search found, and the (trimmed) query it answers: null while there is no answer. */
export interface ResponseSearch {
  results: QuotedResponse[];
  query: string | null;
}

/** `excludeId`: the response being edited cannot quote itself. Failures read as no results. */
export function useResponseSearch(topicId: string, text: string, excludeId?: string): ResponseSearch {
  const data = useData();
  const query = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  // Until the next answer lands, the last one stays (no flicker while typing on).
  const [found, setFound] = useState<{ query: string; results: QuotedResponse[] } | null>(null);
  const isTooShort = query.length < MIN_SEARCH_LENGTH;
  // Too short to search: forget what an earlier query found (adjusted while rendering, not in an effect).
  if (isTooShort && found) setFound(null);
  useEffect(() => {
    if (isTooShort) return;
    let live = true;
    const needle = query.toLowerCase();
    // One look at the topic's responses per query: suggestions need not follow later changes.
    firstValueFrom(data.topicResponses$(topicId))
      .then((all) => {
        const hits = all.filter((r) => r.id !== excludeId && r.content.toLowerCase().includes(needle));
        if (live)
          setFound({ query, results: hits.map(({ id, content, username, creator_uid }) => ({ id, content, username, creator_uid })) });
      })
      .catch(() => live && setFound({ query, results: [] }));
    return () => {
      live = false;
    };
  }, [data, topicId, query, isTooShort, excludeId]);
  return { results: found?.results ?? [], query: found?.query ?? null };
}
