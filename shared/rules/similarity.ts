// "This was already said": the responses of a topic that make much the same point as
// a text being written, by lexical similarity over the device's copy (no model, no server: offline).
// Texts become normalised words (lower case, accents and punctuation gone, common English words
// dropped, a light plural/verb-ending trim) and their adjacent word pairs; each is weighted by TF-IDF
// over the topic's responses, and two texts are as similar as the cosine of their vectors.
// Threshold and measured catch rate: docs/COMMON-GROUND.md, "This was already said".

/** A response is shown as already saying the point at or above this cosine similarity. */
export const SIMILARITY_THRESHOLD = 0.35;
/** At most this many similar responses are shown. */
export const MAX_SIMILAR = 3;
/** A draft needs this many normalised words before it is compared (a few words say no point yet). */
export const MIN_SIMILARITY_WORDS = 4;
/** The composer compares after this pause in typing. */
export const SIMILARITY_DEBOUNCE_MS = 600;

/** Words too common to tell two points apart. */
const STOP_WORDS = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers him his how i if in ' +
    'into is it its itself just me more most my no nor not of off on once only or other our ours out over own same she should so ' +
    'some such than that the their theirs them then there these they this those through to too under until up very was we were ' +
    'what when where which while who whom why will with would you your yours yourself think really thing things lot much many ' +
    'even still one ones get gets got make makes made say says said dont doesnt isnt arent wont cant im ive youre thats its'
  ).split(' '),
);

const code = (ch: string) => ch.charCodeAt(0);
const [CC, D, E, G, H, I, N, S, X, Z] = [...'cdeghinsxz'].map(code);

/**
 * A word's light stem, as the end of the kept characters of `text[start, end)` times 2, plus 1 when a
 * "y" follows them: plural and common verb endings trimmed, so "fares"/"fare" and
 * "charging"/"charged"/"charge" meet ("cities" → "city"). Crude on purpose: it only has to match a
 * text with its near-copy. Read from the characters, so indexing a topic makes no string per word.
 */
function stemEnd(text: string, start: number, end: number): number {
  // The last four characters, read once (no closure: this runs for every word of a topic).
  const len = end - start;
  const c1 = text.charCodeAt(end - 1);
  const c2 = len > 1 ? text.charCodeAt(end - 2) : 0;
  const c3 = len > 2 ? text.charCodeAt(end - 3) : 0;
  const c4 = len > 3 ? text.charCodeAt(end - 4) : 0;
  let keep = end;
  let y = 0;
  if (len > 5 && c3 === I && c2 === N && c1 === G) keep = end - 3;
  else if (len > 4 && c3 === I && c2 === E && c1 === S) {
    keep = end - 3;
    y = 1;
  } else if (len > 4 && c2 === E && c1 === D) keep = end - 2;
  else if (len > 3 && c2 === E && c1 === S && (c3 === X || c3 === Z || (c3 === S && c4 === S) || (c3 === H && (c4 === S || c4 === CC))))
    keep = end - 2;
  else if (len > 3 && c1 === S && c2 !== S) keep = end - 1;
  // Then a silent final e: "charge", "charged" and "charging" all become "charg".
  if (!y && keep - start > 3 && text.charCodeAt(keep - 1) === E) keep -= 1;
  return keep * 2 + y;
}

function stem(word: string): string {
  const kept = stemEnd(word, 0, word.length);
  return word.slice(0, kept >> 1) + (kept & 1 ? 'y' : '');
}

/** Anything but printable ASCII, tab and line breaks: such a text takes the Unicode path. */
const NON_ASCII = /[^\t\n\r\u0020-\u007e]/;

/** Calls `word(start, end)` for each run of ASCII letters and digits of a lower-case text. */
function eachAsciiWord(text: string, word: (start: number, end: number) => void) {
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const ch = i < text.length ? text.charCodeAt(i) : 32;
    if ((ch >= 97 && ch <= 122) || (ch >= 48 && ch <= 57)) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      word(start, i);
      start = -1;
    }
  }
}

