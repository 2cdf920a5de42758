// Full-text search on PostgreSQL with the words SQLite's FTS5 would see (issue 14): the text is
// cut and folded in JS by shared/rules/search-words.ts (the same rules the app uses offline and
// FTS5's unicode61 tokenizer applies), so no PostgreSQL parser, dictionary or locale decides
// what a word is. A document is a tsvector literal of those words with their positions (for
// ranking); a query is a tsquery of `'word':*` prefixes joined by &, as ftsQuery's MATCH string.
import { foldWord, searchWords } from '../../../../shared/rules/search-words.js';
import type { PgQueries } from './queries.js';

/** PostgreSQL refuses lexemes over 2 KB; no real word is that long, and a prefix still finds it. */
const MAX_LEXEME_CHARS = 500;
/** tsvector positions stop at 16383. */
const MAX_POSITION = 16_383;

const quote = (word: string) => `'${word.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/** Every word of the texts, folded, as a tsvector literal with positions. */
export function tsvectorOf(...texts: Array<string | null | undefined>): string {
  const positions = new Map<string, number[]>();
  let position = 0;
  for (const text of texts) {
    if (!text) continue;
    // searchWords keeps the first 16 words (a query's limit); a document needs all of them.
    for (const word of text.normalize('NFC').split(/[^\p{L}\p{M}\p{N}]+/u)) {
      if (word.length === 0) continue;
      const lexeme = foldWord(word).slice(0, MAX_LEXEME_CHARS);
      position = Math.min(position + 1, MAX_POSITION);
      const list = positions.get(lexeme);
      if (list) list.push(position);
      else positions.set(lexeme, [position]);
    }
  }
  return [...positions].map(([lexeme, at]) => `${quote(lexeme)}:${[...new Set(at)].join(',')}`).join(' ');
}

/** The tsquery for an FTS5 MATCH string made by ftsQuery (`"word"* "other"*`): every word a prefix. */
export function tsqueryOf(match: string): string {
  const words = [...match.matchAll(/"((?:[^"]|"")*)"\*/g)].map((found) => found[1]!.replace(/""/g, '"'));
  const lexemes = words.flatMap((word) => searchWords(word).map((part) => foldWord(part).slice(0, MAX_LEXEME_CHARS)));
  // No word: a query that matches nothing (ftsQuery never makes one, but a caller might).
  if (lexemes.length === 0) return "'' & !''";
  return lexemes.map((lexeme) => `${quote(lexeme)}:*`).join(' & ');
}

/** Writes the search row of one item (its words replace the previous ones). */
export async function indexWords(q: PgQueries, table: 'topics_fts' | 'responses_fts' | 'sources_fts', pk: number, words: string) {
  await q.run(`INSERT INTO ${table} (pk, words) VALUES ($1, $2::tsvector) ON CONFLICT (pk) DO UPDATE SET words = excluded.words`, [
    pk,
    words,
  ]);
}
