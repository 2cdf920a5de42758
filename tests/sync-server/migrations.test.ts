// Versioned, forward-only migrations on a real SQLite file; WAL and foreign keys.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readConfig } from '../../sync-server/src/config.js';
import { DEFAULT_CACHE_MB, MAX_CACHE_MB, openDatabase, type Db, type OpenOptions } from '../../sync-server/src/store/sqlite/connection.js';
import { loadMigrations, migrate } from '../../sync-server/src/store/sqlite/migrate.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser } from '../fixtures/auth.js';
import { makeTopic } from '../fixtures/builders.js';
import { startTestServer } from '../fixtures/server.js';

const dirs: string[] = [];
const opened: Db[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'crux-migrate-'));
  dirs.push(dir);
  return dir;
};
const open = (file: string, options: OpenOptions = {}) => {
  const db = openDatabase(file, options);
  opened.push(db);
  return db;
};

afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('migrations', () => {
  const shipped = loadMigrations();
  const latest = Math.max(...shipped.map((m) => m.version));

  it('ship as NNN-name.sql, numbered 1, 2, 3… in order', () => {
    expect(shipped.length).toBeGreaterThan(0);
    expect(shipped.map((m) => m.version)).toEqual(shipped.map((_, i) => i + 1));
    for (const m of shipped) expect(m.name).toMatch(/^\d{3}-[\w-]+\.sql$/);
  });

  it('a new file is migrated to the latest version, in WAL mode with foreign keys on', () => {
    const db = open(join(tempDir(), 'nested', 'crux.sqlite'));
    expect(db.pragma('user_version', { simple: true })).toBe(latest);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name);
    expect(tables).toEqual(expect.arrayContaining(['topics', 'responses', 'sources', 'votes', 'notifications', 'users', 'topics_fts']));
  });

  it('the page cache is DEFAULT_CACHE_MB unless SQLITE_CACHE_MB says otherwise (capped); no memory map unless SQLITE_MMAP_MB asks', () => {
    const dir = tempDir();
    const kib = (db: Db) => db.pragma('cache_size', { simple: true });
    const mapped = (db: Db) => db.pragma('mmap_size', { simple: true });
    const plain = open(join(dir, 'a.sqlite'));
    expect(kib(plain)).toBe(-1024 * DEFAULT_CACHE_MB);
    expect(mapped(plain)).toBe(0);
    const sized = open(join(dir, 'b.sqlite'), { cacheMb: 256, mmapMb: 128 });
    expect(kib(sized)).toBe(-1024 * 256);
    expect(mapped(sized)).toBe(128 * 1024 * 1024);
    // Nonsense falls back to the default; too much is the cap.
    for (const cacheMb of [0, -5, Number.NaN])
      expect(kib(open(join(dir, `c${cacheMb}.sqlite`), { cacheMb }))).toBe(-1024 * DEFAULT_CACHE_MB);
    expect(kib(open(join(dir, 'd.sqlite'), { cacheMb: 10 * MAX_CACHE_MB }))).toBe(-1024 * MAX_CACHE_MB);
    // From the environment, as the server reads it.
    expect(readConfig({ SQLITE_CACHE_MB: '512', SQLITE_MMAP_MB: '1024' })).toMatchObject({ sqliteCacheMb: 512, sqliteMmapMb: 1024 });
    expect(readConfig({})).toMatchObject({ sqliteCacheMb: undefined, sqliteMmapMb: undefined });
  });

  it('opening the database again does not re-run anything and keeps the data', () => {
    const file = join(tempDir(), 'crux.sqlite');
    const first = open(file);
    first.prepare("INSERT INTO users (uid, display_name, created_at) VALUES ('u1', 'Ada', '2026-01-01T00:00:00Z')").run();
    first.close();
    const second = open(file);
    expect(second.pragma('user_version', { simple: true })).toBe(latest);
    expect(second.prepare('SELECT display_name FROM users WHERE uid = ?').get('u1')).toEqual({ display_name: 'Ada' });
    expect(second.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(second.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(migrate(second)).toBe(latest);
  });

  it('foreign keys are enforced', () => {
    const db = open(join(tempDir(), 'crux.sqlite'));
    expect(() =>
      db
        .prepare(
          "INSERT INTO topics (id, title, category, creator_uid, created_at, hot, seq) VALUES ('t', 'x', 'Other', 'nobody', '2026-01-01T00:00:00Z', 0, 1)",
        )
        .run(),
    ).toThrow(/FOREIGN KEY/);
  });

  it('applies only the migrations above user_version, each once', () => {
    const db = open(join(tempDir(), 'crux.sqlite'));
    const extraDir = `${tempDir()}/`;
    writeFileSync(join(extraDir, '001-ignored.sql'), 'CREATE TABLE must_not_exist (x);');
    writeFileSync(join(extraDir, `${String(latest + 1).padStart(3, '0')}-add-notes.sql`), 'CREATE TABLE notes (id TEXT PRIMARY KEY);');
    writeFileSync(join(extraDir, 'README.md'), 'not a migration');
    const extra = loadMigrations(extraDir);
    expect(extra.map((m) => m.version)).toEqual([1, latest + 1]);
    expect(migrate(db, extra)).toBe(latest + 1);
    expect(migrate(db, extra)).toBe(latest + 1); // a second run changes nothing and does not fail
    const names = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name);
    expect(names).toContain('notes');
    expect(names).not.toContain('must_not_exist');
  });

  it('a failing migration rolls back whole and leaves the version where it was', () => {
    const db = open(join(tempDir(), 'crux.sqlite'));
    const broken = [{ version: latest + 1, name: 'broken', sql: 'CREATE TABLE half_done (x); INSERT INTO no_such_table VALUES (1);' }];
    expect(() => migrate(db, broken)).toThrow();
    expect(db.pragma('user_version', { simple: true })).toBe(latest);
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'half_done'").get()).toEqual({ n: 0 });
  });

  it('a restarted server over the same file keeps its data', async () => {
    const dir = tempDir();
    const ada = await createTestUser('Ada');
    const first = await startTestServer({ dir });
    const topic = await makeTopic(apiClient(first.url, ada.token), { title: 'Survives restarts' });
    await first.stop({ keepData: true });
    const second = await startTestServer({ dir });
    try {
      const res = await apiClient(second.url).get(`/topics/${topic.id}`);
      expect(res.status).toBe(200);
      expect(res.body.title).toBe('Survives restarts');
      expect(second.sqlite.pragma('user_version', { simple: true })).toBe(latest);
    } finally {
      await second.stop({ keepData: true });
    }
  });
});
