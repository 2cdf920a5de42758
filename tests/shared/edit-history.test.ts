// The edit history's rules: the grace period that folds early edits, and the word diff the
// "edited" mark's list shows between two versions.
import { describe, expect, it } from 'vitest';
import { EDIT_GRACE_MS, keepsVersion, publicVersions, VERSIONS_SHOWN, wordDiff, type DiffPart } from '../../shared/rules/edit-history.js';

const older = (parts: DiffPart[]) =>
  parts
    .filter((p) => p.kind !== 'added')
    .map((p) => p.text)
    .join('');
const newer = (parts: DiffPart[]) =>
  parts
    .filter((p) => p.kind !== 'removed')
    .map((p) => p.text)
    .join('');

describe('keepsVersion', () => {
  const posted = '2026-01-01T12:00:00.000Z';
  it('folds an edit inside the grace period and keeps one after it', () => {
    expect(EDIT_GRACE_MS).toBe(5 * 60 * 1000);
    expect(keepsVersion(posted, '2026-01-01T12:04:59.999Z')).toBe(false);
    expect(keepsVersion(posted, '2026-01-01T12:05:00.000Z')).toBe(true);
    expect(keepsVersion(posted, '2026-01-02T00:00:00.000Z')).toBe(true);
  });
});

describe('wordDiff', () => {
  it('marks a replaced word as removed then added, the rest the same', () => {
    expect(wordDiff('The sky is green today', 'The sky is blue today')).toEqual([
      { kind: 'same', text: 'The sky is ' },
      { kind: 'removed', text: 'green ' },
      { kind: 'added', text: 'blue ' },
      { kind: 'same', text: 'today' },
    ]);
  });

  it('finds words added and removed in several places', () => {
    const parts = wordDiff('one two three four five', 'zero one three four six five');
    expect(parts).toEqual([
      { kind: 'added', text: 'zero ' },
      { kind: 'same', text: 'one ' },
      { kind: 'removed', text: 'two ' },
      { kind: 'same', text: 'three four ' },
      { kind: 'added', text: 'six ' },
      { kind: 'same', text: 'five' },
    ]);
  });

  it.each([
    ['', ''],
    ['', 'all new'],
    ['all gone', ''],
    ['same text', 'same text'],
    ['line one\nline two\n\nline three', 'line one\nline 2\n\nline three and more'],
    ['a b a b a b', 'b a b a'],
    ['spaced  out', 'spaced out'],
    ['  leading space', 'leading space  '],
  ])('rebuilds both texts from the parts (%j → %j)', (before, after) => {
    const parts = wordDiff(before, after);
    expect(older(parts)).toBe(before);
    expect(newer(parts)).toBe(after);
    // Neighbours of one kind are merged, and no part is empty.
    for (let i = 0; i < parts.length; i++) {
      expect(parts[i]!.text).not.toBe('');
      if (i > 0) expect(parts[i]!.kind).not.toBe(parts[i - 1]!.kind);
    }
  });

  it('answers an unchanged text as one part', () => {
    expect(wordDiff('nothing changed', 'nothing changed')).toEqual([{ kind: 'same', text: 'nothing changed' }]);
  });
});

describe('publicVersions', () => {
  const kept = (n: number) => Array.from({ length: n }, (_, i) => ({ version: i + 1 }));
  it(`keeps all up to ${VERSIONS_SHOWN + 1}, then the first and the last ${VERSIONS_SHOWN}`, () => {
    expect(publicVersions(kept(3)).map((v) => v.version)).toEqual([1, 2, 3]);
    expect(publicVersions(kept(VERSIONS_SHOWN + 1))).toHaveLength(VERSIONS_SHOWN + 1);
    const many = publicVersions(kept(VERSIONS_SHOWN + 30)).map((v) => v.version);
    expect(many).toHaveLength(VERSIONS_SHOWN + 1);
    expect(many[0]).toBe(1);
    expect(many[1]).toBe(31);
    expect(many.at(-1)).toBe(VERSIONS_SHOWN + 30);
  });
});
