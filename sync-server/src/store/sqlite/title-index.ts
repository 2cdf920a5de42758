// The topics' titles kept in memory as an inverted index, with each topic's sort keys, so that a
// title search whose word, sort and page size change from one request to the next is answered
// without SQLite's FTS5: building the set of 3,000–8,000 matching titles from the FTS index and
// walking the sort's index past the others took 0.5–0.7 ms of every uncached search at 100,000
// topics, most of a search's CPU (docs/BENCHMARKS.md). Here a search is a union of posting lists per
// typed word (every title word starting with it, as FTS5's `"word"*` matches), an intersection across
// words, and the page's topics picked from the matches by the sort's keys; SQLite then reads only the
// page's rows.
//
// It follows the database, not this process's writes: every change to a topic row stamps a new seq,
// seqs commit in order (page-cache.ts), so before answering it reads the rows whose seq is past the
// last one it saw, whichever process wrote them. It is built on the first search, a thousand rows
// a turn in the background (a search meanwhile is SQLite's), and never used inside a transaction
// (the caller's uncommitted rows are not in it). Matching is FTS5's: the same word boundaries and
// case and accent folding (shared/rules/search-words.ts, pinned against a real FTS5 table).
import type { Db } from './connection.js';
import type { Sort } from '../../../../shared/constants.js';
import { foldWord } from '../../../../shared/rules/search-words.js';
import { nextTurn } from '../../domain/turns.js';

/** Rows read per turn while the index is built. */
const BUILD_ROWS_PER_TURN = 1_000;

interface KeyRow {
  pk: number;
  id: string;
  title: string;
  category: string;
  created_at: string;
  score: number;
  hot: number;
  deleted: number;
  seq: number;
}

export interface TitleSearch {
  /** The typed words, each already folded as FTS5 folds (foldWord). */
  words: string[];
  sort: Sort;
  category?: string | undefined;
  limit: number;
  offset: number;
}

export interface TitleIndex {
  /**
   * The pks of the page's topics in the sort's order, as SQLite's search would answer them at
   * `version` (the topics' largest seq, read by the caller outside any transaction); undefined
   * while the index is still being built (the caller asks SQLite).
   */
  search(query: TitleSearch, version: number): number[] | undefined;
  /**
   * The topic's seq as the index last applied it: after `search` at a version, its seq at that
   * version (every change to a topic row stamps one). Undefined for a topic the index does not hold.
   */
  seqOf(pk: number): number | undefined;
  /** Starts the build if no search has (the server, at start) and resolves once the index is built. */
  ready(): Promise<void>;
}

/** A title's words as FTS5's unicode61 tokenizer indexes them (search-words.ts, without its cap on typed words). */
const titleTerms = (title: string): string[] =>
  // ASCII (most titles): FTS5's word characters are the letters and digits, and its folding is lower case.
  !/[^\p{ASCII}]/u.test(title)
    ? [
        ...new Set(
          title
            .toLowerCase()
            .split(/[^a-z0-9]+/)
            .filter((word) => word.length > 0),
        ),
      ]
    : [
        ...new Set(
          title
            .normalize('NFC')
            .split(/[^\p{L}\p{M}\p{N}]+/u)
            .filter((word) => word.length > 0)
            .map(foldWord),
        ),
      ];

/** The first index of sorted `terms` whose term is not below `term` (code-unit order). */
function lowerBound(terms: string[], term: string): number {
  let lo = 0;
  let hi = terms.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (terms[mid]! < term) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A 32-bit FNV-1a hash of a title: tells a changed title without keeping every title's text. */
function titleHash(title: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < title.length; i++) hash = Math.imul(hash ^ title.charCodeAt(i), 0x01000193);
  return hash | 0;
}

