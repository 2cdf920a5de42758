// Opinion groups: planted groups are recovered (adjusted Rand index ≥ 0.8), random
// votes show "no clear groups", a small topic is "too-few", and the summary names no one.
import { describe, expect, it } from 'vitest';
import { seededRandom, SILHOUETTE_POINTS } from '../../shared/rules/clustering.js';
import {
  isConsensusIn,
  OPINION_GROUPS,
  opinionGroups,
  parseOpinionGroups,
  voteMatrix,
  type ResponseVote,
} from '../../shared/rules/opinion-groups.js';
import { groupParticipants } from '../../shared/rules/polis-groups.js';
import { adjustedRand } from '../fixtures/polis.js';

interface Planted {
  upvotes: ResponseVote[];
  truth: Map<string, number>;
  own: string[][];
  shared: string[];
}

/**
 * `sizes[g]` people in group g; each group has 6 responses of its own it mostly upvotes, and 3 most of every group likes.
 * `twoQuestions`: four groups made of two questions with two sides each (6 responses a side), group g
 * taking side g % 2 of the first and side ⌊g / 2⌋ of the second. Polis draws people on two principal
 * components; four groups that each hold a view of their own need three, and a map of two cannot
 * show them apart; two questions, two sides each, it can.
 */
function planted(sizes: number[], seed: number, ownP = 0.7, otherP = 0.05, sharedP = 0.6, twoQuestions = false): Planted {
  const random = seededRandom(seed);
  const own = twoQuestions
    ? [0, 1].flatMap((q) => [0, 1].map((side) => Array.from({ length: 6 }, (_, j) => `q${q}-s${side}-r${j}`)))
    : sizes.map((_, g) => Array.from({ length: 6 }, (_, j) => `g${g}-r${j}`));
  // The sets of `own` group g agrees with: its own, or its side of each question.
  const held = (g: number) => (twoQuestions ? [g % 2, 2 + Math.floor(g / 2)] : [g]);
  const shared = ['all-1', 'all-2', 'all-3'];
  const upvotes: ResponseVote[] = [];
  const truth = new Map<string, number>();
  sizes.forEach((size, g) => {
    for (let p = 0; p < size; p++) {
      const voter = `u-${g}-${p}`;
      truth.set(voter, g);
      // Everyone reads every response: one not upvoted is a pass (read, no opinion), not a missing vote.
      own.forEach((ids, h) =>
        ids.forEach((id) => upvotes.push({ voter, response: id, value: random() < (held(g).includes(h) ? ownP : otherP) ? 1 : 0 })),
      );
      shared.forEach((id) => upvotes.push({ voter, response: id, value: random() < sharedP ? 1 : 0 }));
    }
  });
  return { upvotes, truth, own, shared };
}

/** Recovered labels in the order of the planted ones (the summary hides them; the rule's own function gives them). */
function recovered(upvotes: ResponseVote[]): { voters: string[]; labels: number[] } | null {
  const { voters, matrix, counted } = voteMatrix(upvotes);
  const found = groupParticipants(matrix, counted, OPINION_GROUPS.MIN_GROUP_SIZE, OPINION_GROUPS.SEED);
  return found && { voters, labels: found.labels };
}

