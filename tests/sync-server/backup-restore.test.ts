// Backups that restore (docs/OPERATIONS.md "Backups"): `npm run db:backup` taken in the
// middle of a burst of writes against the real server process, restored by `npm run db:restore`
// into a new data folder (SQLite) or a new, empty database (PostgreSQL), holds every write
// acknowledged before the backup started, and its counts equal its rows (one snapshot). A restore
// onto a database a server runs on is refused; the server's scheduled backups keep the newest
// BACKUP_KEEP. Runs on both engines (SQLite: the online backup API; PostgreSQL: pg_dump/pg_restore).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { runCommand } from '../fixtures/commands.js';
import { killServerProcesses, startServerProcess } from '../fixtures/server-process.js';
import { postgresDb, sqliteDb, testDatabase, TEST_ENGINE, type TestDatabase, type TestDb } from '../fixtures/test-db.js';

const IN_FLIGHT = 20;
const BEFORE_BACKUP = 100;

const until = async (done: () => boolean, ms = 60_000) => {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

/** A new data folder, and on PostgreSQL a new empty database (not the migrated template): a restore's target. */
async function emptyTarget(cleanups: Array<() => Promise<void>>): Promise<{ dir: string; url: string | undefined; db(): TestDb }> {
  const dir = mkdtempSync(join(tmpdir(), 'crux-restored-'));
  cleanups.push(() => Promise.resolve(rmSync(dir, { recursive: true, force: true })));
  if (TEST_ENGINE === 'sqlite') return { dir, url: undefined, db: () => sqliteDb(join(dir, 'crux.sqlite')) };
  const base = inject('postgresUrl');
  const name = `crux_r_${randomUUID().replace(/-/g, '')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  cleanups.push(() => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  const url = base.replace(/\/[^/]*$/, `/${name}`);
  return { dir, url, db: () => postgresDb(url) };
}

describe('backups that restore', () => {
  let dir: string;
  let database: TestDatabase;
  let ada: TestUser;
  const cleanups: Array<() => Promise<void>> = [];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'crux-backup-'));
    database = await testDatabase(dir, join(dir, 'crux.sqlite'));
    ada = await createTestUser('Ada Backup');
  }, 90_000);
  afterAll(async () => {
    killServerProcesses();
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a backup taken mid-burst restores every write acknowledged before it, with counts equal to rows; a restore onto a running server is refused', async () => {
    const first = await startServerProcess(dir, database.url);
    const api = apiClient(first.url, ada.token);
    const topic = (await api.post('/topics', { title: 'Backed up mid-burst', categories: ['Science'] })).body as { id: string };
    const acknowledged: string[] = [];
    let stop = false;
    let i = 0;
    const writer = async () => {
      while (!stop) {
        const n = i++;
        const res = await api.post('/responses', { topic_id: topic.id, type: n % 2 ? 'for' : 'against', content: `Reply ${n}` });
        if (res.status === 201) acknowledged.push((res.body as { id: string }).id);
      }
    };
    const writers = Promise.all(Array.from({ length: IN_FLIGHT }, writer));
    await until(() => acknowledged.length >= BEFORE_BACKUP);
    const before = [...acknowledged];
    const file = join(dir, 'mid-burst.backup');
    const backup = await runCommand('scripts/db-backup.ts', [file], { DATA_DIR: dir, DATABASE_URL: database.url });
    const during = acknowledged.length - before.length;
    stop = true;
    await writers;
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    // The burst went on while the backup ran.
    expect(during).toBeGreaterThan(0);
    await first.kill();

    const target = await emptyTarget(cleanups);
    const restore = await runCommand('scripts/db-restore.ts', [file], { DATA_DIR: target.dir, DATABASE_URL: target.url });
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);

    const second = await startServerProcess(target.dir, target.url);
    const db = target.db();
    cleanups.push(() => db.close());
    const stored = new Set(
      (await db.rows<{ id: string }>('SELECT id FROM responses WHERE topic_id = ? AND deleted = 0', topic.id)).map((row) => row.id),
    );
    expect(before.filter((id) => !stored.has(id))).toEqual([]);
    expect(await db.row('SELECT responses_count FROM topics WHERE id = ?', topic.id)).toEqual({ responses_count: stored.size });
    const page = await apiClient(second.url, ada.token).get(`/topics/${topic.id}`);
    expect(page.status).toBe(200);
    expect((page.body as { responses_count: number }).responses_count).toBe(stored.size);

    // Restoring onto the database the second server runs on is refused, and changes nothing.
    const refused = await runCommand('scripts/db-restore.ts', [file], { DATA_DIR: target.dir, DATABASE_URL: target.url });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/stop (it|them) before restoring/);
    expect(await db.row('SELECT responses_count FROM topics WHERE id = ?', topic.id)).toEqual({ responses_count: stored.size });
    expect((await apiClient(second.url, ada.token).get(`/topics/${topic.id}`)).status).toBe(200);
    await second.kill();
  }, 180_000);

  it('the server takes scheduled backups into BACKUP_DIR and keeps the newest BACKUP_KEEP', async () => {
    const backups = join(dir, 'scheduled');
    const server = await startServerProcess(dir, database.url, {
      BACKUP_DIR: backups,
      BACKUP_EVERY_HOURS: String(1 / 3600),
      BACKUP_KEEP: '2',
    });
    const names = () => {
      try {
        return readdirSync(backups).filter((name) => /^crux-.*\.(sqlite|dump)$/.test(name));
      } catch {
        return [];
      }
    };
    // Four backups made (one a second): the fourth was taken after the third's pruning, which
    // removed the first. (A look at the folder between a backup's rename and its pruning can see
    // BACKUP_KEEP + 1 files, so the count allows one more than kept.)
    const seen = new Set<string>();
    await until(() => {
      names().forEach((name) => seen.add(name));
      return seen.size >= 4;
    }, 60_000);
    await server.kill();
    expect(names()).not.toContain([...seen].sort()[0]);
    expect(names().length).toBeLessThanOrEqual(3);
    const newest = names().sort().at(-1)!;
    const target = await emptyTarget(cleanups);
    const restore = await runCommand('scripts/db-restore.ts', [join(backups, newest)], { DATA_DIR: target.dir, DATABASE_URL: target.url });
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);
    const db = target.db();
    cleanups.push(() => db.close());
    expect(((await db.row<{ n: number }>('SELECT count(*) AS n FROM topics')) ?? { n: 0 }).n).toBeGreaterThan(0);
  }, 120_000);
});
