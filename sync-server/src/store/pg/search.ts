// Full-text search on PostgreSQL with the words and the ranking SQLite's FTS5 gives.
// - Words: the text is cut and folded in JS by shared/rules/search-words.ts (the same rules the app
//   uses offline and FTS5's unicode61 tokenizer applies), so no PostgreSQL parser, dictionary or
//   locale decides what a word is. A document is a tsvector literal of those words with their
//   positions; a query is a tsquery of `'word':*` prefixes joined by &, as ftsQuery's MATCH.
// - Ranking ("best match first"): FTS5's bm25() computed the way fts5_aux.c does (k1 = 1.2,
//   b = 0.75, IDF over the whole table floored at 1e-6, the row's and the average length in
//   words), in the same floating-point order, so both engines order results alike.
import { foldWord, ftsQueryWords } from '../../../../shared/rules/search-words.js';
import type { PgQueries } from './queries.js';

/** PostgreSQL refuses lexemes over 2 KB; no real word is that long, and a prefix still finds it. */
const MAX_LEXEME_CHARS = 500;
/** tsvector positions stop at 16383. */
const MAX_POSITION = 16_383;

export type SearchTable = 'topics_fts' | 'responses_fts' | 'sources_fts';

const quote = (word: string) => `'${word.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/** What one item contributes to the index: its words (a tsvector literal) and how many there are. */
export interface IndexedText {
  words: string;
  tokens: number;
}

/** Every word of the texts (FTS5 indexes them all, not only a query's first 16), folded. */
export function tsvectorOf(...texts: Array<string | null | undefined>): IndexedText {
  const positions = new Map<string, number[]>();
  let tokens = 0;
  for (const text of texts) {
    if (!text) continue;
    for (const word of text.normalize('NFC').split(/[^\p{L}\p{M}\p{N}]+/u)) {
      if (word.length === 0) continue;
      const lexeme = foldWord(word).slice(0, MAX_LEXEME_CHARS);
      tokens++;
      const list = positions.get(lexeme);
      if (list) list.push(Math.min(tokens, MAX_POSITION));
      else positions.set(lexeme, [Math.min(tokens, MAX_POSITION)]);
    }
  }
  const words = [...positions].map(([lexeme, at]) => `${quote(lexeme)}:${[...new Set(at)].join(',')}`).join(' ');
  return { words, tokens };
}

/** The folded words of an FTS5 MATCH string made by ftsQuery (`"word"* "other"*`), in order. */
export function queryTerms(match: string): string[] {
  return ftsQueryWords(match).map((term) => term.slice(0, MAX_LEXEME_CHARS));
}

/** The tsquery for an FTS5 MATCH string: every word a prefix, all required. */
export function tsqueryOf(match: string): string {
  const terms = queryTerms(match);
  // No word: a query that matches nothing (ftsQuery never makes one, but a caller might).
  if (terms.length === 0) return "'' & !''";
  return terms.map((term) => `${quote(term)}:*`).join(' & ');
}

/**
 * FTS5's bm25() for the terms in the text[] parameter `terms`: `with` (CTEs to put before the
 * query: each term's IDF over the whole table, once) and `rank(alias)`, the rank of the matching
 * row `alias` of `table` (lower is better, as FTS5's rank).
 */
export function bm25(table: SearchTable, terms: string): { with: string; rank: (alias: string) => string } {
  const k1 = '1.2::float8';
  const b = '0.75::float8';
  return {
    with: `WITH bm25_idf AS (
        SELECT t.ord, t.term,
               CASE WHEN x.idf <= 0 THEN 1e-6::float8 ELSE x.idf END AS idf
        FROM unnest(${terms}::text[]) WITH ORDINALITY AS t (term, ord)
        CROSS JOIN LATERAL (SELECT count(*) AS hits FROM ${table} g WHERE g.words @@ (quote_literal(t.term) || ':*')::tsquery) AS h
        CROSS JOIN LATERAL (
          SELECT ln(((s.rows - h.hits)::float8 + 0.5::float8) / (h.hits::float8 + 0.5::float8)) AS idf
          FROM crux_fts_stats s WHERE s.tbl = '${table}'
        ) AS x
      ), bm25_stats AS (
        SELECT s.tokens::float8 / s.rows::float8 AS avgdl FROM crux_fts_stats s WHERE s.tbl = '${table}'
      )`,
    rank: (alias) => `(
        SELECT -1.0::float8 * sum(
                 i.idf * ((tf.n * (${k1} + 1.0::float8)) / (tf.n + ${k1} * (1::float8 - ${b} + ${b} * ${alias}.tokens::float8 / st.avgdl)))
                 ORDER BY i.ord)
        FROM bm25_idf i
        CROSS JOIN bm25_stats st
        CROSS JOIN LATERAL (
          SELECT coalesce(sum(array_length(u.positions, 1)), 0)::float8 AS n FROM unnest(${alias}.words) AS u WHERE starts_with(u.lexeme, i.term)
        ) AS tf
      )`,
  };
}

/** Writes the search row of one item (its words replace the previous ones) and the table's totals. */
export async function indexWords(q: PgQueries, table: SearchTable, pk: number, text: IndexedText) {
  await q.run(
    `WITH old AS (SELECT tokens FROM ${table} WHERE pk = $1),
     written AS (
       INSERT INTO ${table} (pk, words, tokens) VALUES ($1, $2::tsvector, $3)
       ON CONFLICT (pk) DO UPDATE SET words = excluded.words, tokens = excluded.tokens
     )
     UPDATE crux_fts_stats SET rows = rows + (CASE WHEN EXISTS (SELECT 1 FROM old) THEN 0 ELSE 1 END),
            tokens = tokens + $3 - coalesce((SELECT tokens FROM old), 0)
     WHERE tbl = '${table}'`,
    [pk, text.words, text.tokens],
  );
}
