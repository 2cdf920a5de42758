// @mentions: the names an "@" could stand for, and where the content names a person.
import { describe, expect, it } from 'vitest';
import {
  MENTION_MAX_CANDIDATES,
  findMentions,
  mentionAtCaret,
  mentionCandidates,
  splitMentions,
  suggestPeople,
} from '../../shared/rules/mentions.js';

describe('mentionCandidates', () => {
  it.each([
    ['no at sign', []],
    ['@Ada', ['Ada']],
    ['hi @Ada Lovelace, see', ['Ada', 'Ada Lovelace', 'Ada Lovelace, see']],
    ['(@Bob) agreed', ['Bob', 'Bob) agreed']],
    ['mail a@b.org or @ alone', []],
    ['@Jean-Luc said', ['Jean', 'Jean-Luc', 'Jean-Luc said']],
    ['@Zoë!', ['Zoë']],
    ['@a b c d e f g h', ['a', 'a b', 'a b c', 'a b c d', 'a b c d e', 'a b c d e f']],
    ['@Ann\nnext line', ['Ann']],
    ['@@Ann', ['Ann']],
    ['@Ann @ann', ['Ann', 'Ann @ann', 'ann']],
  ])('%j → %j', (content, expected) => {
    expect(mentionCandidates(content)).toEqual(expected);
  });

  it('stops at 64 characters after the "@"', () => {
    const long = `@${'x'.repeat(70)}`;
    expect(mentionCandidates(long)).toEqual([]);
    expect(mentionCandidates(`@${'y'.repeat(64)} z`)).toEqual(['y'.repeat(64)]);
  });

  it('a wall of "@" is looked up at most MENTION_MAX_CANDIDATES names', () => {
    const wall = Array.from({ length: 500 }, (_, i) => `@n${i}`).join(' ');
    expect(mentionCandidates(wall)).toHaveLength(MENTION_MAX_CANDIDATES);
  });
});

describe('findMentions', () => {
  const ada = { uid: 'u-ada', name: 'Ada' };
  const lovelace = { uid: 'u-lovelace', name: 'Ada Lovelace' };
  const anna = { uid: 'u-anna', name: 'Anna' };
  const zoe = { uid: 'u-zoe', name: 'Zoë Émile' };
  it.each([
    ['plain text', [ada], []],
    ['@Ada agrees', [ada], [{ start: 0, end: 4, uid: 'u-ada' }]],
    ['@ada agrees', [ada], [{ start: 0, end: 4, uid: 'u-ada' }]],
    ['@Ada Lovelace wrote', [ada, lovelace], [{ start: 0, end: 13, uid: 'u-lovelace' }]],
    ['@Ada Lovelaces', [ada, lovelace], [{ start: 0, end: 4, uid: 'u-ada' }]],
    ['@Ann', [anna], []],
    ['@Annas', [anna], []],
    ['x@Ada', [ada], []],
    ['see @zoë émile.', [zoe], [{ start: 4, end: 14, uid: 'u-zoe' }]],
    [
      '@Anna and @Ada, @Nobody',
      [ada, anna],
      [
        { start: 0, end: 5, uid: 'u-anna' },
        { start: 10, end: 14, uid: 'u-ada' },
      ],
    ],
  ])('%j', (content, people, expected) => {
    expect(findMentions(content, people)).toEqual(expected);
  });

  it('two people of one name: the first listed', () => {
    expect(
      findMentions('@Sam', [
        { uid: 'a', name: 'Sam' },
        { uid: 'b', name: 'sam' },
      ]),
    ).toEqual([{ start: 0, end: 4, uid: 'a' }]);
  });

  it('splitMentions cuts the text around the spans', () => {
    const content = 'hi @Ada, and @Anna';
    expect(splitMentions(content, findMentions(content, [ada, anna]))).toEqual([
      { text: 'hi ' },
      { text: '@Ada', uid: 'u-ada' },
      { text: ', and ' },
      { text: '@Anna', uid: 'u-anna' },
    ]);
  });
});

describe('mentionAtCaret', () => {
  it.each([
    ['hello', 5, null],
    ['@', 1, { start: 0, query: '' }],
    ['hi @Ada Lo', 10, { start: 3, query: 'Ada Lo' }],
    ['hi @Ada Lo', 5, { start: 3, query: 'A' }],
    ['mail a@b', 8, null],
    ['@Ada\nnext', 9, null],
    [`@${'x'.repeat(65)}`, 66, null],
  ])('%j at %d → %j', (content, caret, expected) => {
    expect(mentionAtCaret(content, caret)).toEqual(expected);
  });
});

describe('suggestPeople', () => {
  const people = [
    { uid: '1', name: 'Ada Lovelace' },
    { uid: '2', name: 'Bob' },
    { uid: '3', name: 'adam' },
    { uid: '4', name: 'Grace Hopper' },
  ];
  it.each([
    ['', 6, ['Ada Lovelace', 'adam', 'Bob', 'Grace Hopper']],
    ['ad', 6, ['Ada Lovelace', 'adam']],
    ['ADA L', 6, ['Ada Lovelace']],
    ['hop', 6, ['Grace Hopper']],
    ['', 2, ['Ada Lovelace', 'adam']],
    ['zed', 6, []],
  ])('%j (at most %d) → %j', (query, limit, expected) => {
    expect(suggestPeople(people, query, limit).map((p) => p.name)).toEqual(expected);
  });
});
