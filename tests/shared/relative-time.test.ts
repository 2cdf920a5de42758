// Relative time: every boundary, singular and plural, future dates.
import { describe, expect, it } from 'vitest';
import { relativeTime } from '../../shared/rules/relative-time.js';

const NOW = new Date('2026-06-15T12:00:00.000Z');
const S = 1;
const MIN = 60 * S;
const H = 60 * MIN;
const D = 24 * H;
const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000);

describe('relativeTime', () => {
  it.each([
    [0, 'just now'],
    [1, 'just now'],
    [44, 'just now'],
    [44.999, 'just now'],
    [45, '1 minute ago'],
    [89, '1 minute ago'],
    [119, '1 minute ago'],
    [120, '2 minutes ago'],
    [59 * MIN + 59, '59 minutes ago'],
    [H, '1 hour ago'],
    [2 * H - 1, '1 hour ago'],
    [2 * H, '2 hours ago'],
    [D - 1, '23 hours ago'],
    [D, '1 day ago'],
    [2 * D - 1, '1 day ago'],
    [2 * D, '2 days ago'],
    [7 * D - 1, '6 days ago'],
    [7 * D, '1 week ago'],
    [14 * D - 1, '1 week ago'],
    [14 * D, '2 weeks ago'],
    [35 * D - 1, '4 weeks ago'],
    [35 * D, '1 month ago'],
    [60 * D - 1, '1 month ago'],
    [60 * D, '2 months ago'],
    [360 * D - 1, '11 months ago'],
    [360 * D, '1 year ago'],
    [365 * D, '1 year ago'],
    [730 * D - 1, '1 year ago'],
    [730 * D, '2 years ago'],
    [3650 * D, '10 years ago'],
  ])('%d seconds ago → %s', (seconds, expected) => {
    expect(relativeTime(ago(seconds), NOW)).toBe(expected);
  });

  it.each([
    ['one second ahead', 1],
    ['an hour ahead', H],
    ['a year ahead', 365 * D],
  ])('a future date (%s) shows "just now"', (_label, seconds) => {
    expect(relativeTime(ago(-seconds), NOW)).toBe('just now');
  });

  it('accepts ISO strings as the API sends them', () => {
    expect(relativeTime('2026-06-15T10:00:00.000Z', NOW)).toBe('2 hours ago');
  });

  it('shows "just now" for a date it cannot read rather than "NaN"', () => {
    expect(relativeTime('not a date', NOW)).toBe('just now');
  });
});
