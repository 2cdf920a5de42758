// "This was already said" (issue 29 #3): the responses of a topic that make much the same point as
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

/**
 * A word's light stem: plural and common verb endings trimmed, so "fares"/"fare" and
 * "charging"/"charged"/"charge" meet. Crude on purpose: it only has to match a text with its near-copy.
 */
function stem(word: string): string {
  let w = word;
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  else if (w.length > 3 && /(?:ss|sh|ch|x|z)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  // Then a silent final e: "charge", "charged" and "charging" all become "charg".
  return w.length > 3 && w.endsWith('e') ? w.slice(0, -1) : w;
}

/** A text's normalised words, in order: lower case, no accents, no punctuation, no stop words, stemmed. */
export function normaliseWords(text: string): string[] {
  const words = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .split(/[^\p{L}\p{N}]+/u);
  const out: string[] = [];
  for (const word of words) {
    if (word.length < 2 || STOP_WORDS.has(word)) continue;
    out.push(stem(word));
  }
  return out;
}

/** A text's terms: its normalised words and each adjacent pair (the pairs reward the same phrasing). */
function termCounts(words: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (term: string) => counts.set(term, (counts.get(term) ?? 0) + 1);
  for (let i = 0; i < words.length; i++) {
    add(words[i]!);
    if (i > 0) add(`${words[i - 1]} ${words[i]}`);
  }
  return counts;
}

interface Posting {
  doc: number;
  weight: number;
}

export interface SimilarityIndex<T> {
  /** The up-to-`limit` items most similar to `text` at or above `threshold`, best first. */
  similarTo(text: string, options?: { limit?: number; threshold?: number; exclude?: (item: T) => boolean }): SimilarMatch<T>[];
  readonly size: number;
}

export interface SimilarMatch<T> {
  item: T;
  /** Cosine similarity, 0..1. */
  similarity: number;
}

/**
 * A TF-IDF index of `items` (a topic's responses), built once per change of the list and queried on
 * every pause in typing. Term weight = (1 + ln tf) × idf with idf = ln((N + 1) / (df + 1)) + 1; vectors
 * are unit length, so a dot product is the cosine. An inverted index touches only the documents that
 * share a term with the draft.
 */
export function buildSimilarityIndex<T>(items: readonly T[], textOf: (item: T) => string): SimilarityIndex<T> {
  const docs = items.map((item) => termCounts(normaliseWords(textOf(item))));
  const df = new Map<string, number>();
  for (const counts of docs) for (const term of counts.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  const n = docs.length;
  const idf = (term: string) => Math.log((n + 1) / ((df.get(term) ?? 0) + 1)) + 1;

  const postings = new Map<string, Posting[]>();
  docs.forEach((counts, doc) => {
    let norm = 0;
    const weights: [string, number][] = [];
    for (const [term, tf] of counts) {
      const weight = (1 + Math.log(tf)) * idf(term);
      weights.push([term, weight]);
      norm += weight * weight;
    }
    norm = Math.sqrt(norm);
    if (norm === 0) return;
    for (const [term, weight] of weights) {
      let list = postings.get(term);
      if (!list) postings.set(term, (list = []));
      list.push({ doc, weight: weight / norm });
    }
  });

  return {
    size: n,
    similarTo(text, { limit = MAX_SIMILAR, threshold = SIMILARITY_THRESHOLD, exclude } = {}) {
      const words = normaliseWords(text);
      if (words.length < MIN_SIMILARITY_WORDS) return [];
      const query = termCounts(words);
      let norm = 0;
      const weights: [string, number][] = [];
      for (const [term, tf] of query) {
        const weight = (1 + Math.log(tf)) * idf(term);
        weights.push([term, weight]);
        norm += weight * weight;
      }
      norm = Math.sqrt(norm);
      const scores = new Map<number, number>();
      for (const [term, weight] of weights) {
        const list = postings.get(term);
        if (!list) continue;
        const w = weight / norm;
        for (const posting of list) scores.set(posting.doc, (scores.get(posting.doc) ?? 0) + w * posting.weight);
      }
      const matches: SimilarMatch<T>[] = [];
      for (const [doc, score] of scores) {
        // Rounding can take two identical texts a hair above 1.
        const similarity = Math.min(1, score);
        if (similarity < threshold || (exclude && exclude(items[doc]!))) continue;
        matches.push({ item: items[doc]!, similarity });
      }
      matches.sort((a, b) => b.similarity - a.similarity);
      return matches.slice(0, limit);
    },
  };
}
