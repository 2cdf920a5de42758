// "This was already said": the responses of a topic that make much the same point as a text being
// written, over the device's copy (no server, no download at the time: offline).
// Two measures first: the words the texts share (Porter stems weighted by TF-IDF over the topic's
// responses, cosine) and what their words mean (each text the weighted mean of its words' vectors,
// shared/rules/word-vectors.ts, less the topic's average, cosine), mixed 3 : 1. Shared stems are
// required. A draft is then widened by the few responses closest to it (pseudo-relevance feedback),
// so that a response making the point in the words of those neighbours is found too. The closest
// responses by that mix are then scored by a small learned scorer (a logistic regression over the
// features in FEATURE_NAMES, weights in shared/rules/similarity-model.ts, learned by
// scripts/argkp-train.ts on the ArgKP-2021 training split): the similarity shown is its estimate that
// the two make the same point. Measured catch rate and threshold: docs/COMMON-GROUND.md, "This was
// already said".
import { stemmer } from 'stemmer';
import { SIMILARITY_MODEL, type SimilarityModel } from './similarity-model';
import type { WordVectors } from './word-vectors';

/**
 * A response is shown as already saying the point at or above this similarity (the scorer's
 * estimate; on the ArgKP-2021 training and dev splits the lowest at which 4 hints in 5 are right).
 */
export const SIMILARITY_THRESHOLD = 0.85;
/** At most this many similar responses are shown. */
export const MAX_SIMILAR = 3;
/** A draft needs this many normalised words before it is compared (a few words say no point yet). */
export const MIN_SIMILARITY_WORDS = 4;
/** The composer compares after this pause in typing. */
export const SIMILARITY_DEBOUNCE_MS = 600;

/** Shared words' share of the similarity; what the words mean has the rest. */
const LEXICAL_SHARE = 0.75;
/** The draft is widened by its closest responses, this many... */
const NEIGHBOURS = 10;
/** ...at least this close to it (a response sharing a word or two is no neighbour)... */
const NEIGHBOUR_FLOOR = 0.3;
/** ...which together weigh twice the draft's own words. */
const NEIGHBOUR_WEIGHT = 2;
/** At or above this first similarity a response is the draft's own text (rounding aside). */
const SAME_TEXT = 0.999;
/** The learned scorer weighs this many of the responses closest by the two measures. */
const CANDIDATES = 12;
/** Two responses sharing less than this cosine of their words make different points. */
const RIVAL_OVERLAP = 0.5;

/** What the learned scorer weighs for a (draft, response) pair, in order. */
export const FEATURE_NAMES = [
  'shared words, cosine',
  'meaning, cosine',
  'shared words, cosine with the widened draft',
  'meaning, cosine with the widened draft',
  'the two mixed 3 : 1 (widened)',
  'shared stems, ln(1 + count)',
  "share of the response's weight the draft shares",
  "share of the draft's weight the response shares",
  'draft words, ln(1 + count)',
  'response words, ln(1 + count)',
  "ln(1 + the response's rank among the topic's responses)",
  "the mixed score less the topic's mean, over its spread",
  'the mixed score less the best other response',
  "response's words: their closest draft word's vector similarity, averaged",
  "draft's words: their closest response word's vector similarity, averaged",
  'the rarest shared stem: its idf over the highest',
  'the mixed score less the best candidate making another point',
  // How the main ones bend and meet (the scorer is linear in these).
  'the mixed score, squared',
  'the margin over the best candidate making another point, squared',
  'the mixed score times that margin',
  'the two shares of weight shared, multiplied',
  'shared words with the widened draft, squared',
  'the two shares of weight shared, their geometric mean',
  // How central the response's point is in the topic (a point many responses make is the likelier
  // one for a new draft to repeat), and how the draft's closest responses side with it.
  "the response's meaning: its cosine with the topic's average meaning",
  "the response's meaning: that cosine less the topic's mean, over its spread",
  "the draft's neighbours, ln(1 + count)",
  "the draft's neighbours: their mixed score with the draft, averaged",
  "shared words: the response's cosine with each of the draft's neighbours, averaged",
] as const;

/** The probability a pair makes the same point: 1 / (1 + e^-(bias + Σ weight × feature)). */
export function scoreFeatures(model: SimilarityModel, features: ArrayLike<number>): number {
  let z = model.bias;
  for (let i = 0; i < model.weights.length; i++) z += model.weights[i]! * features[i]!;
  return 1 / (1 + Math.exp(-z));
}
/** The topic's average meaning is taken away in full from a large topic, less from a small one. */
const CENTRING_TOPIC = 10;

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
 * A word's light stem: plural and common verb endings trimmed, so "fares"/"fare" and
 * "charging"/"charged"/"charge" meet ("cities" → "city"). Only for counting and showing a draft's
 * words; the index stems with Porter's algorithm.
 */
