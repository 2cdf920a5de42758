// Migration 006 on a database made before it: a response's upvotes by side no longer
// count its author's own upvote (which told their stance), and the rows it changes get a new seq.
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

describe('migration 006: self-upvotes on no side', () => {
  it('recounts the upvotes by side without the author’s own and restamps only those rows', () => {
    const dir = mkdtempSync(join(tmpdir(), 'crux-m006-'));
    dirs.push(dir);
    const db = new Database(join(dir, 'crux.sqlite'));
    db.pragma('foreign_keys = ON');
    migrate(
      db,
      loadMigrations().filter((m) => m.version < 6),
    );
    db.exec(`
      UPDATE meta SET value = 10 WHERE key = 'seq';
      INSERT INTO users (uid, display_name, created_at) VALUES ('a', 'Ada', '2026-01-01'), ('b', 'Bob', '2026-01-01');
      INSERT INTO topics (id, title, category, creator_uid, created_at, hot, seq) VALUES ('t1', 'Topic', 'Science', 'a', '2026-01-01', 0, 1);
      INSERT INTO responses (id, topic_id, type, content, creator_uid, created_at, updated_at, seq) VALUES
        ('r1', 't1', 'for', 'Self-upvoted', 'a', '2026-01-01', '2026-01-01', 2),
        ('r2', 't1', 'for', 'Upvoted by another', 'a', '2026-01-01', '2026-01-01', 3);
      INSERT INTO votes (voter_uid, target_type, target_id, target_creator_uid, topic_id, created_at, updated_at, seq, stance) VALUES
        ('a', 'response', 'r1', 'a', 't1', '2026-01-01', '2026-01-01', 4, 'disagree'),
        ('b', 'response', 'r1', 'a', 't1', '2026-01-01', '2026-01-01', 5, 'agree'),
        ('b', 'response', 'r2', 'a', 't1', '2026-01-01', '2026-01-01', 6, 'agree');
      UPDATE responses SET score = 2, upvotes_agree = 1, upvotes_disagree = 1 WHERE id = 'r1';
      UPDATE responses SET score = 1, upvotes_agree = 1 WHERE id = 'r2';
    `);
    migrate(db);
    expect(db.prepare('SELECT id, score, upvotes_agree, upvotes_disagree, seq FROM responses ORDER BY id').all()).toEqual([
      { id: 'r1', score: 2, upvotes_agree: 1, upvotes_disagree: 0, seq: 11 },
      { id: 'r2', score: 1, upvotes_agree: 1, upvotes_disagree: 0, seq: 3 },
    ]);
    expect(db.prepare("SELECT value FROM meta WHERE key = 'seq'").get()).toEqual({ value: 11 });
    db.close();
  });
});
