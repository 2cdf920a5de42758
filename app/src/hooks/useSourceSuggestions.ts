// The sources panel's suggestions: sources already cited in the topic (local, offline too)
// first, then the site's catalogue from the server, from 3 characters on after a 300 ms pause.
import { useEffect, useState } from 'react';
import { firstValueFrom } from 'rxjs';
import { MIN_SEARCH_LENGTH, SEARCH_DEBOUNCE_MS } from '../../../shared/constants';
import type { CruxData, ResponseView } from '../data';
import { useData } from './useData';
import { useDebouncedValue } from './useDebouncedValue';

export type SourceSuggestion = Pick<ResponseView['sources'][number], 'url' | 'name' | 'description'>;

/** No `topicId`: no suggestions. `clear()` hides them once one is picked. Failures read as none. */
export function useSourceSuggestions(topicId: string | undefined, url: string) {
  const data = useData();
  const query = useDebouncedValue(url.trim(), SEARCH_DEBOUNCE_MS);
  const [suggestions, setSuggestions] = useState<SourceSuggestion[]>([]);
  const isOff = !topicId || query.length < MIN_SEARCH_LENGTH;
  // Nothing to search: forget earlier suggestions (adjusted while rendering, not in an effect).
  if (isOff && suggestions.length > 0) setSuggestions([]);
  useEffect(() => {
    if (!topicId || isOff) return;
    let live = true;
    searchSources(data, topicId, query)
      // The URL already typed in full needs no suggestion.
      .then((found) => live && setSuggestions(found.filter((s) => s.url !== query)))
      .catch(() => live && setSuggestions([]));
    return () => {
      live = false;
    };
  }, [data, topicId, query, isOff]);
  return { suggestions, clear: () => setSuggestions([]) };
}

/** One suggestion per URL: the topic's own citations (matched on URL or name) win over the catalogue's. */
async function searchSources(data: CruxData, topicId: string, text: string): Promise<SourceSuggestion[]> {
  const needle = text.toLowerCase();
  const [local, catalogue] = await Promise.all([firstValueFrom(data.topicResponses$(topicId)), data.searchSources(text)]);
  const byUrl = new Map<string, SourceSuggestion>();
  for (const response of local)
    for (const { url, name, description } of response.sources) {
      if (!byUrl.has(url) && `${url} ${name ?? ''}`.toLowerCase().includes(needle)) byUrl.set(url, { url, name, description });
    }
  for (const { url, name, description } of catalogue) if (!byUrl.has(url)) byUrl.set(url, { url, name, description });
  return [...byUrl.values()];
}
