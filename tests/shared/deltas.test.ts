// "This changed my view" (Δ): the rules the app and the server share (shared/rules/deltas.ts).
import { describe, expect, it } from 'vitest';
import { MAX_DELTAS_PER_CHANGE, PERSUASION_POINTS_PER_DELTA } from '../../shared/constants.js';
import { MSG } from '../../shared/messages.js';
import { creditProblem, mindChanged, persuasionPoints, type CreditTarget } from '../../shared/rules/deltas.js';

describe('persuasionPoints', () => {
  it('is documented as 5 per Δ', () => {
    expect(PERSUASION_POINTS_PER_DELTA).toBe(5);
  });

  it.each([
    [0, 0],
    [1, 5],
    [2, 10],
    [7, 35],
    [-3, 0], // never negative, whatever a recount says
  ])('%i Δ → %i points', (deltas, points) => {
    expect(persuasionPoints(deltas)).toBe(points);
  });
});

describe('mindChanged', () => {
  it.each([
    ['agree', 'agree', false],
    ['agree', 'disagree', true],
    ['unsure', 'agree', true],
    ['disagree', 'unsure', true],
    // Changed and changed back: the stance now is the "before", so no changed mind is counted.
    ['disagree', 'disagree', false],
  ])('first %s, now %s → %s', (first, current, changed) => {
    expect(mindChanged(first, current)).toBe(changed);
  });
});

describe('creditProblem', () => {
  const responses: Record<string, CreditTarget> = {
    r1: { topic_id: 't1', creator_uid: 'bob' },
    r2: { topic_id: 't1', creator_uid: 'cy' },
    r3: { topic_id: 't1', creator_uid: 'dan' },
    r4: { topic_id: 't1', creator_uid: 'eve' },
    mine: { topic_id: 't1', creator_uid: 'ada' },
    elsewhere: { topic_id: 't2', creator_uid: 'bob' },
  };
  const check = (credits: string[], changes = 1) =>
    creditProblem(credits, { uid: 'ada', topicId: 't1', changes, target: (id) => responses[id] });

  it.each([
    ['no credits, no change', [], 0, null],
    ['no credits after a change', [], 1, null],
    ['one credit after a change', ['r1'], 1, null],
    ['the maximum after a change', ['r1', 'r2', 'r3'], 1, null],
    ['credits after two changes', ['r1'], 2, null],
  ])('%s: allowed', (_case, credits, changes, expected) => {
    expect(check(credits, changes)).toBe(expected);
  });

  it.each([
    ['a credit before any change', ['r1'], 0, 'invalid-argument', MSG.deltaBeforeChange],
    ['one more than the maximum', ['r1', 'r2', 'r3', 'r4'], 1, 'invalid-argument', MSG.deltaTooMany],
    ['the same response twice', ['r1', 'r1'], 1, 'invalid-argument', MSG.deltaTooMany],
    ['an unknown or deleted response', ['gone'], 1, 'not-found', MSG.responseNotFound],
    ['a response of another topic', ['elsewhere'], 1, 'invalid-argument', MSG.deltaOtherTopic],
    ['one’s own response', ['r1', 'mine'], 1, 'permission-denied', MSG.deltaOwnResponse],
  ])('%s: refused', (_case, credits, changes, code, message) => {
    expect(check(credits, changes)).toMatchObject({ code, message });
  });

  it('allows exactly MAX_DELTAS_PER_CHANGE (3) per change', () => {
    expect(MAX_DELTAS_PER_CHANGE).toBe(3);
  });
});