export function createTitleIndex(db: Db): TitleIndex {
  const byPk = db.prepare<[number, number], KeyRow>(
    'SELECT pk, id, title, category, created_at, score, hot, deleted, seq FROM topics WHERE pk > ? ORDER BY pk LIMIT ?',
  );
  const bySeq = db.prepare<[number], KeyRow>(
    'SELECT pk, id, title, category, created_at, score, hot, deleted, seq FROM topics WHERE seq > ? ORDER BY seq',
  );
  const lastSeq = db.prepare<[], { v: number | null }>('SELECT max(seq) AS v FROM topics');

  // One slot per topic title: a topic whose title changes (moderation) or that is deleted leaves
  // its slot dead in the posting lists and, when it has a title again, takes a new slot.
  let capacity = 1_024;
  let size = 0;
  let pkOf = new Float64Array(capacity);
  let hot = new Float64Array(capacity);
  let score = new Float64Array(capacity);
  /** Each slot's seq as last applied: a topic's REST JSON kept by seq is current while they agree (topic-page-json.ts). */
  let seqOf = new Float64Array(capacity);
  let createdMs = new Float64Array(capacity);
  let alive = new Uint8Array(capacity);
  let hashOf = new Int32Array(capacity);
  let stamp = new Uint32Array(capacity);
  const idOf: string[] = [];
  const categoryOf: string[] = [];
  /** Each pk's live slot + 1 (0: none); pks are SQLite rowids, dense from 1. */
  let slotOfPk = new Int32Array(capacity);
  /** Rows whose created_at is not an ISO time as toISOString writes it: their order is SQLite's to give. */
  let oddTimes = 0;
  const postings = new Map<string, number[]>();
  /** The terms in code-unit order, for prefix ranges: sorted once at the first search, then kept in order. */
  let sortedTerms: string[] | null = null;
  let generation = 0;
  let appliedSeq = -Infinity;
  let building: Promise<void> | null = null;
  let built = false;

  const grow = () => {
    capacity *= 2;
    const widen = <T extends Float64Array | Uint8Array | Int32Array | Uint32Array>(old: T, make: (n: number) => T): T => {
      const next = make(capacity);
      next.set(old);
      return next;
    };
    pkOf = widen(pkOf, (n) => new Float64Array(n));
    hot = widen(hot, (n) => new Float64Array(n));
    score = widen(score, (n) => new Float64Array(n));
    seqOf = widen(seqOf, (n) => new Float64Array(n));
    createdMs = widen(createdMs, (n) => new Float64Array(n));
    alive = widen(alive, (n) => new Uint8Array(n));
    hashOf = widen(hashOf, (n) => new Int32Array(n));
    stamp = widen(stamp, (n) => new Uint32Array(n));
  };

  const addSlot = (row: KeyRow): void => {
    if (size === capacity) grow();
    const slot = size++;
    pkOf[slot] = row.pk;
    hashOf[slot] = titleHash(row.title);
    alive[slot] = 1;
    if (row.pk >= slotOfPk.length) {
      const wider = new Int32Array(Math.max(row.pk + 1, slotOfPk.length * 2));
      wider.set(slotOfPk);
      slotOfPk = wider;
    }
    slotOfPk[row.pk] = slot + 1;
    // A topic's created_at never changes: its slot's is set once.
    const ms = Date.parse(row.created_at);
    if (!(ms >= 0) || new Date(ms).toISOString() !== row.created_at) oddTimes++;
    createdMs[slot] = ms;
    idOf[slot] = row.id;
    categoryOf[slot] = row.category;
    for (const term of titleTerms(row.title)) {
      const list = postings.get(term);
      if (list) list.push(slot);
      else {
        postings.set(term, [slot]);
        // Into its place in the sorted terms (each new topic brings new words: its number, a name),
        // not a sort of them all at the next search.
        if (sortedTerms) sortedTerms.splice(lowerBound(sortedTerms, term), 0, term);
      }
    }
    setKeys(slot, row);
  };
  /** The keys a vote or a response moves (a topic's id, category and time never change), and the seq that moved them. */
  const setKeys = (slot: number, row: KeyRow) => {
    hot[slot] = row.hot;
    score[slot] = row.score;
    seqOf[slot] = row.seq;
  };
  const apply = (row: KeyRow): void => {
    const slot = (slotOfPk[row.pk] ?? 0) - 1;
    if (slot >= 0 && row.deleted === 0 && hashOf[slot] === titleHash(row.title)) {
      setKeys(slot, row);
      return;
    }
    if (slot >= 0) {
      alive[slot] = 0;
      slotOfPk[row.pk] = 0;
    }
    if (row.deleted === 0) addSlot(row);
  };
  /** Reads every row changed since the last seq seen (another process's writes too). */
  const catchUp = (version: number) => {
    if (version <= appliedSeq) return;
    let last = version;
    for (const row of bySeq.iterate(appliedSeq)) {
      apply(row);
      last = Math.max(last, row.seq);
    }
    appliedSeq = last;
  };

  const build = async () => {
    // Rows changed while the build reads are read again by seq afterwards (apply is idempotent).
    // Read only between transactions: inside one this connection would see rows that may still roll back.
    const settled = async () => {
      while (db.inTransaction) await nextTurn();
    };
    await settled();
    const start = lastSeq.get()!.v ?? 0;
    let after = -Infinity;
    for (;;) {
      await settled();
      const rows = byPk.all(after, BUILD_ROWS_PER_TURN);
      for (const row of rows) apply(row);
      if (rows.length < BUILD_ROWS_PER_TURN) break;
      after = rows[rows.length - 1]!.pk;
      await nextTurn();
    }
    appliedSeq = start;
    built = true;
  };

  /** The posting lists of the terms that start with `prefix` (FTS5's `"prefix"*`). */
  const listsOf = (prefix: string): number[][] => {
    sortedTerms ??= [...postings.keys()].sort();
    const terms = sortedTerms;
    const lists: number[][] = [];
    for (let i = lowerBound(terms, prefix); i < terms.length && terms[i]!.startsWith(prefix); i++) lists.push(postings.get(terms[i]!)!);
    return lists;
  };
  const sizeOf = (lists: number[][]) => lists.reduce((sum, list) => sum + list.length, 0);
  /** The matches of a search, reused from one search to the next (a search allocates no list of its matches). */
  let matches = new Int32Array(1_024);

  /**
   * Puts in `matches` the live slots (in `category`, if given) whose title has, for every word, a
   * word starting with it; answers how many. The rarest word's lists are read first, so each further
   * word only marks and filters a short list.
   */
  const collect = (words: string[], category: string | undefined): number => {
    const byWord = [...new Set(words)].map(listsOf).sort((a, b) => sizeOf(a) - sizeOf(b));
    if (byWord.length === 0) return 0;
    let n = 0;
    let gen = ++generation;
    for (const list of byWord[0]!) {
      for (const slot of list) {
        if (stamp[slot] === gen || alive[slot] === 0 || (category !== undefined && categoryOf[slot] !== category)) continue;
        stamp[slot] = gen;
        if (n === matches.length) {
          const wider = new Int32Array(matches.length * 2);
          wider.set(matches);
          matches = wider;
        }
        matches[n++] = slot;
      }
    }
    for (const lists of byWord.slice(1)) {
      gen = ++generation;
      for (const list of lists) for (const slot of list) stamp[slot] = gen;
      let kept = 0;
      for (let i = 0; i < n; i++) if (stamp[matches[i]!] === gen) matches[kept++] = matches[i]!;
      n = kept;
    }
    return n;
  };

  // The orders of shared/rules/sort-order.ts (TOPIC_ORDERS) on the slots' keys; ids compare by code
  // unit, as SQLite's BINARY collation does for these ASCII ids. created_at is compared as its
  // milliseconds: for ISO times as toISOString writes them (every time Crux stores) the same order as
  // their text's, and while any other is indexed (oddTimes) SQLite answers. Negative: a comes first.
  const compare: Record<Sort, (a: number, b: number) => number> = {
    hot: (a, b) => hot[b]! - hot[a]! || (idOf[a]! < idOf[b]! ? -1 : idOf[a]! > idOf[b]! ? 1 : 0),
    new: (a, b) => newer(a, b),
    top: (a, b) => score[b]! - score[a]! || newer(a, b),
  };
  const newer = (a: number, b: number) => createdMs[b]! - createdMs[a]! || (idOf[a]! > idOf[b]! ? -1 : idOf[a]! < idOf[b]! ? 1 : 0);
  /** Each order's first key (larger first in all three): a slot below the heap's worst on it is out at once. */
  const firstKey: Record<Sort, () => Float64Array> = { hot: () => hot, new: () => createdMs, top: () => score };

  /** The first `k` of the first `n` matches in `order`, sorted: a bounded heap when k is small against n. */
  const firstK = (n: number, k: number, order: (a: number, b: number) => number, key: Float64Array): number[] => {
    if (k * 8 >= n) return Array.from(matches.subarray(0, n)).sort(order).slice(0, k);
    // A max-heap (by order) of the k best so far: its top is the worst of them.
    const heap: number[] = [];
    const up = (i: number) => {
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (order(heap[i]!, heap[parent]!) <= 0) return;
        const swap = heap[i]!;
        heap[i] = heap[parent]!;
        heap[parent] = swap;
        i = parent;
      }
    };
    const down = (i: number) => {
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let worst = i;
        if (left < heap.length && order(heap[left]!, heap[worst]!) > 0) worst = left;
        if (right < heap.length && order(heap[right]!, heap[worst]!) > 0) worst = right;
        if (worst === i) return;
        const swap = heap[i]!;
        heap[i] = heap[worst]!;
        heap[worst] = swap;
        i = worst;
      }
    };
    // Newest first: slots are numbered in the order topics were created, and every order favours the
    // recent ones (new, hot) or is indifferent (top), so most slots then lose to the heap's top at once.
    for (let i = n - 1; i >= 0; i--) {
      const slot = matches[i]!;
      if (heap.length < k) {
        heap.push(slot);
        up(heap.length - 1);
      } else if (key[slot]! >= key[heap[0]!]! && order(slot, heap[0]!) < 0) {
        heap[0] = slot;
        down(0);
      }
    }
    return heap.sort(order);
  };

  return {
    search(query, version) {
      if (!built) {
        building ??= build();
        return undefined;
      }
      catchUp(version);
      if (oddTimes > 0) return undefined;
      const n = collect(query.words, query.category);
      const wanted = query.offset + query.limit;
      return firstK(n, wanted, compare[query.sort], firstKey[query.sort]())
        .slice(query.offset, wanted)
        .map((slot) => pkOf[slot]!);
    },
    seqOf(pk) {
      const slot = (slotOfPk[pk] ?? 0) - 1;
      return slot >= 0 ? seqOf[slot] : undefined;
    },
    ready() {
      building ??= build();
      return building;
    },
  };
}
