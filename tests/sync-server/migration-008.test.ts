// Migration 008 (the Δ rules) as a real SQLite upgrade: a database migrated to 007 holding
// credits as the code before recorded them, then migrated to the latest. (The same statements on
// the test engine, PostgreSQL too: migration-delta-rules.test.ts.)
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMigrations, migrate } from '../../sync-server/src/store/sqlite/migrate.js';
import { COUNTS_QUERY, EXPECTED_COUNTS, FIXTURE } from '../fixtures/delta-rules-migration.js';

describe('migration 008: Δ credits recounted by the issue 25 rules', () => {
  it('a database at 007 with credits as the old code recorded them, migrated to the latest', () => {
    const dir = mkdtempSync(join(tmpdir(), 'crux-m006-'));
    try {
      const db = new Database(join(dir, 'crux.sqlite'));
      db.pragma('foreign_keys = ON');
      migrate(
        db,
        loadMigrations().filter((m) => m.version < 8),
      );
      for (const [sql, ...params] of FIXTURE) db.prepare(sql).run(...params);
      expect(migrate(db)).toBe(Math.max(...loadMigrations().map((m) => m.version)));
      expect(db.prepare(COUNTS_QUERY).all()).toEqual(EXPECTED_COUNTS);
      expect(db.prepare("SELECT points, persuasion_points FROM users WHERE uid = 'author'").get()).toEqual({
        points: 12,
        persuasion_points: 10,
      });
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
