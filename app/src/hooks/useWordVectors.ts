// The word vectors that let "This was already said" know a point made in other words
// (shared/rules/word-vectors.ts). About 2 MB: fetched only once someone starts writing, never with
// the first screen, and kept by the service worker for offline. Until they come (or when they
// cannot: offline before any fetch), the hint compares shared words alone.
import { useEffect, useState } from 'react';
import { parseWordVectors, WORD_VECTORS_PATH, type WordVectors } from '../../../shared/rules/word-vectors';

let loading: Promise<WordVectors | null> | null = null;
let loaded: WordVectors | null = null;

function loadWordVectors(): Promise<WordVectors | null> {
  loading ??= fetch(WORD_VECTORS_PATH)
    .then(async (res) => {
      if (!res.ok) throw new Error(`word vectors: ${res.status}`);
      loaded = parseWordVectors(new Uint8Array(await res.arrayBuffer()));
      return loaded;
    })
    .catch(() => {
      // Tried again on the next session's first draft (the network may be back).
      loading = null;
      return null;
    });
  return loading;
}

/** The word vectors once loaded, null until then; the load starts when `wanted` first is true. */
export function useWordVectors(wanted: boolean): WordVectors | null {
  const [vectors, setVectors] = useState<WordVectors | null>(loaded);
  useEffect(() => {
    if (!wanted || vectors) return;
    let live = true;
    void loadWordVectors().then((v) => {
      if (live && v) setVectors(v);
    });
    return () => {
      live = false;
    };
  }, [wanted, vectors]);
  return vectors;
}
