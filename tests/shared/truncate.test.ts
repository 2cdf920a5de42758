// Truncation with an ellipsis and the plain prefix used for notification summaries.
import { describe, expect, it } from 'vitest';
import { prefix, truncate } from '../../shared/rules/truncate.js';

describe('truncate', () => {
  it.each([
    ['', 5, ''],
    ['short', 5, 'short'],
    ['exactly10!', 10, 'exactly10!'],
    ['abcdefghijk', 10, 'abcdefghij…'],
    ['hello world again', 6, 'hello…'],
    ['😀😀😀😀😀', 3, '😀😀😀…'],
    ['😀😀😀', 3, '😀😀😀'],
    ['a👍🏽b', 2, 'a👍…'],
    ['ab👨‍👩‍👧', 3, 'ab👨…'],
    ['x'.repeat(61), 60, `${'x'.repeat(60)}…`],
  ])('truncate(%j, %d) → %j', (text, max, expected) => {
    expect(truncate(text, max)).toBe(expected);
  });

  it('never leaves half of a surrogate pair', () => {
    const out = truncate('🎉'.repeat(100), 80);
    expect(Array.from(out)).toHaveLength(81);
    expect(out).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/u);
    expect(out.endsWith('🎉…')).toBe(true);
  });
});

describe('prefix', () => {
  it.each([
    ['', 100, ''],
    ['short', 100, 'short'],
    ['abcdef', 3, 'abc'],
    ['🎉🎉🎉🎉', 2, '🎉🎉'],
    ['  padded  ', 4, '  pa'],
    ['x'.repeat(100), 100, 'x'.repeat(100)],
    ['x'.repeat(101), 100, 'x'.repeat(100)],
  ])('prefix(%j, %d) → %j', (text, max, expected) => {
    expect(prefix(text, max)).toBe(expected);
  });

  it('counts emoji as one character each', () => {
    const text = '😀'.repeat(150);
    expect(prefix(text, 100)).toBe('😀'.repeat(100));
  });
});
