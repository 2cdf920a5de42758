// The source catalogue (GET /api/sources?q=, SPEC.md §7) is site-wide and grows
// with every response, so it is not replicated: the composer asks the server
// while online. Offline, or on any failure, the answer is [] (SPEC.md §8: a
// search failure is silent) and the screen still offers the topic's own sources.
import { MIN_SEARCH_LENGTH } from '../../../shared/constants.js';
import type { Source } from '../../../shared/types.js';

export interface SourceCatalog {
  searchSources(text: string): Promise<Source[]>;
}

export function createSourceCatalog(baseUrl: string, fetchImpl: typeof fetch, isOnline: () => boolean): SourceCatalog {
  return {
    async searchSources(text) {
      const query = text.trim();
      if (query.length < MIN_SEARCH_LENGTH || !isOnline()) return [];
      try {
        const res = await fetchImpl(`${baseUrl}/api/sources?q=${encodeURIComponent(query)}`);
        return res.ok ? ((await res.json()) as Source[]) : [];
      } catch {
        return [];
      }
    },
  };
}
