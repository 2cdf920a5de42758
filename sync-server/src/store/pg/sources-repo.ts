// The source catalogue on PostgreSQL: the SQLite repository's queries (store/sqlite/sources-repo.ts).
import type { Source, SourceCitation, SourceListing } from '../../../../shared/types.js';
import { type CitationInput, CITATIONS_PER_SOURCE, type SourcesRepo } from '../rows.js';
import type { PgQueries } from './queries.js';
import { bm25, indexWords, queryTerms, tsqueryOf, tsvectorOf } from './search.js';
import {
  CITATIONS_OF_RESPONSE,
  CITED_LIVE,
  CITED_SOURCE_IDS,
  CITING,
  CITING_COUNT,
  DROP_CITATIONS,
  FILL_SOURCE_NAME,
  INSERT_CITATION,
  INSERT_SOURCE,
  SOURCE_BY_URL,
  SOURCE_EXISTS,
  SOURCE_NAME,
  SUGGEST_SOURCE_NAME,
} from '../sql.js';

/** Re-reads a catalogue row into its search row (SQLite's FTS5 triggers do this on every change). */
async function indexSource(q: PgQueries, id: string) {
  const row = await q.row<{ pk: number; name: string | null; url: string; description: string | null }>(
    'SELECT pk, name, url, description FROM sources WHERE id = $1',
    [id],
  );
  if (row) await indexWords(q, 'sources_fts', row.pk, tsvectorOf(row.name, row.url, row.description));
}

/**
 * The catalogue's suggested name and description of one source: the most-cited (by distinct authors) among live
 * citations, ties to the earliest; unchanged when no live citation names it (SUGGEST_SOURCE_NAME), and indexed again.
 */
export async function refreshSuggestion(q: PgQueries, sourceId: string) {
  await q.run(SUGGEST_SOURCE_NAME.pg, [sourceId]);
  await indexSource(q, sourceId);
}

/** `%`, `_` and `\\` typed in the filter box are matched as themselves. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

// SQLite's LIKE ignores the case of ASCII letters only, and COLLATE NOCASE sorts with ASCII
// folded: ILIKE and lower() under the "C" collation do exactly that.
const FILTER = `${CITED_LIVE} AND ($1::text IS NULL OR s.name ILIKE $1 OR s.url ILIKE $1 OR s.description ILIKE $1)`;
const BY_NAME = 'lower(coalesce(s.name, s.url)), s.id';

export function createPgSourcesRepo(q: PgQueries): SourcesRepo {
  // Best match first: FTS5's bm25 over name, URL and description (search.ts), ties oldest first.
  const search = (ftsQuery: string, limit: number, where: string) => {
    const ranking = bm25('sources_fts', '$3');
    return q.rows<Source>(
      `${ranking.with} SELECT s.id, s.url, s.name, s.description FROM sources_fts f JOIN sources s ON s.pk = f.pk
       WHERE f.words @@ $1::tsquery${where} ORDER BY ${ranking.rank('f')}, s.pk LIMIT $2`,
      [tsqueryOf(ftsQuery), limit, queryTerms(ftsQuery)],
    );
  };
  const byUrl = (url: string) => q.row<Source>(SOURCE_BY_URL.pg, [url]);
  const citing = (sourceId: string, limit: number, offset: number) => q.rows<SourceCitation>(CITING.pg, [sourceId, limit, offset]);
  const citingCount = async (sourceId: string) => (await q.row<{ n: number }>(CITING_COUNT.pg, [sourceId]))!.n;

  return {
    async ensure(input, newId, now) {
      const name = input.name || null;
      const description = input.description || null;
      const existing = await byUrl(input.url);
      if (existing) {
        if ((!existing.name && name) || (!existing.description && description)) {
          await q.run(FILL_SOURCE_NAME.pg, [name, description, existing.id]);
          await indexSource(q, existing.id);
        }
        return (await byUrl(input.url))!;
      }
      const id = newId();
      await q.run(INSERT_SOURCE.pg, [id, input.url, name, description, now]);
      await indexSource(q, id);
      return { id, url: input.url, name, description };
    },
    async setForResponse(responseId, citations) {
      const linked = await q.rows<{ source_id: string }>(CITED_SOURCE_IDS.pg, [responseId]);
      const touched = new Set(linked.map((row) => row.source_id));
      await q.run(DROP_CITATIONS.pg, [responseId]);
      for (const [position, citation] of citations.entries()) {
        const given: CitationInput =
          typeof citation === 'string'
            ? {
                sourceId: citation,
                ...(await q.row<{ name: string | null; description: string | null }>(SOURCE_NAME.pg, [citation])),
              }
            : citation;
        await q.run(INSERT_CITATION.pg, [responseId, position, given.sourceId, given.name || null, given.description || null]);
        touched.add(given.sourceId);
      }
      for (const sourceId of touched) await refreshSuggestion(q, sourceId);
    },
    forResponse: (responseId) => q.rows<Source>(CITATIONS_OF_RESPONSE.pg, [responseId]),
    async forResponses(responseIds) {
      const byResponse = new Map<string, Source[]>();
      if (responseIds.length === 0) return byResponse;
      const rows = await q.rows<Source & { response_id: string }>(
        `SELECT rs.response_id, s.id, s.url, rs.name, rs.description
         FROM unnest($1::text[]) WITH ORDINALITY AS j (value, key)
         JOIN response_sources rs ON rs.response_id = j.value JOIN sources s ON s.id = rs.source_id
         ORDER BY j.key, rs.position`,
        [responseIds],
      );
      for (const { response_id, ...source } of rows) {
        const list = byResponse.get(response_id);
        if (list) list.push(source);
        else byResponse.set(response_id, [source]);
      }
      return byResponse;
    },
    all: (limit) => q.rows<Source>(`SELECT s.id, s.url, s.name, s.description FROM sources s ORDER BY ${BY_NAME} LIMIT $1`, [limit]),
    search: (ftsQuery, limit) => search(ftsQuery, limit, ''),
    searchCited: (ftsQuery, limit) => search(ftsQuery, limit, ` AND ${CITED_LIVE}`),
    async page(input) {
      const pattern = input.filter ? likePattern(input.filter) : null;
      const rows = await q.rows<Source>(
        `SELECT s.id, s.url, s.name, s.description FROM sources s WHERE ${FILTER} ORDER BY ${BY_NAME} LIMIT $2 OFFSET $3`,
        [pattern, input.limit, input.offset],
      );
      const total = (await q.row<{ n: number }>(`SELECT count(*) AS n FROM sources s WHERE ${FILTER}`, [pattern]))!.n;
      if (!input.citations) return { total, items: rows };
      const items: SourceListing[] = [];
      for (const source of rows) {
        items.push({ ...source, cited_by: await citing(source.id, CITATIONS_PER_SOURCE, 0), cited_count: await citingCount(source.id) });
      }
      return { total, items };
    },
    async citations(sourceId, limit, offset) {
      if (!(await q.row(SOURCE_EXISTS.pg, [sourceId]))) return null;
      return { total: await citingCount(sourceId), items: await citing(sourceId, limit, offset) };
    },
  };
}
