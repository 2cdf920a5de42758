// ftsQuery: what a person types becomes quoted FTS5 prefix terms, never FTS5 syntax.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ftsQuery } from '../../shared/rules/search-words.js';

describe('ftsQuery', () => {
  it.each([
    ['', null],
    ['   ', null],
    ['"', null],
    ['***', null],
    ['🎉🎉', null],
    ['hello', '"hello"*'],
    ['  hello   world ', '"hello"* "world"*'],
    ['say "hi"', '"say"* "hi"*'],
    ['a"b', '"a"* "b"*'],
    ['foo OR bar', '"foo"* "OR"* "bar"*'],
    ['NOT this AND that', '"NOT"* "this"* "AND"* "that"*'],
    ['NEAR(a b, 3)', '"NEAR"* "a"* "b"* "3"*'],
    ['title:secret', '"title"* "secret"*'],
    ['pre*', '"pre"*'],
    ['^start', '"start"*'],
    ['(a) {b} [c]', '"a"* "b"* "c"*'],
    ["'; DROP TABLE topics; --", '"DROP"* "TABLE"* "topics"*'],
    ['example.com', '"example"* "com"*'],
    ['https://example.org/path?x=1', '"https"* "example"* "org"* "path"* "x"* "1"*'],
    ['Café', '"Café"*'],
    ['ｆｕｌｌｗｉｄｔｈ', '"ｆｕｌｌｗｉｄｔｈ"*'], // FTS5 applies no compatibility folding: neither may the query
    ['日本語', '"日本語"*'],
  ])('ftsQuery(%j) → %j', (text, expected) => {
    expect(ftsQuery(text)).toBe(expected);
  });

  it('keeps at most 16 words', () => {
    const words = Array.from({ length: 20 }, (_, i) => `w${i}`);
    const query = ftsQuery(words.join(' '))!;
    expect(query.split(' ')).toHaveLength(16);
    expect(query.startsWith('"w0"*')).toBe(true);
  });

  // The real check: whatever is typed, SQLite accepts the query and treats it as text.
  describe('against a real FTS5 table', () => {
    const db = new Database(':memory:');
    db.exec(`CREATE VIRTUAL TABLE t USING fts5 (body, tokenize = 'unicode61 remove_diacritics 2')`);
    const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
    for (const body of [
      'Nuclear power is safe',
      'See https://example.com/report for details',
      'OR and NOT are plain words here',
      'Un café au lait',
      'Robert"); DROP TABLE students; --',
    ]) {
      insert.run(body);
    }
    const search = (text: string) => {
      const match = ftsQuery(text);
      return match === null
        ? []
        : (db.prepare('SELECT body FROM t WHERE t MATCH ? ORDER BY rowid').all(match) as { body: string }[]).map((r) => r.body);
    };

    it.each([
      ['nucl', ['Nuclear power is safe']],
      ['power safe', ['Nuclear power is safe']],
      ['example.com', ['See https://example.com/report for details']],
      ['cafe', ['Un café au lait']],
      ['OR', ['OR and NOT are plain words here']],
      ['NOT', ['OR and NOT are plain words here']],
      ['"); DROP TABLE', ['Robert"); DROP TABLE students; --']],
      ['nothing-matches-this', []],
    ])('%j finds %j', (text, expected) => {
      expect(search(text)).toEqual(expected);
    });

    it.each(['"', '" OR "', 'a AND', 'NEAR(', '*', '-x', 'col:', '(((', "'", '\\', '\u0000', '🎉 nuclear'])(
      'never throws for %j',
      (text) => {
        expect(() => search(text)).not.toThrow();
      },
    );
  });
});
