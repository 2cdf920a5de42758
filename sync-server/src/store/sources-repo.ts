// The source catalogue: one row per URL, shared by every response that cites it.
import type { Db } from './connection.js';
import type { Source, SourceCitation, SourceListing } from '../../../shared/types.js';

/** How many citing responses each row of the sources page carries (the rest: /api/sources/{id}/responses). */
export const CITATIONS_PER_SOURCE = 5;

/** `%`, `_` and `\\` typed in the filter box are matched as themselves. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function createSourcesRepo(db: Db) {
  const byUrl = db.prepare<[string], Source>('SELECT id, url, name, description FROM sources WHERE url = ?');
  const insert = db.prepare<[string, string, string | null, string | null, string]>(
    'INSERT INTO sources (id, url, name, description, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  const fillBlanks = db.prepare<[string | null, string | null, string]>(`
    UPDATE sources SET name = coalesce(name, ?), description = coalesce(description, ?) WHERE id = ?
  `);
  const all = db.prepare<[number], Source>(
    'SELECT id, url, name, description FROM sources ORDER BY coalesce(name, url) COLLATE NOCASE, id LIMIT ?',
  );
  const FILTER = `(@pattern IS NULL OR s.name LIKE @pattern ESCAPE '\\' OR s.url LIKE @pattern ESCAPE '\\'
    OR s.description LIKE @pattern ESCAPE '\\')`;
  const page = db.prepare<{ pattern: string | null; limit: number; offset: number }, Source>(`
    SELECT s.id, s.url, s.name, s.description FROM sources s WHERE ${FILTER}
    ORDER BY coalesce(s.name, s.url) COLLATE NOCASE, s.id LIMIT @limit OFFSET @offset
  `);
  const count = db.prepare<{ pattern: string | null }, { n: number }>(`SELECT count(*) AS n FROM sources s WHERE ${FILTER}`);
  const exists = db.prepare<[string], { id: string }>('SELECT id FROM sources WHERE id = ?');
  // Live responses in live topics, newest first.
  const citing = db.prepare<{ sourceId: string; limit: number; offset: number }, SourceCitation>(`
    SELECT r.id, r.topic_id, t.title AS topic_title, r.created_at FROM response_sources rs
    JOIN responses r ON r.id = rs.response_id JOIN topics t ON t.id = r.topic_id
    WHERE rs.source_id = @sourceId AND r.deleted = 0 AND t.deleted = 0
    ORDER BY r.created_at DESC, r.id DESC LIMIT @limit OFFSET @offset
  `);
  const citingCount = db.prepare<[string], { n: number }>(`
    SELECT count(*) AS n FROM response_sources rs
    JOIN responses r ON r.id = rs.response_id JOIN topics t ON t.id = r.topic_id
    WHERE rs.source_id = ? AND r.deleted = 0 AND t.deleted = 0
  `);
  const search = db.prepare<[string, number], Source>(`
    SELECT s.id, s.url, s.name, s.description FROM sources_fts f JOIN sources s ON s.pk = f.rowid
    WHERE sources_fts MATCH ? ORDER BY f.rank LIMIT ?
  `);
  const clearLinks = db.prepare<[string]>('DELETE FROM response_sources WHERE response_id = ?');
  const link = db.prepare<[string, number, string]>('INSERT INTO response_sources (response_id, position, source_id) VALUES (?, ?, ?)');
  const forResponse = db.prepare<[string], Source>(`
    SELECT s.id, s.url, s.name, s.description FROM response_sources rs JOIN sources s ON s.id = rs.source_id
    WHERE rs.response_id = ? ORDER BY rs.position
  `);

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
    setForResponse(responseId: string, sourceIds: string[]) {
      clearLinks.run(responseId);
      sourceIds.forEach((sourceId, position) => link.run(responseId, position, sourceId));
    },
    forResponse: (responseId: string) => forResponse.all(responseId),
    all: (limit: number) => all.all(limit),
    search: (ftsQuery: string, limit: number) => search.all(ftsQuery, limit),
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
