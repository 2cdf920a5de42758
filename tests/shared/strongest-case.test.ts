// The strongest case as a pure rule: each response's side of the question (a reply's type is relative to its
// parent), its strength (own side's Wilson lower bound + the common-ground bonus), and the three
// best per side; the worked example of docs/COMMON-GROUND.md, "The strongest case on each side".
import { describe, expect, it } from 'vitest';
import type { ResponseType } from '../../shared/constants';
import { wilsonLowerBound } from '../../shared/rules/common-ground';
import { argumentStrength, sidesOf, strongestCase, STRONGEST_CASE_SIZE, type CaseCandidate } from '../../shared/rules/strongest-case';

let clock = 0;
function r(id: string, type: ResponseType, agree: number, disagree: number, extra: Partial<CaseCandidate> = {}): CaseCandidate {
  clock++;
  return {
    id,
    type,
    parent_response_id: null,
    upvotes_agree: agree,
    upvotes_disagree: disagree,
    score: agree + disagree,
    created_at: `2026-01-01T00:00:${String(clock).padStart(2, '0')}.000Z`,
    moderation: null,
    ...extra,
  };
}

/** The worked example: 10 participants agree, 8 disagree. */
const PARTICIPANTS = { agree: 10, disagree: 8 };

describe('sidesOf (a reply agrees or disagrees with its parent, not with the question)', () => {
  it.each([
    { chain: ['for'], side: 'for' },
    { chain: ['against'], side: 'against' },
    { chain: ['neutral'], side: null },
    { chain: ['for', 'for'], side: 'for' },
    { chain: ['for', 'against'], side: 'against' },
    { chain: ['against', 'for'], side: 'against' },
    { chain: ['against', 'against'], side: 'for' },
    { chain: ['for', 'against', 'against'], side: 'for' },
    { chain: ['for', 'neutral', 'for'], side: null },
    { chain: ['neutral', 'against'], side: null },
  ] as { chain: ResponseType[]; side: string | null }[])('$chain → $side', ({ chain, side }) => {
    const responses = chain.map((type, i) => r(`c${i}`, type, 0, 0, { parent_response_id: i === 0 ? null : `c${i - 1}` }));
    // Any order in: the answer does not depend on which response is met first.
    expect(sidesOf([...responses].reverse()).get(`c${chain.length - 1}`)).toBe(side);
    expect(sidesOf(responses).get(`c${chain.length - 1}`)).toBe(side);
  });

  it('gives no side to a reply whose parent is not on this device, or to a cycle', () => {
    const sides = sidesOf([
      r('orphan', 'for', 0, 0, { parent_response_id: 'gone' }),
      r('x', 'for', 0, 0, { parent_response_id: 'y' }),
      r('y', 'for', 0, 0, { parent_response_id: 'x' }),
    ]);
    expect([sides.get('orphan'), sides.get('x'), sides.get('y')]).toEqual([null, null, null]);
  });

  it('walks a 20,000-deep chain without recursion', () => {
    const chain = Array.from({ length: 20_000 }, (_, i) =>
      r(`d${i}`, i % 2 ? 'against' : 'for', 0, 0, { parent_response_id: i ? `d${i - 1}` : null }),
    );
    // Root for, then alternating against replies: each against flips the side.
    expect(sidesOf(chain).get('d19999')).toBe('for');
  });
});

describe('argumentStrength (own side + common-ground bonus), 10 agree and 8 disagree', () => {
  it.each([
    { name: 'F1', side: 'for', agree: 6, disagree: 3, own: 0.3127, cg: 0.1368, strength: 0.4495 },
    { name: 'F2', side: 'for', agree: 9, disagree: 0, own: 0.5958, cg: 0, strength: 0.5958 },
    { name: 'F3', side: 'for', agree: 7, disagree: 0, own: 0.3968, cg: 0, strength: 0.3968 },
    { name: 'F4', side: 'for', agree: 2, disagree: 5, own: 0.0567, cg: 0.0567, strength: 0.1134 },
    { name: 'A1', side: 'against', agree: 1, disagree: 6, own: 0.4093, cg: 0.0179, strength: 0.4272 },
    { name: 'A2', side: 'against', agree: 0, disagree: 4, own: 0.2152, cg: 0, strength: 0.2152 },
    { name: 'unseen', side: 'for', agree: 0, disagree: 0, own: 0, cg: 0, strength: 0 },
  ] as const)('$name: $agree of 10 agree, $disagree of 8 disagree → $strength', ({ side, agree, disagree, own, cg, strength }) => {
    const got = argumentStrength(side, { upvotes_agree: agree, upvotes_disagree: disagree }, PARTICIPANTS);
    expect(got.own).toBeCloseTo(own, 4);
    expect(got.commonGround).toBeCloseTo(cg, 4);
    expect(got.strength).toBeCloseTo(strength, 3);
  });

  it('respect from the other side lifts an argument above one with a little more approval from its own side only', () => {
    const respected = argumentStrength('for', { upvotes_agree: 6, upvotes_disagree: 3 }, PARTICIPANTS);
    const oneSided = argumentStrength('for', { upvotes_agree: 7, upvotes_disagree: 0 }, PARTICIPANTS);
    expect(respected.strength).toBeGreaterThan(oneSided.strength);
  });

  it('is 0 for a side nobody took', () => {
    expect(argumentStrength('against', { upvotes_agree: 5, upvotes_disagree: 5 }, { agree: 5, disagree: 0 }).strength).toBe(0);
  });
});

