// `npm run bench -- device`: the device-side rules on a 10,000-response topic, in Node
// (the pure functions the topic page and the composer run; no browser): the strongest case on each
// side, opinion groups (the server's background computation, pure: 2,000 participants), and "This was already said": the terms of every text (once per session, worked out in idle
// slices of 8 ms from the first character typed: no budget, the sum of those slices), the index
// built from them at the pause, and one draft compared (two passes: the draft, then the draft
// widened by its neighbours), each with shared words only (before the word vectors have come) and
// with the word vectors (public/word-vectors-1.bin, read from disk as the app fetches it).
// Generated responses: a seeded mix of roots and replies of every type, 20-60 words drawn from the
// 2,000 commonest words that have a vector (so the vectors' cost is the real one), upvotes by side.
// Budget 50 ms each. Median of BENCH_RUNS (7) runs after a warm-up; BENCH_DEVICE_RESPONSES changes
// the size. Not a test: nothing asserts a timing.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { ResponseType } from '../../shared/constants.js';
import { opinionGroups, type ResponseVote, type VoteValue } from '../../shared/rules/opinion-groups.js';
import { buildSimilarityIndex, primeTermsCache, type Terms } from '../../shared/rules/similarity.js';
import { strongestCase, type CaseCandidate } from '../../shared/rules/strongest-case.js';
import { parseWordVectors, WORD_VECTORS_PATH } from '../../shared/rules/word-vectors.js';
import type { BenchRow } from './types.js';

const BUDGET_MS = 50;

/** A small deterministic PRNG (mulberry32): the same topic on every run. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface BenchResponse extends CaseCandidate {
  content: string;
}

/** `size` responses: one in ten a root, the others replies to an earlier response. */
export function generateTopic(size: number, seed = 29, vocabulary = syntheticWords()): BenchResponse[] {
  const rand = random(seed);
  const types: ResponseType[] = ['for', 'against', 'neutral'];
  const out: BenchResponse[] = [];
  for (let i = 0; i < size; i++) {
    const words = Array.from({ length: 20 + Math.floor(rand() * 40) }, () => vocabulary[Math.floor(rand() ** 2 * vocabulary.length)]);
    out.push({
      id: `r${i}`,
      type: types[Math.floor(rand() * 3)]!,
      parent_response_id: i % 10 === 0 || i === 0 ? null : `r${Math.floor(rand() * i)}`,
      upvotes_agree: Math.floor(rand() * 40),
      upvotes_disagree: Math.floor(rand() * 30),
      score: Math.floor(rand() * 60) - 5,
      created_at: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
      moderation: null,
      content: `${words.join(' ')}.`,
    });
  }
  return out;
}

/** 2,000 made-up words (no vectors). */
function syntheticWords(): string[] {
  return Array.from({ length: 2_000 }, (_, i) => `word${i.toString(36)}${'aeiou'[i % 5]}`);
}

/**
 * Votes of `participants` people on a topic of `responses`: three camps; each person votes on 30
 * responses, 20 among the 60 most read (every camp reads them; a third belong to each camp) and 10
 * anywhere, agreeing with their camp's and disagreeing with the others' 70% of the time, a pass now
 * and then.
 */
export function generateVotes(participants: number, responses: number, seed = 31): ResponseVote[] {
  const rand = random(seed);
  const popular = Math.min(60, responses);
  const votes: ResponseVote[] = [];
  for (let p = 0; p < participants; p++) {
    const seen = new Set<number>();
    while (seen.size < Math.min(30, responses)) {
      seen.add(seen.size < 20 ? Math.floor(rand() * popular) : Math.floor(rand() * responses));
    }
    for (const r of seen) {
      const own = r % 3 === p % 3;
      const x = rand();
      const value: VoteValue = x < 0.1 ? 0 : x < 0.8 === own ? 1 : -1;
      votes.push({ voter: `v${p}`, response: `r${r}`, value });
    }
  }
  return votes;
}

function median(runs: number, work: () => void): number {
  work(); // warm-up: the JIT, not the rule
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    work();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return Math.round(times[Math.floor(times.length / 2)]! * 10) / 10;
}

export async function benchDeviceRules(): Promise<BenchRow[]> {
  const size = Number(process.env.BENCH_DEVICE_RESPONSES ?? 10_000);
  const runs = Number(process.env.BENCH_RUNS ?? 7);
  const vectors = parseWordVectors(readFileSync(new URL(`../../public${WORD_VECTORS_PATH}`, import.meta.url)));
  // Real English words past the 300 commonest (mostly stop words), each with a vector.
  const words = [...vectors.rows.keys()].slice(300, 2_300);
  const responses = generateTopic(size, 29, words);
  const participants = { agree: 60, disagree: 45 };
  // A draft repeating one response with a few words changed (the composer's case: a hint to find).
  const draft = `${responses[size - 7]!.content.split(' ').slice(0, 30).join(' ')} indeed`;
  const texts = responses.map((r) => r.content);
  const note = `${size} responses, median of ${runs}`;
  const groupParticipants = Number(process.env.BENCH_GROUP_PARTICIPANTS ?? 2_000);
  const votes = generateVotes(groupParticipants, size);
  let found = '';
  // Seconds per run: three runs, not BENCH_RUNS.
  const grouping = median(3, () => {
    const summary = opinionGroups(votes);
    found = summary.status === 'groups' ? `groups (${summary.groups.map((g) => g.size).join(' / ')})` : summary.status;
  });
  const rows: BenchRow[] = [
    {
      name: `opinion groups (${groupParticipants} participants × ${size} responses)`,
      value: grouping,
      unit: 'ms',
      budget: 2_000,
      note: `${votes.length} votes (agree, disagree, pass), median of 3; found ${found}; the server's background job, never while a request waits`,
    },
    {
      name: `strongest case (${size} responses)`,
      value: median(runs, () => void strongestCase(responses, participants)),
      unit: 'ms',
      budget: BUDGET_MS,
      note,
    },
  ];
  for (const [label, table] of [
    ['shared words', null],
    ['with word vectors', vectors],
  ] as const) {
    const cache = new Map<string, Terms>();
    const terms = median(runs, () => {
      cache.clear();
      primeTermsCache(texts, cache, () => false, table);
    });
    let index = buildSimilarityIndex(responses, (r) => r.content, cache, table);
    rows.push(
      {
        name: `already said, ${label}: terms, idle (${size} responses)`,
        value: terms,
        unit: 'ms',
        note: `${note}; once per session, in idle slices of 8 ms while the draft is short`,
      },
      {
        name: `already said, ${label}: index (${size} responses)`,
        value: median(runs, () => void (index = buildSimilarityIndex(responses, (r) => r.content, cache, table))),
        unit: 'ms',
        budget: BUDGET_MS,
        note: `${note}; at the pause once the draft has 4 words, and after a change of the topic's responses`,
      },
      {
        name: `already said, ${label}: one draft (${size} responses)`,
        value: median(runs, () => void index.similarTo(draft)),
        unit: 'ms',
        budget: BUDGET_MS,
        note: `${note}; on each pause in typing`,
      },
    );
  }
  return rows;
}