describe('opinion groups', () => {
  it.each([
    { sizes: [20, 20], seed: 1 },
    { sizes: [30, 12], seed: 2 },
    { sizes: [15, 15, 15], seed: 3 },
    { sizes: [25, 15, 10], seed: 4 },
    { sizes: [12, 12, 12, 12], seed: 5, twoQuestions: true },
    { sizes: [40, 30, 20, 10], seed: 6, twoQuestions: true },
  ])('recovers planted groups $sizes (adjusted Rand index ≥ 0.8)', ({ sizes, seed, twoQuestions = false }) => {
    const { upvotes, truth, own, shared } = planted(sizes, seed, 0.7, 0.05, 0.8, twoQuestions);
    const found = recovered(upvotes);
    expect(found).not.toBeNull();
    const ari = adjustedRand(
      found!.labels,
      found!.voters.map((v) => truth.get(v)!),
    );
    expect(ari).toBeGreaterThanOrEqual(0.8);

    const summary = opinionGroups(upvotes);
    expect(summary.status).toBe('groups');
    expect(summary.groups.map((g) => g.size).sort((a, b) => b - a)).toEqual(summary.groups.map((g) => g.size));
    expect(summary.groups).toHaveLength(sizes.length);
    // Each group's representative responses are the planted ones of one group (with two questions:
    // of one side of each question at most, and no two groups the same sides); consensus is the shared ones.
    const held = new Set<string>();
    for (const group of summary.groups) {
      expect(group.representative.length).toBeGreaterThan(0);
      const owners = [...new Set(group.representative.map((r) => own.findIndex((ids) => ids.includes(r.response_id))))].sort();
      expect(Math.min(...owners)).toBeGreaterThanOrEqual(0);
      if (twoQuestions) expect(new Set(owners.map((o) => Math.floor(o / 2))).size).toBe(owners.length);
      else expect(owners).toHaveLength(1);
      held.add(owners.join());
    }
    expect(held.size).toBe(summary.groups.length);
    expect(summary.consensus.length).toBeGreaterThan(0);
    for (const c of summary.consensus) expect(shared).toContain(c.response_id);
  });

  it('on a big topic (the silhouette scores a sample) still recovers the planted groups', () => {
    const { upvotes, truth } = planted([1200, 1000, 800], 13);
    const found = recovered(upvotes)!;
    expect(found.voters.length).toBeGreaterThan(SILHOUETTE_POINTS);
    expect(
      adjustedRand(
        found.labels,
        found.voters.map((v) => truth.get(v)!),
      ),
    ).toBeGreaterThanOrEqual(0.8);
    expect(opinionGroups(upvotes).groups.map((g) => g.size)).toHaveLength(3);
  }, 120_000);

  it.each([
    { people: 40, p: 0.3, seed: 7 },
    { people: 120, p: 0.2, seed: 8 },
    { people: 300, p: 0.1, seed: 9 },
    { people: 2500, p: 0.1, seed: 14 },
  ])('random votes ($people people, p = $p) show no clear groups', ({ people, p, seed }) => {
    const random = seededRandom(seed);
    const upvotes: ResponseVote[] = [];
    for (let i = 0; i < people; i++) {
      for (let j = 0; j < 30; j++) upvotes.push({ voter: `v${i}`, response: `r${j}`, value: random() < p ? 1 : 0 });
    }
    const summary = opinionGroups(upvotes);
    expect(summary.status).toBe('no-clear-groups');
    expect(summary.groups).toEqual([]);
  });

  it('needs 12 people with at least MIN_VOTES votes each', () => {
    const { upvotes } = planted([6, 5], 10, 0.9, 0.05, 0.9);
    const summary = opinionGroups(upvotes);
    expect(summary.participants).toBeLessThan(OPINION_GROUPS.MIN_PARTICIPANTS);
    expect(summary).toMatchObject({ status: 'too-few', groups: [], consensus: [] });
    // Two-vote people do not count.
    const two = Array.from({ length: 20 }, (_, i) =>
      [`r${i % 3}`, `r${(i + 1) % 3}`].map((response) => ({ voter: `w${i}`, response })),
    ).flat();
    expect(opinionGroups(two).participants).toBe(0);
  });

  it('is deterministic and independent of the order of the votes', () => {
    const { upvotes } = planted([20, 15, 10], 11);
    const reversed = [...upvotes].reverse();
    expect(opinionGroups(reversed)).toEqual(opinionGroups(upvotes));
  });

  it('names no participant: only sizes, response ids and shares', () => {
    const { upvotes } = planted([20, 20], 12);
    const text = JSON.stringify(opinionGroups(upvotes));
    expect(text).not.toMatch(/u-\d/);
  });
});

