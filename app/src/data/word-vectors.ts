// The word vectors of "This was already said" (shared/rules/word-vectors.ts), a static file of the
// site: fetched once per session at most, on the first draft, and kept by the service worker for
// offline. Null when they cannot come (offline before any fetch): the hint then compares words alone.
import { parseWordVectors, WORD_VECTORS_PATH, type WordVectors } from '../../../shared/rules/word-vectors';

let loading: Promise<WordVectors | null> | null = null;
let loaded: WordVectors | null = null;

/** The vectors when already loaded this session, else null. */
export const loadedWordVectors = (): WordVectors | null => loaded;

export function loadWordVectors(): Promise<WordVectors | null> {
  loading ??= fetch(WORD_VECTORS_PATH)
    .then(async (res) => {
      if (!res.ok) throw new Error(`word vectors: ${res.status}`);
      loaded = parseWordVectors(new Uint8Array(await res.arrayBuffer()));
      return loaded;
    })
    .catch(() => {
      // Tried again on a later draft (the network may be back).
      loading = null;
      return null;
    });
  return loading;
}
