// The source catalogue (GET /api/sources?q=) is site-wide and grows
// with every response, so it is not replicated: the composer asks the server
// while online. Offline, or on any failure, the answer is [] (a
// search failure is silent) and the screen still offers the topic's own sources.
import { MIN_SEARCH_LENGTH } from '../../../shared/constants.js';
import type { Source } from '../../../shared/types.js';
import type { Http } from './http.js';

export interface SourceCatalog {
  searchSources(text: string): Promise<Source[]>;
}

export function createSourceCatalog(http: Http): SourceCatalog {
  return {
    async searchSources(text) {
      const query = text.trim();
      if (query.length < MIN_SEARCH_LENGTH) return [];
      // Offline the client refuses at once, without a request.
      return http.json<Source[]>(`/sources?q=${encodeURIComponent(query)}`).catch(() => []);
    },
  };
}