/** Lower case, without apostrophes ("don't" is "dont", a stop word); null when not plain ASCII. */
function asciiLower(text: string): string | null {
  const lower = text.toLowerCase();
  if (NON_ASCII.test(lower)) return null;
  return lower.includes("'") ? lower.replace(/'/g, '') : lower;
}

/** The Unicode path: decompose, drop the accents, split on anything not a letter or digit. */
function unicodeWords(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/['’]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length >= 2 && !STOP_WORDS.has(word))
    .map(stem);
}

/** A text's normalised words, in order: lower case, no accents, no punctuation, no stop words, stemmed. */
export function normaliseWords(text: string): string[] {
  const plain = asciiLower(text);
  if (plain === null) return unicodeWords(text);
  const out: string[] = [];
  eachAsciiWord(plain, (start, end) => {
    const word = plain.slice(start, end);
    if (word.length >= 2 && !STOP_WORDS.has(word)) out.push(stem(word));
  });
  return out;
}

/**
 * Terms are hashed into 2^19 buckets (the "hashing trick"): a term is a number, never a string key,
 * so 10,000 responses index in tens of milliseconds, and the table of document frequencies (1 MB)
 * stays in the processor's cache. Two terms sharing a bucket (rare: a response has about a hundred
 * terms among half a million buckets) only add noise far below the threshold.
 */
const BUCKET_BITS = 19;
const BUCKET_MASK = (1 << BUCKET_BITS) - 1;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a of `text[start, end)`, then of a "y" when `y`. */
function hashRange(text: string, start: number, end: number, y = false): number {
  let h = FNV_OFFSET;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  if (y) h = Math.imul(h ^ 121, FNV_PRIME);
  return h >>> 0;
}

const STOP_HASHES = new Set([...STOP_WORDS].map((word) => hashRange(word, 0, word.length)));

/** A text's normalised words as hashes (the same as hashing normaliseWords' strings), with no string per word. */
function wordHashes(text: string): number[] {
  const plain = asciiLower(text);
  if (plain === null) return unicodeWords(text).map((word) => hashRange(word, 0, word.length));
  const out: number[] = [];
  eachAsciiWord(plain, (start, end) => {
    if (end - start < 2 || STOP_HASHES.has(hashRange(plain, start, end))) return;
    const kept = stemEnd(plain, start, end);
    out.push(hashRange(plain, start, kept >> 1, (kept & 1) === 1));
  });
  return out;
}

/**
 * A text's terms (its normalised words and each adjacent pair, as buckets), each once, sorted: the
 * bucket in the low 19 bits, how often it occurs above them. One small array per text, kept in a
 * cache between builds.
 */
export interface Terms {
  packed: Uint32Array;
  /** How many normalised words the text has. */
  words: number;
}

const COUNT_SHIFT = BUCKET_BITS;
const MAX_COUNT = (1 << (32 - BUCKET_BITS)) - 1;

/** Scratch space for a text's terms before they are sorted (grown when a text is longer). */
let scratch = new Uint32Array(1024);

function termsOf(text: string): Terms {
  const words = wordHashes(text);
  if (scratch.length < words.length * 2) scratch = new Uint32Array(words.length * 2);
  let n = 0;
  for (let i = 0; i < words.length; i++) {
    scratch[n++] = words[i]! & BUCKET_MASK;
    // The pair of this word and the one before: the same phrasing scores higher than the same words.
    if (i > 0) scratch[n++] = (Math.imul(words[i - 1]!, 0x9e3779b1) ^ words[i]! ^ 0x5bd1e995) & BUCKET_MASK;
  }
  const sorted = scratch.subarray(0, n).sort();
  // In place: each bucket once, with its count.
  let unique = 0;
  for (let i = 0; i < n; i++) {
    const id = sorted[i]!;
    if (unique > 0 && (sorted[unique - 1]! & BUCKET_MASK) === id) {
      const count = sorted[unique - 1]! >>> COUNT_SHIFT;
      if (count < MAX_COUNT) sorted[unique - 1] = id | ((count + 1) << COUNT_SHIFT);
    } else sorted[unique++] = id | (1 << COUNT_SHIFT);
  }
  return { packed: sorted.slice(0, unique), words: words.length };
}

export interface SimilarityIndex<T> {
  /** The up-to-`limit` items most similar to `text` at or above `threshold`, best first. */
  similarTo(text: string, options?: { limit?: number; threshold?: number; exclude?: (item: T) => boolean }): SimilarMatch<T>[];
  readonly size: number;
}

export interface SimilarMatch<T> {
  item: T;
  /** Where the item is in the indexed list. */
  position: number;
  /** Cosine similarity, 0..1. */
  similarity: number;
}

/** A term's weight in a text: (1 + ln tf) × idf. */
const tfWeight = (count: number) => (count === 1 ? 1 : 1 + Math.log(count));

/**
 * The draft's terms in a small open-addressing table (a power of two, at most half full): each of
 * the topic's terms looks its weight up in a few typed-array reads, with no Map and no string.
 */
function queryTable(ids: readonly number[], weights: Float64Array) {
  let size = 16;
  while (size < ids.length * 2) size *= 2;
  const keys = new Int32Array(size).fill(-1);
  const values = new Float64Array(size);
  const mask = size - 1;
  for (let i = 0; i < ids.length; i++) {
    let slot = (Math.imul(ids[i]!, 0x9e3779b1) >>> 0) & mask;
    while (keys[slot] !== -1) slot = (slot + 1) & mask;
    keys[slot] = ids[i]!;
    values[slot] = weights[i]!;
  }
  return (id: number): number => {
    let slot = (Math.imul(id, 0x9e3779b1) >>> 0) & mask;
    for (;;) {
      const key = keys[slot]!;
      if (key === id) return values[slot]!;
      if (key === -1) return 0;
      slot = (slot + 1) & mask;
    }
  };
}

/**
 * A TF-IDF index of `items` (a topic's responses), built once per change of the list and queried on
 * every pause in typing. Term weight = (1 + ln tf) × idf with idf = ln((N + 1) / (df + 1)) + 1; a
 * text's weights are divided by their length (the vector's norm), so the dot product of two texts
 * is their cosine. `termsCache` keeps each text's terms between builds (a vote re-emits the list,
 * its texts unchanged), so only the first build reads every text.
 */
export function buildSimilarityIndex<T>(
  items: readonly T[],
  textOf: (item: T) => string,
  termsCache?: Map<string, Terms>,
): SimilarityIndex<T> {
  const n = items.length;
  const docs: Terms[] = new Array<Terms>(n);
  // Document frequencies by bucket: a fresh table per build (1 MB: small enough to stay in the processor's cache).
  const df = new Uint16Array(1 << BUCKET_BITS);
  // Every text's terms end to end in one array (`offsets[d]` to `offsets[d + 1]`): a few large
  // allocations, not several per response.
  const offsets = new Int32Array(n + 1);
  for (let d = 0; d < n; d++) {
    const text = textOf(items[d]!);
    let terms = termsCache?.get(text);
    if (!terms) {
      terms = termsOf(text);
      termsCache?.set(text, terms);
    }
    docs[d] = terms;
    const packed = terms.packed;
    offsets[d + 1] = offsets[d]! + packed.length;
    for (let i = 0; i < packed.length; i++) df[packed[i]! & BUCKET_MASK]! += 1;
  }
  // idf by document frequency, worked out once (df ≤ N) instead of a logarithm per term.
  const idfOfDf = new Float64Array(n + 2);
  for (let k = 0; k <= n + 1; k++) idfOfDf[k] = Math.log((n + 1) / (k + 1)) + 1;
  const idf = (id: number) => idfOfDf[Math.min(df[id]!, n + 1)]!;
  // Each text's unit-length weights, beside its terms.
  const allIds = new Uint32Array(offsets[n]!);
  const unit = new Float32Array(offsets[n]!);
  for (let d = 0; d < n; d++) {
    const packed = docs[d]!.packed;
    const from = offsets[d]!;
    let sum = 0;
    for (let i = 0; i < packed.length; i++) {
      const id = packed[i]! & BUCKET_MASK;
      const w = tfWeight(packed[i]! >>> COUNT_SHIFT) * idf(id);
      allIds[from + i] = id;
      unit[from + i] = w;
      sum += w * w;
    }
    const norm = Math.sqrt(sum);
    if (norm > 0) for (let i = from; i < offsets[d + 1]!; i++) unit[i]! /= norm;
  }

  return {
    size: n,
    similarTo(text, { limit = MAX_SIMILAR, threshold = SIMILARITY_THRESHOLD, exclude } = {}) {
      const query = termsOf(text);
      if (query.words < MIN_SIMILARITY_WORDS || n === 0) return [];
      const ids = Array.from(query.packed, (v) => v & BUCKET_MASK);
      const weights = new Float64Array(ids.length);
      let sum = 0;
      for (let i = 0; i < ids.length; i++) {
        weights[i] = tfWeight(query.packed[i]! >>> COUNT_SHIFT) * idf(ids[i]!);
        sum += weights[i]! * weights[i]!;
      }
      const norm = Math.sqrt(sum);
      for (let i = 0; i < weights.length; i++) weights[i]! /= norm;
      const weightOf = queryTable(ids, weights);
      const matches: SimilarMatch<T>[] = [];
      for (let d = 0; d < n; d++) {
        let dot = 0;
        for (let i = offsets[d]!; i < offsets[d + 1]!; i++) dot += weightOf(allIds[i]!) * unit[i]!;
        // Float32 weights and rounding can take two identical texts a hair above 1.
        if (dot <= 0) continue;
        const similarity = Math.min(1, dot);
        if (similarity < threshold || (exclude && exclude(items[d]!))) continue;
        matches.push({ item: items[d]!, position: d, similarity });
      }
      matches.sort((a, b) => b.similarity - a.similarity);
      return matches.slice(0, limit);
    },
  };
}

/**
 * Works out the terms of `texts` not yet in `cache`, until `stop()` says the time slice is over:
 * run in idle moments (the composer does while a draft is short), so the first comparison finds
 * every text's terms ready and builds its index in one short step. True when all are cached.
 */
export function primeTermsCache(texts: readonly string[], cache: Map<string, Terms>, stop: () => boolean): boolean {
  for (const text of texts) {
    if (cache.has(text)) continue;
    if (stop()) return false;
    cache.set(text, termsOf(text));
  }
  return true;
}
