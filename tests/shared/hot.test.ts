// The hot score (docs/RULES.md): sign(s)·log10(max(|s|,1)) + created_epoch_seconds/45000, s = score + responses.
import { describe, expect, it } from 'vitest';
import { hotScore } from '../../shared/rules/hot.js';

const EPOCH = '1970-01-01T00:00:00.000Z';
const at = (seconds: number) => new Date(seconds * 1000).toISOString();

describe('hotScore', () => {
  it.each([
    // score, responses, created, expected
    [0, 0, EPOCH, 0],
    [1, 0, EPOCH, 0],
    [-1, 0, EPOCH, 0],
    [10, 0, EPOCH, 1],
    [5, 5, EPOCH, 1],
    [0, 100, EPOCH, 2],
    [-10, 0, EPOCH, -1],
    [-20, 10, EPOCH, -1],
    [1000, 0, EPOCH, 3],
    [0, 0, at(45_000), 1],
    [10, 0, at(90_000), 3],
    [-100, 0, at(45_000), -1],
  ])('score %d, responses %d, created %s → %d', (score, responses, created, expected) => {
    expect(hotScore(score, responses, created)).toBeCloseTo(expected, 10);
  });

  it('accepts a Date as well as an ISO string', () => {
    const created = new Date('2026-01-01T00:00:00.000Z');
    expect(hotScore(3, 4, created)).toBe(hotScore(3, 4, created.toISOString()));
  });

  it('is time-invariant: the same item always gets the same score', () => {
    expect(hotScore(7, 2, '2026-03-01T10:00:00Z')).toBe(hotScore(7, 2, '2026-03-01T10:00:00Z'));
  });

  it('ten times the activity is worth 12.5 hours of freshness', () => {
    const older = hotScore(100, 0, at(1_000_000));
    const newer = hotScore(10, 0, at(1_000_000 + 45_000));
    expect(older).toBeCloseTo(newer, 10);
  });

  it('a newer item with the same activity ranks higher', () => {
    expect(hotScore(5, 1, at(2_000_000))).toBeGreaterThan(hotScore(5, 1, at(1_999_999)));
  });

  it('more activity at the same time ranks higher', () => {
    expect(hotScore(50, 0, at(2_000_000))).toBeGreaterThan(hotScore(5, 0, at(2_000_000)));
  });
});
