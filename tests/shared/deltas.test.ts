// "This changed my view" (Δ): the rules the app and the server share (shared/rules/deltas.ts).
import { describe, expect, it } from 'vitest';
import { MAX_DELTAS_PER_CHANGE, PERSUASION_POINTS_PER_DELTA } from '../../shared/constants.js';
import { MSG } from '../../shared/messages.js';
import { creditProblem, mindChanged, persuasionPoints, type CreditTarget } from '../../shared/rules/deltas.js';
import { hasStanding, STANDING_MIN_AGE_DAYS, STANDING_MIN_POINTS } from '../../shared/rules/standing.js';

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

  it('refuses a response written after the change, when both times are known', () => {
    const timed: Record<string, CreditTarget> = {
      before: { topic_id: 't1', creator_uid: 'bob', created_at: '2026-03-01T10:00:00.000Z' },
      same: { topic_id: 't1', creator_uid: 'bob', created_at: '2026-03-01T12:00:00.000Z' },
      after: { topic_id: 't1', creator_uid: 'bob', created_at: '2026-03-01T12:00:01.000Z' },
    };
    const at = (credits: string[], changedAt?: string) =>
      creditProblem(credits, { uid: 'ada', topicId: 't1', changes: 1, changedAt, target: (id) => timed[id] });
    expect(at(['before', 'same'], '2026-03-01T12:00:00.000Z')).toBeNull();
    expect(at(['before', 'after'], '2026-03-01T12:00:00.000Z')).toMatchObject({
      code: 'invalid-argument',
      message: MSG.deltaAfterChange,
    });
    // Without the change's time (the app offline) nothing is refused for it.
    expect(at(['after'])).toBeNull();
  });
});

describe('hasStanding', () => {
  const now = '2026-03-10T00:00:00.000Z';
  it('is documented as 3 days and 5 points', () => {
    expect([STANDING_MIN_AGE_DAYS, STANDING_MIN_POINTS]).toEqual([3, 5]);
  });

  it.each([
    ['old enough with enough points', '2026-03-07T00:00:00.000Z', 5, true],
    ['a minute too young', '2026-03-07T00:01:00.000Z', 50, false],
    ['old, one point short', '2026-01-01T00:00:00.000Z', 4, false],
    ['new, no points', now, 0, false],
  ])('%s', (_case, createdAt, points, expected) => {
    expect(hasStanding({ created_at: createdAt, points }, now)).toBe(expected);
  });
});
