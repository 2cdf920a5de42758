// Migration 003 on a database made before it: each existing citation gets the
// catalogue's name and description as its own, and deleted topics and responses lose
// their text and citations (their rows stay for the sync tombstones).
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadMigrations, migrate } from '../../sync-server/src/store/sqlite/migrate.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('migration 003: citation names, deleted text', () => {
  it('backfills citations from the catalogue and blanks what was deleted', () => {
    const dir = mkdtempSync(join(tmpdir(), 'crux-m003-'));
    dirs.push(dir);
    const db = new Database(join(dir, 'crux.sqlite'));
    db.pragma('foreign_keys = ON');
    migrate(
      db,
      loadMigrations().filter((m) => m.version < 3),
    );
    db.exec(`
      INSERT INTO users (uid, display_name, created_at) VALUES ('u', 'Ada', '2026-01-01');
      INSERT INTO topics (id, title, category, creator_uid, created_at, hot, seq) VALUES
        ('t1', 'Live topic', 'Science', 'u', '2026-01-01', 0, 1),
        ('t2', 'Deleted topic title', 'Science', 'u', '2026-01-01', 0, 2);
      UPDATE topics SET deleted = 1 WHERE id = 't2';
      INSERT INTO responses (id, topic_id, type, content, creator_uid, created_at, updated_at, seq) VALUES
        ('r1', 't1', 'for', 'Live text', 'u', '2026-01-01', '2026-01-01', 3),
        ('r2', 't1', 'for', 'Deleted text', 'u', '2026-01-01', '2026-01-01', 4);
      UPDATE responses SET deleted = 1 WHERE id = 'r2';
      INSERT INTO sources (id, url, name, description, created_at) VALUES ('s1', 'https://a.example/', 'Alpha', 'About A', '2026-01-01');
      INSERT INTO response_sources (response_id, position, source_id) VALUES ('r1', 0, 's1'), ('r2', 0, 's1');
    `);
    expect(migrate(db)).toBe(Math.max(...loadMigrations().map((m) => m.version)));
    expect(db.prepare('SELECT response_id, name, description FROM response_sources').all()).toEqual([
      { response_id: 'r1', name: 'Alpha', description: 'About A' },
    ]);
    expect(db.prepare('SELECT id, title FROM topics ORDER BY id').all()).toEqual([
      { id: 't1', title: 'Live topic' },
      { id: 't2', title: '' },
    ]);
    expect(db.prepare('SELECT id, content FROM responses ORDER BY id').all()).toEqual([
      { id: 'r1', content: 'Live text' },
      { id: 'r2', content: '' },
    ]);
    // The full-text indexes no longer find the deleted text.
    expect(db.prepare("SELECT count(*) AS n FROM topics_fts WHERE topics_fts MATCH 'deleted'").get()).toEqual({ n: 0 });
    expect(db.prepare("SELECT count(*) AS n FROM responses_fts WHERE responses_fts MATCH 'deleted'").get()).toEqual({ n: 0 });
    db.close();
  });
});
