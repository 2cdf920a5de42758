// The source catalogue: one row per URL, shared by every response that cites it.
import type { Db } from './connection.js';
import type { Source } from '../../../shared/types.js';

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
  };
}
