// The source catalogue: one row per URL, shared by every response that cites it.
// A citation (response_sources) keeps the name and description its own author
// gave (migration 003); the catalogue's name and description are only a
// suggestion for the sources page and the composer: the name (and description)
// given by the most authors among the live citations of that URL (ties: the
// earliest), never written onto anyone's citation. Authors, not citations: one
// person citing a URL in many responses must not decide its name for everyone.
import type { Db } from './connection.js';
import type { Source, SourceCitation, SourceListing } from '../../../../shared/types.js';
import { type CitationInput, CITATIONS_PER_SOURCE } from '../rows.js';
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

/** `%`, `_` and `\\` typed in the filter box are matched as themselves. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function createSourcesRepo(db: Db) {
  const byUrl = db.prepare<[string], Source>(SOURCE_BY_URL.sqlite);
  const insert = db.prepare<[string, string, string | null, string | null, string]>(INSERT_SOURCE.sqlite);
  const fillBlanks = db.prepare<[string | null, string | null, string]>(FILL_SOURCE_NAME.sqlite);
  const refreshSuggestion = db.prepare<[string]>(SUGGEST_SOURCE_NAME.sqlite);
  const linkedTo = db.prepare<[string], { source_id: string }>(CITED_SOURCE_IDS.sqlite);
  const all = db.prepare<[number], Source>(
    'SELECT id, url, name, description FROM sources ORDER BY coalesce(name, url) COLLATE NOCASE, id LIMIT ?',
  );
  const FILTER = `${CITED_LIVE} AND (@pattern IS NULL OR s.name LIKE @pattern ESCAPE '\\' OR s.url LIKE @pattern ESCAPE '\\'
    OR s.description LIKE @pattern ESCAPE '\\')`;
  const page = db.prepare<{ pattern: string | null; limit: number; offset: number }, Source>(`
    SELECT s.id, s.url, s.name, s.description FROM sources s WHERE ${FILTER}
    ORDER BY coalesce(s.name, s.url) COLLATE NOCASE, s.id LIMIT @limit OFFSET @offset
  `);
  const count = db.prepare<{ pattern: string | null }, { n: number }>(`SELECT count(*) AS n FROM sources s WHERE ${FILTER}`);
  const exists = db.prepare<[string], { id: string }>(SOURCE_EXISTS.sqlite);
  // Live responses in live topics, newest first.
  const citing = db.prepare<{ sourceId: string; limit: number; offset: number }, SourceCitation>(CITING.sqlite);
  const citingCount = db.prepare<[string], { n: number }>(CITING_COUNT.sqlite);
  const searchSql = (where: string) => `
    SELECT s.id, s.url, s.name, s.description FROM sources_fts f JOIN sources s ON s.pk = f.rowid
    WHERE sources_fts MATCH ?${where} ORDER BY f.rank LIMIT ?
  `;
  const search = db.prepare<[string, number], Source>(searchSql(''));
  const searchCited = db.prepare<[string, number], Source>(searchSql(` AND ${CITED_LIVE}`));
  const clearLinks = db.prepare<[string]>(DROP_CITATIONS.sqlite);
  const link = db.prepare<[string, number, string, string | null, string | null]>(INSERT_CITATION.sqlite);
  const catalogueEntry = db.prepare<[string], { name: string | null; description: string | null }>(SOURCE_NAME.sqlite);
  const forResponse = db.prepare<[string], Source>(CITATIONS_OF_RESPONSE.sqlite);
  // The same for a whole page of responses in one statement (ids as a JSON array), as plain arrays and
  // unsorted: ordering the page's 1,500 citations and making an object of each were half of this read
  // (4.1 against 2.0 ms for a page of 1,000 roots). Each response's few are put in order below.
  const forResponses = db
    .prepare<[string], [responseId: string, position: number, id: string, url: string, name: string | null, description: string | null]>(
      `
      SELECT rs.response_id, rs.position, s.id, s.url, rs.name, rs.description
      FROM json_each(?) j JOIN response_sources rs ON rs.response_id = j.value JOIN sources s ON s.id = rs.source_id
    `,
    )
    .raw(true);

  return {
    /** Finds the catalogue row for a URL or adds one; an existing row only gains missing fields. */
    ensure(input: { url: string; name?: string | null; description?: string | null }, newId: () => string, now: string): Source {
      const name = input.name || null;
      const description = input.description || null;
      const existing = byUrl.get(input.url);
      if (existing) {
        if ((!existing.name && name) || (!existing.description && description)) fillBlanks.run(name, description, existing.id);
        return byUrl.get(input.url)!;
      }
      const id = newId();
      insert.run(id, input.url, name, description, now);
      return { id, url: input.url, name, description };
    },
    /**
     * Replaces the response's citations, in this order, each with its author's own name
     * and description (a bare id takes the catalogue's, as a suggestion accepted), and
     * recomputes the catalogue's suggestion of every URL involved.
     */
    setForResponse(responseId: string, citations: Array<string | CitationInput>) {
      const touched = new Set(linkedTo.all(responseId).map((row) => row.source_id));
      clearLinks.run(responseId);
      citations.forEach((citation, position) => {
        const given: CitationInput = typeof citation === 'string' ? { sourceId: citation, ...catalogueEntry.get(citation) } : citation;
        link.run(responseId, position, given.sourceId, given.name || null, given.description || null);
        touched.add(given.sourceId);
      });
      for (const sourceId of touched) refreshSuggestion.run(sourceId);
    },
    forResponse: (responseId: string) => forResponse.all(responseId),
    /** The citations of many responses in one query: response id → its sources in order (absent: none). */
    forResponses(responseIds: readonly string[]): Map<string, Source[]> {
      const byResponse = new Map<string, Source[]>();
      if (responseIds.length === 0) return byResponse;
      const positions = new Map<Source, number>();
      for (const [responseId, position, id, url, name, description] of forResponses.all(JSON.stringify(responseIds))) {
        const source: Source = { id, url, name, description };
        positions.set(source, position);
        const list = byResponse.get(responseId);
        if (list) list.push(source);
        else byResponse.set(responseId, [source]);
      }
      for (const list of byResponse.values()) if (list.length > 1) list.sort((a, b) => positions.get(a)! - positions.get(b)!);
      return byResponse;
    },
    all: (limit: number) => all.all(limit),
    search: (ftsQuery: string, limit: number) => search.all(ftsQuery, limit),
    searchCited: (ftsQuery: string, limit: number) => searchCited.all(ftsQuery, limit),
    /** One page of the sources page: sorted by name (or URL), filtered by a substring of name, URL or description. */
    page(input: { filter: string | null; limit: number; offset: number; citations: boolean }): {
      total: number;
      items: Array<Source | SourceListing>;
    } {
      const pattern = input.filter ? likePattern(input.filter) : null;
      const rows = page.all({ pattern, limit: input.limit, offset: input.offset });
      const total = count.get({ pattern })!.n;
      if (!input.citations) return { total, items: rows };
      return {
        total,
        items: rows.map((source) => ({
          ...source,
          cited_by: citing.all({ sourceId: source.id, limit: CITATIONS_PER_SOURCE, offset: 0 }),
          cited_count: citingCount.get(source.id)!.n,
        })),
      };
    },
    /** The live responses citing a source (null when there is no such source). */
    citations(sourceId: string, limit: number, offset: number): { total: number; items: SourceCitation[] } | null {
      if (!exists.get(sourceId)) return null;
      return { total: citingCount.get(sourceId)!.n, items: citing.all({ sourceId, limit, offset }) };
    },
  };
}