describe('strongestCase', () => {
  const F1 = r('F1', 'for', 6, 3);
  const F2 = r('F2', 'for', 9, 0);
  const F3 = r('F3', 'for', 7, 0);
  const F4 = r('F4', 'for', 2, 5);
  // Popular with people who took no side (40 upvotes), approved by nobody on its own side.
  const popular = r('popular', 'for', 0, 0, { score: 40 });
  const removed = r('removed', 'for', 10, 8, { moderation: 'removed' });
  const A1 = r('A1', 'against', 1, 6);
  // "Agrees" with A1, so it argues against the question.
  const A2 = r('A2', 'for', 0, 4, { parent_response_id: 'A1' });
  // "Disagrees" with F2: against the question too.
  const A3 = r('A3', 'against', 0, 3, { parent_response_id: 'F2' });
  // Agreeing with A1 but approved only by the agree side: no approval from its own (disagree) side.
  const A4 = r('A4', 'for', 3, 0, { parent_response_id: 'A1' });
  const N = r('N', 'neutral', 9, 8);
  const ALL = [F1, F2, F3, F4, popular, removed, A1, A2, A3, A4, N];

  it('ranks three per side by strength, never by raw score, skipping moderated, neutral and unapproved ones', () => {
    const best = strongestCase(ALL, PARTICIPANTS);
    expect(STRONGEST_CASE_SIZE).toBe(3);
    expect(best.for.map((a) => a.response.id)).toEqual(['F2', 'F1', 'F3']);
    expect(best.against.map((a) => a.response.id)).toEqual(['A1', 'A2', 'A3']);
    expect(best.for[0]).toMatchObject({ side: 'for' });
    expect(best.for[1]!.strength).toBeCloseTo(0.4495, 3);
    expect(best.against.every((a) => a.side === 'against')).toBe(true);
  });

  it('is the same whatever order the responses come in, and shows fewer when fewer qualify', () => {
    const shuffled = [N, A4, F4, A3, F3, removed, A2, popular, F1, A1, F2];
    expect(strongestCase(shuffled, PARTICIPANTS)).toEqual(strongestCase(ALL, PARTICIPANTS));
    expect(strongestCase([F4, A1], PARTICIPANTS)).toMatchObject({ for: [{ response: F4 }], against: [{ response: A1 }] });
    // A reply whose parent is not on this device has no known side yet.
    expect(strongestCase([A2], PARTICIPANTS)).toEqual({ for: [], against: [] });
    expect(strongestCase(ALL, PARTICIPANTS, 1).for.map((a) => a.response.id)).toEqual(['F2']);
    expect(strongestCase(ALL, PARTICIPANTS, 0)).toEqual({ for: [], against: [] });
  });

  it("skips what `exclude` names (a blocked author's), whose replies keep their side", () => {
    const best = strongestCase(ALL, PARTICIPANTS, 3, (x) => x.id === 'A1' || x.id === 'F2');
    expect(best.for.map((a) => a.response.id)).toEqual(['F1', 'F3', 'F4']);
    expect(best.against.map((a) => a.response.id)).toEqual(['A2', 'A3']);
  });

  it('breaks equal strength by net score, then the older, then the id', () => {
    const a = r('a', 'for', 3, 0, { score: 3 });
    const b = r('b', 'for', 3, 0, { score: 5 });
    const c = r('c', 'for', 3, 0, { score: 3, created_at: '2020-01-01T00:00:00.000Z' });
    const d = r('d', 'for', 3, 0, { score: 3, created_at: '2020-01-01T00:00:00.000Z' });
    expect(strongestCase([a, d, c, b], PARTICIPANTS, 4).for.map((x) => x.response.id)).toEqual(['b', 'c', 'd', 'a']);
  });

  it('shows nothing until people take sides, and nothing from an empty topic', () => {
    expect(strongestCase(ALL, { agree: 0, disagree: 0 })).toEqual({ for: [], against: [] });
    expect(strongestCase([], PARTICIPANTS)).toEqual({ for: [], against: [] });
  });
});

describe("a side's own disagrees count against its arguments", () => {
  it('drops an argument its own side disagrees with as much as it agrees, and ranks the rest', () => {
    // F5 has the most agrees from its side (9 of 10) but 9 of its side disagree too: dropped.
    const F5 = r('F5', 'for', 9, 0, { downvotes_agree: 9 });
    const F6 = r('F6', 'for', 5, 0);
    const best = strongestCase([F5, F6], PARTICIPANTS);
    expect(best.for.map((a) => a.response.id)).toEqual(['F6']);
    expect(argumentStrength('for', F5, PARTICIPANTS)).toEqual({ own: 0, commonGround: 0, strength: 0 });
  });

  it('a few disagrees from its own side move an argument below one with fewer agrees and none', () => {
    const contested = r('contested', 'for', 8, 0, { downvotes_agree: 4 });
    const clean = r('clean', 'for', 6, 0);
    expect(argumentStrength('for', contested, PARTICIPANTS).own).toBeCloseTo(wilsonLowerBound(4, 10), 10);
    expect(strongestCase([contested, clean], PARTICIPANTS).for.map((a) => a.response.id)).toEqual(['clean', 'contested']);
  });

  it("the other side's disagrees only take away the common-ground bonus", () => {
    const respected = argumentStrength('for', { upvotes_agree: 6, upvotes_disagree: 3 }, PARTICIPANTS);
    const opposed = argumentStrength('for', { upvotes_agree: 6, upvotes_disagree: 3, downvotes_disagree: 5 }, PARTICIPANTS);
    expect(opposed.own).toBeCloseTo(respected.own, 10);
    expect(opposed.commonGround).toBe(0);
  });
});