function lightStem(word: string): string {
  const len = word.length;
  const c1 = word.charCodeAt(len - 1);
  const c2 = len > 1 ? word.charCodeAt(len - 2) : 0;
  const c3 = len > 2 ? word.charCodeAt(len - 3) : 0;
  const c4 = len > 3 ? word.charCodeAt(len - 4) : 0;
  let keep = len;
  let y = false;
  if (len > 5 && c3 === I && c2 === N && c1 === G) keep = len - 3;
  else if (len > 4 && c3 === I && c2 === E && c1 === S) {
    keep = len - 3;
    y = true;
  } else if (len > 4 && c2 === E && c1 === D) keep = len - 2;
  else if (len > 3 && c2 === E && c1 === S && (c3 === X || c3 === Z || (c3 === S && c4 === S) || (c3 === H && (c4 === S || c4 === CC))))
    keep = len - 2;
  else if (len > 3 && c1 === S && c2 !== S) keep = len - 1;
  // Then a silent final e: "charge", "charged" and "charging" all become "charg".
  if (!y && keep > 3 && word.charCodeAt(keep - 1) === E) keep -= 1;
  return word.slice(0, keep) + (y ? 'y' : '');
}

/** A text's words: lower case, no accents, no apostrophes, no punctuation, no stop words. */
function plainWords(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/['’]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length >= 2 && !STOP_WORDS.has(word));
}

/** A text's normalised words, in order: lower case, no accents, no punctuation, no stop words, stemmed. */
export function normaliseWords(text: string): string[] {
  return plainWords(text).map(lightStem);
}

/**
 * Stems are hashed into 2^19 buckets (the "hashing trick"): a term is a number, never a string key,
 * and the table of document frequencies (1 MB) stays in the processor's cache. Two stems sharing a
 * bucket (rare: a response has a few dozen among half a million buckets) only add noise.
 */
const BUCKET_BITS = 19;
const BUCKET_MASK = (1 << BUCKET_BITS) - 1;
const COUNT_SHIFT = BUCKET_BITS;
const MAX_COUNT = (1 << (32 - BUCKET_BITS)) - 1;

/** FNV-1a of a stem, in its bucket. */
function bucketOf(stem: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < stem.length; i++) h = Math.imul(h ^ stem.charCodeAt(i), 0x01000193);
  return (h >>> 0) & BUCKET_MASK;
}

/** Porter stems by word: a topic repeats its words, so each is stemmed once per session. */
const STEMS = new Map<string, number>();
const STEMS_MAX = 200_000;

function stemBucket(word: string): number {
  let bucket = STEMS.get(word);
  if (bucket === undefined) {
    if (STEMS.size > STEMS_MAX) STEMS.clear();
    bucket = bucketOf(stemmer(word));
    STEMS.set(word, bucket);
  }
  return bucket;
}

/**
 * A text's terms, worked out once per text and kept in a cache between builds: its stems, each once,
 * sorted (the bucket in the low 19 bits, how often it occurs above them), and, once word vectors are
 * loaded, its meaning: the sum of its words' vectors, each weighted by how rare the word is in
 * English, at unit length (worked out here, in idle time, so that an index builds in one short step).
 */
export interface Terms {
  packed: Uint32Array;
  /** How many normalised words the text has. */
  words: number;
  /** The text's meaning (null: worked out before the vectors were loaded). */
  meaning: Float32Array | null;
  /** The word-vector rows of its words that have one, each once (empty before the vectors came). */
  rows: Int32Array;
}