describe('opinion groups: the worked example and the replicated text', () => {
  /** docs/COMMON-GROUND.md "Worked example" of "Opinion groups". */
  const example: ResponseVote[] = [];
  // p01–p14 read all six responses: the ones listed are agrees, the others passes; p15 voted on two only.
  const add = (voter: string, responses: string[]) => responses.forEach((response) => example.push({ voter, response }));
  const passRest = (voter: string) =>
    ['R1', 'R2', 'R3', 'R4', 'R5', 'R6'].forEach(
      (response) => example.some((v) => v.voter === voter && v.response === response) || example.push({ voter, response, value: 0 }),
    );
  for (let i = 1; i <= 8; i++) add(`p${String(i).padStart(2, '0')}`, ['R1', 'R2', 'R5']);
  add('p01', ['R3']);
  for (let i = 9; i <= 14; i++) add(`p${String(i).padStart(2, '0')}`, ['R3', 'R4', 'R5']);
  add('p09', ['R6']);
  add('p10', ['R6']);
  for (let i = 1; i <= 14; i++) passRest(`p${String(i).padStart(2, '0')}`);
  add('p15', ['R1', 'R6']);

  it('gives the documented summary', () => {
    expect(opinionGroups(example)).toEqual({
      version: 1,
      status: 'groups',
      participants: 14,
      groups: [
        {
          size: 8,
          representative: [
            { response_id: 'R1', share: 1, others_share: 0 },
            { response_id: 'R2', share: 1, others_share: 0 },
          ],
        },
        {
          size: 6,
          representative: [
            { response_id: 'R4', share: 1, others_share: 0 },
            { response_id: 'R3', share: 1, others_share: 0.13 },
            { response_id: 'R6', share: 0.33, others_share: 0 },
          ],
        },
      ],
      consensus: [{ response_id: 'R5', min_share: 1 }],
    });
  });

  it('reads back what the server sends, and nothing else', () => {
    const summary = opinionGroups(example);
    expect(parseOpinionGroups(JSON.stringify(summary))).toEqual(summary);
    expect(parseOpinionGroups(null)).toBeNull();
    expect(parseOpinionGroups('not json')).toBeNull();
    expect(parseOpinionGroups(JSON.stringify({ ...summary, version: 2 }))).toBeNull();
    expect(parseOpinionGroups(JSON.stringify({ ...summary, status: 'maybe' }))).toBeNull();
    expect(
      parseOpinionGroups(JSON.stringify({ ...summary, groups: [{ size: 3, representative: [{ response_id: 'x', share: 2 }] }] })),
    ).toBeNull();
  });
});

describe('consensus counts disagrees (Polis: P(agree) high and P(disagree) low in every group)', () => {
  it('per group: a Laplace-smoothed majority agrees, few disagree, and passes only lower the agree share', () => {
    expect(isConsensusIn(8, 0, 10)).toBe(true);
    // A sizeable share disagreeing rules it out even with a majority agreeing.
    expect(isConsensusIn(7, 3, 10)).toBe(false);
    // Passes are seen, no opinion: 4 agrees and 6 passes is no majority, but no disagree either.
    expect(isConsensusIn(4, 0, 10)).toBe(false);
    expect(isConsensusIn(9, 0, 10)).toBe(true);
    // Too few of the group voted on it to say.
    expect(isConsensusIn(2, 0, 2)).toBe(false);
  });

  /** Two planted groups; `both` agreed by everyone, `split` agreed by group 0 and disagreed by group 1, `passed` agreed by group 0 and passed by group 1. */
  function twoGroups() {
    const { upvotes } = planted([20, 20], 21, 0.9, 0.05, 0.9);
    const votes = [...upvotes];
    for (let g = 0; g < 2; g++) {
      for (let p = 0; p < 20; p++) {
        const voter = `u-${g}-${p}`;
        votes.push({ voter, response: 'both', value: 1 });
        votes.push({ voter, response: 'split', value: g === 0 ? 1 : -1 });
        votes.push({ voter, response: 'passed', value: g === 0 ? 1 : 0 });
      }
    }
    return votes;
  }

  it('a response agreed by one group and disagreed by the other is not consensus; one agreed by both is', () => {
    const summary = opinionGroups(twoGroups());
    expect(summary.status).toBe('groups');
    expect(summary.groups).toHaveLength(2);
    const ids = summary.consensus.map((c) => c.response_id);
    expect(ids).toContain('both');
    expect(ids).not.toContain('split');
    expect(ids).not.toContain('passed');
  });
});
