// The word vectors that let "This was already said" know a point made in other words
// (shared/rules/word-vectors.ts, about 2 MB): asked for only once someone starts writing, never with
// the first screen (data/word-vectors.ts). Until they come the hint compares shared words alone.
import { useEffect, useState } from 'react';
import type { WordVectors } from '../../../shared/rules/word-vectors';
import { loadedWordVectors, loadWordVectors } from '../data/word-vectors';

/** The word vectors once loaded, null until then; the load starts when `wanted` first is true. */
export function useWordVectors(wanted: boolean): WordVectors | null {
  const [vectors, setVectors] = useState<WordVectors | null>(loadedWordVectors);
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