function termsOf(text: string, vectors?: WordVectors | null): Terms {
  const words = plainWords(text);
  const buckets = new Uint32Array(words.length);
  for (let i = 0; i < words.length; i++) buckets[i] = stemBucket(words[i]!);
  const sorted = buckets.slice().sort();
  // In place: each bucket once, with its count.
  let unique = 0;
  for (let i = 0; i < sorted.length; i++) {
    const id = sorted[i]!;
    if (unique > 0 && (sorted[unique - 1]! & BUCKET_MASK) === id) {
      const count = sorted[unique - 1]! >>> COUNT_SHIFT;
      if (count < MAX_COUNT) sorted[unique - 1] = id | ((count + 1) << COUNT_SHIFT);
    } else sorted[unique++] = id | (1 << COUNT_SHIFT);
  }
  let meaning: Float32Array | null = null;
  const rows: number[] = [];
  if (vectors) {
    const dims = vectors.dims;
    meaning = new Float32Array(dims);
    for (const word of words) {
      const row = vectors.rows.get(word);
      if (row === undefined) continue;
      if (!rows.includes(row)) rows.push(row);
      const w = vectors.weight[row]!;
      for (let k = 0, base = row * dims; k < dims; k++) meaning[k]! += w * vectors.data[base + k]!;
    }
    unitVector(meaning);
  }
  return { packed: sorted.slice(0, unique), words: words.length, meaning, rows: Int32Array.from(rows) };
}

/** A cached text's terms, worked out again when vectors came since they were. */
function cachedTerms(text: string, cache: Map<string, Terms> | undefined, vectors: WordVectors | null | undefined): Terms {
  let terms = cache?.get(text);
  if (!terms || (vectors && !terms.meaning)) {
    terms = termsOf(text, vectors);
    cache?.set(text, terms);
  }
  return terms;
}

export interface SimilarityIndex<T> {
  /** The up-to-`limit` items most similar to `text` at or above `threshold`, best first. */
  similarTo(text: string, options?: { limit?: number; threshold?: number; exclude?: (item: T) => boolean }): SimilarMatch<T>[];
  /**
   * The items the scorer weighs for `text` (the closest by the two measures, not excluded), each with
   * its features: what scripts/argkp-train.ts learns the scorer's weights from.
   */
  candidates(text: string, exclude?: (item: T) => boolean): { position: number; copy: boolean; features: Float64Array }[];
  readonly size: number;
}

export interface SimilarMatch<T> {
  item: T;
  /** Where the item is in the indexed list. */
  position: number;
  /** Similarity, 0..1 (1: the same text). */
  similarity: number;
}

/** A term's weight in a text: (1 + ln tf) × idf. */
const tfWeight = (count: number) => (count === 1 ? 1 : 1 + Math.log(count));

/**
 * A query's terms in a small open-addressing table (a power of two, at most half full): each of
 * the topic's terms looks its weight up in a few typed-array reads, with no Map and no string.
 */
function queryTable(weights: ReadonlyMap<number, number>) {
  let size = 16;
  while (size < weights.size * 2) size *= 2;
  const keys = new Int32Array(size).fill(-1);
  const values = new Float64Array(size);
  const mask = size - 1;
  for (const [id, weight] of weights) {
    let slot = (Math.imul(id, 0x9e3779b1) >>> 0) & mask;
    while (keys[slot] !== -1) slot = (slot + 1) & mask;
    keys[slot] = id;
    values[slot] = weight;
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

/** Scales `weights` (a term's weight by bucket) to unit length, in place. */
function unitMap(weights: Map<number, number>): Map<number, number> {
  let sum = 0;
  for (const w of weights.values()) sum += w * w;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (const [id, w] of weights) weights.set(id, w / norm);
  return weights;
}

function unitVector(v: Float32Array): Float32Array {
  let sum = 0;
  for (let k = 0; k < v.length; k++) sum += v[k]! * v[k]!;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let k = 0; k < v.length; k++) v[k]! /= norm;
  return v;
}

/**
 * An index of `items` (a topic's responses), built once per change of the list and queried on every
 * pause in typing. Shared words: weight = (1 + ln tf) × idf, idf = ln((N + 1) / (df + 1)) + 1, each
 * text's weights scaled to unit length, so the dot product of two texts is their cosine. Meaning
 * (when `vectors` are given): a text's vector is the sum of its words' vectors, each weighted by its
 * rarity in English, less the topic's average, at unit length. `termsCache` keeps
 * each text's terms between builds (a vote re-emits the list, its texts unchanged), so only the
 * first build reads every text.
 */
export function buildSimilarityIndex<T>(
  items: readonly T[],
  textOf: (item: T) => string,
  termsCache?: Map<string, Terms>,
  vectors?: WordVectors | null,
): SimilarityIndex<T> {
  const n = items.length;
  const docs: Terms[] = new Array<Terms>(n);
  const df = new Uint16Array(1 << BUCKET_BITS);
  // Every text's terms end to end in one array (`offsets[d]` to `offsets[d + 1]`).
  const offsets = new Int32Array(n + 1);
  for (let d = 0; d < n; d++) {
    const terms = cachedTerms(textOf(items[d]!), termsCache, vectors);
    docs[d] = terms;
    const packed = terms.packed;
    offsets[d + 1] = offsets[d]! + packed.length;
    for (let i = 0; i < packed.length; i++) df[packed[i]! & BUCKET_MASK]! += 1;
  }
  // idf by document frequency, worked out once (df ≤ N) instead of a logarithm per term.
  const idfOfDf = new Float64Array(n + 2);
  for (let k = 0; k <= n + 1; k++) idfOfDf[k] = Math.log((n + 1) / (k + 1)) + 1;
  const idf = (id: number) => idfOfDf[Math.min(df[id]!, n + 1)]!;
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

  const dims = vectors?.dims ?? 0;
  /** A text's meaning, not yet centred, into `out`. */
  const meaningOf = (terms: Terms, out: Float32Array) => {
    if (terms.meaning) out.set(terms.meaning);
    return out;
  };
  // Each text's meaning, less the topic's average (what every response of the topic says: its subject).
  const meanings = new Float32Array(n * dims);
  const average = new Float32Array(dims);
  // The average of the centred meanings (how central each text's point is: below).
  const middle = new Float64Array(dims);
  if (dims > 0) {
    for (let d = 0; d < n; d++) {
      const v = meaningOf(docs[d]!, meanings.subarray(d * dims, (d + 1) * dims));
      for (let k = 0; k < dims; k++) average[k]! += v[k]!;
    }
    const centring = 1 / (n + CENTRING_TOPIC);
    for (let k = 0; k < dims; k++) average[k]! *= centring;
    for (let d = 0; d < n; d++) {
      const v = meanings.subarray(d * dims, (d + 1) * dims);
      for (let k = 0; k < dims; k++) v[k]! -= average[k]!;
      unitVector(v);
      for (let k = 0; k < dims; k++) middle[k]! += v[k]! / n;
    }
  }
  // How close each text's meaning comes to the topic's (centred) average: how central its point is,
  // and that less the topic's mean, over its spread.
  const central = new Float64Array(n);
  let centralMean = 0;
  let centralSpread = 1;
  if (dims > 0 && n > 0) {
    let sumSq = 0;
    for (let d = 0; d < n; d++) {
      let c = 0;
      for (let k = 0, base = d * dims; k < dims; k++) c += middle[k]! * meanings[base + k]!;
      central[d] = c;
      centralMean += c / n;
      sumSq += (c * c) / n;
    }
    centralSpread = Math.sqrt(Math.max(sumSq - centralMean * centralMean, 0)) + 1e-6;
  }

  /** Every item's similarity to a query (0 where they share no stem), in `out`; its parts in `lex` and `cos`. */
  function score(weights: Map<number, number>, meaning: Float32Array | null, out: Float64Array, lex: Float64Array, cos: Float64Array) {
    const weightOf = queryTable(weights);
    for (let d = 0; d < n; d++) {
      let dot = 0;
      for (let i = offsets[d]!; i < offsets[d + 1]!; i++) dot += weightOf(allIds[i]!) * unit[i]!;
      lex[d] = dot;
      // No stem in common: never the same point, whatever the words' vectors say.
      if (dot <= 0) {
        out[d] = 0;
        cos[d] = 0;
        continue;
      }
      if (!meaning) {
        out[d] = dot;
        cos[d] = 0;
        continue;
      }
      let c = 0;
      const base = d * dims;
      for (let k = 0; k < dims; k++) c += meaning[k]! * meanings[base + k]!;
      cos[d] = c;
      out[d] = LEXICAL_SHARE * dot + (1 - LEXICAL_SHARE) * c;
    }
  }

  function queryMeaning(terms: Terms): Float32Array | null {
    if (dims === 0) return null;
    const v = meaningOf(terms, new Float32Array(dims));
    for (let k = 0; k < dims; k++) v[k]! -= average[k]!;
    return unitVector(v);
  }

  /**
   * How closely each text's words come to the other's: for each word of `a` its closest word's similarity
   * among `b`'s (1 for the same word), averaged with each word weighted by its rarity; and the same for `b`.
   */
  function alignment(a: Int32Array, b: Int32Array): [number, number] {
    if (!vectors || a.length === 0 || b.length === 0) return [0, 0];
    const { data, weight } = vectors;
    const bestOfB = new Float64Array(b.length).fill(-1);
    let sumA = 0;
    let totalA = 0;
    for (let i = 0; i < a.length; i++) {
      const ra = a[i]! * dims;
      let best = -1;
      for (let j = 0; j < b.length; j++) {
        let dot = 1;
        if (a[i] !== b[j]) {
          const rb = b[j]! * dims;
          dot = 0;
          for (let k = 0; k < dims; k++) dot += data[ra + k]! * data[rb + k]!;
        }
        if (dot > best) best = dot;
        if (dot > bestOfB[j]!) bestOfB[j] = dot;
      }
      sumA += weight[a[i]!]! * best;
      totalA += weight[a[i]!]!;
    }
    let sumB = 0;
    let totalB = 0;
    for (let j = 0; j < b.length; j++) {
      sumB += weight[b[j]!]! * bestOfB[j]!;
      totalB += weight[b[j]!]!;
    }
    return [sumA / totalA, sumB / totalB];
  }

  /**
   * Each candidate's features (the same order as `FEATURE_NAMES`), from the draft's two passes:
   * what the scorer in shared/rules/similarity-model.ts weighs.
   */
  function candidates(text: string, exclude?: (item: T) => boolean): { position: number; copy: boolean; features: Float64Array }[] {
    const query = termsOf(text, vectors);
    if (query.words < MIN_SIMILARITY_WORDS || n === 0) return [];
    const weights = new Map<number, number>();
    for (const v of query.packed) weights.set(v & BUCKET_MASK, tfWeight(v >>> COUNT_SHIFT) * idf(v & BUCKET_MASK));
    unitMap(weights);
    const meaning = queryMeaning(query);
    const first = new Float64Array(n);
    const lex1 = new Float64Array(n);
    const cos1 = new Float64Array(n);
    score(weights, meaning, first, lex1, cos1);
    // The draft widened by its closest responses, offered or not: their words and meaning join the
    // draft's, and responses are compared with that.
    const neighbours = topPositions(first, NEIGHBOURS, NEIGHBOUR_FLOOR);
    let scores = first;
    let lex2 = lex1;
    let cos2 = cos1;
    if (neighbours.length > 0) {
      const share = NEIGHBOUR_WEIGHT / neighbours.length;
      const wide = new Map(weights);
      const wideMeaning = meaning ? Float32Array.from(meaning) : null;
      for (const d of neighbours) {
        for (let i = offsets[d]!; i < offsets[d + 1]!; i++) wide.set(allIds[i]!, (wide.get(allIds[i]!) ?? 0) + share * unit[i]!);
        if (wideMeaning) for (let k = 0; k < dims; k++) wideMeaning[k]! += share * meanings[d * dims + k]!;
      }
      scores = new Float64Array(n);
      lex2 = new Float64Array(n);
      cos2 = new Float64Array(n);
      score(unitMap(wide), wideMeaning && unitVector(wideMeaning), scores, lex2, cos2);
    }
    // The topic's scores for this draft: how far a response stands out from the rest.
    let sum = 0;
    let sumSq = 0;
    for (let d = 0; d < n; d++) {
      sum += scores[d]!;
      sumSq += scores[d]! * scores[d]!;
    }
    const mean = sum / n;
    const spread = Math.sqrt(Math.max(sumSq / n - mean * mean, 0)) + 1e-3;
    const chosen = topPositions(scores, CANDIDATES, Number.MIN_VALUE, exclude && ((d) => exclude(items[d]!)));
    const weightOf = queryTable(weights);
    const maxIdf = idfOfDf[0]!;
    // Each candidate's closest rival making another point: the best-scoring other candidate whose
    // words it shares little of (a response repeating its point is no rival).
    const tables = chosen.map((d) => {
      const own = new Map<number, number>();
      for (let i = offsets[d]!; i < offsets[d + 1]!; i++) own.set(allIds[i]!, unit[i]!);
      return queryTable(own);
    });
    const rival = chosen.map((d, a) => {
      let best = 0;
      chosen.forEach((e, b) => {
        if (b === a || scores[e]! <= best) return;
        let overlap = 0;
        for (let i = offsets[e]!; i < offsets[e + 1]!; i++) overlap += tables[a]!(allIds[i]!) * unit[i]!;
        if (overlap < RIVAL_OVERLAP) best = scores[e]!;
      });
      return best;
    });
    // The draft's neighbours other than a copy of it (its own text, when it is in the topic, says
    // nothing of who else makes its point).
    const others = neighbours.filter((e) => first[e]! < SAME_TEXT);
    let neighbourMean = 0;
    for (const e of others) neighbourMean += first[e]! / others.length;
    return chosen.map((d, a) => {
      // Whether the draft's neighbours make this response's point too.
      let withNeighbours = 0;
      for (const e of others) {
        if (e === d) continue;
        let dot = 0;
        for (let i = offsets[e]!; i < offsets[e + 1]!; i++) dot += tables[a]!(allIds[i]!) * unit[i]!;
        withNeighbours += dot / others.length;
      }
      let shared = 0;
      let coverResponse = 0;
      let coverDraft = 0;
      let rarest = 0;
      for (let i = offsets[d]!; i < offsets[d + 1]!; i++) {
        const w = weightOf(allIds[i]!);
        if (w <= 0) continue;
        shared += 1;
        coverResponse += unit[i]! * unit[i]!;
        coverDraft += w * w;
        rarest = Math.max(rarest, idf(allIds[i]!) / maxIdf);
      }
      let rank = 0;
      let bestOther = 0;
      for (let e = 0; e < n; e++) {
        if (e === d) continue;
        if (scores[e]! > scores[d]!) rank++;
        if (scores[e]! > bestOther) bestOther = scores[e]!;
      }
      const [responseCovered, draftCovered] = alignment(docs[d]!.rows, query.rows);
      const mixed = scores[d]!;
      const margin = scores[d]! - rival[a]!;
      const features = Float64Array.from([
        lex1[d]!,
        cos1[d]!,
        lex2[d]!,
        cos2[d]!,
        scores[d]!,
        Math.log1p(shared),
        coverResponse,
        coverDraft,
        Math.log1p(query.words),
        Math.log1p(docs[d]!.words),
        Math.log1p(rank),
        (scores[d]! - mean) / spread,
        scores[d]! - bestOther,
        responseCovered,
        draftCovered,
        rarest,
        margin,
        mixed * mixed,
        margin * margin,
        mixed * margin,
        coverResponse * coverDraft,
        lex2[d]! * lex2[d]!,
        Math.sqrt(coverResponse * coverDraft),
        central[d]!,
        dims > 0 ? (central[d]! - centralMean) / centralSpread : 0,
        Math.log1p(others.length),
        neighbourMean,
        withNeighbours,
      ]);
      return { position: d, copy: first[d]! >= SAME_TEXT, features };
    });
  }

  return {
    size: n,
    candidates,
    similarTo(text, { limit = MAX_SIMILAR, threshold = SIMILARITY_THRESHOLD, exclude } = {}) {
      const model = vectors ? SIMILARITY_MODEL.withVectors : SIMILARITY_MODEL.wordsOnly;
      const matches: SimilarMatch<T>[] = [];
      for (const { position, copy, features } of candidates(text, exclude)) {
        // A copy of the draft (rounding aside) is the same point whatever the scorer says.
        const similarity = copy ? 1 : scoreFeatures(model, features);
        if (similarity < threshold) continue;
        matches.push({ item: items[position]!, position, similarity });
      }
      matches.sort((a, b) => b.similarity - a.similarity);
      return matches.slice(0, limit);
    },
  };
}

/** The positions of the `k` highest scores at or above `floor`, best first, but those `skip` says to leave out. */
function topPositions(scores: Float64Array, k: number, floor: number, skip?: (position: number) => boolean): number[] {
  const top: number[] = [];
  for (let d = 0; d < scores.length; d++) {
    if (scores[d]! < floor) continue;
    if (top.length === k && scores[d]! <= scores[top[k - 1]!]!) continue;
    if (skip && skip(d)) continue;
    if (top.length < k) top.push(d);
    else top[k - 1] = d;
    for (let i = top.length - 1; i > 0 && scores[top[i]!]! > scores[top[i - 1]!]!; i--) [top[i], top[i - 1]] = [top[i - 1]!, top[i]!];
  }
  return top;
}

/**
 * Works out the terms of `texts` not yet in `cache`, until `stop()` says the time slice is over:
 * run in idle moments (the composer does while a draft is short), so the first comparison finds
 * every text's terms ready and builds its index in one short step. True when all are cached.
 */
export function primeTermsCache(
  texts: readonly string[],
  cache: Map<string, Terms>,
  stop: () => boolean,
  vectors?: WordVectors | null,
): boolean {
  for (const text of texts) {
    const known = cache.get(text);
    if (known && (!vectors || known.meaning)) continue;
    if (stop()) return false;
    cache.set(text, termsOf(text, vectors));
  }
  return true;
}
