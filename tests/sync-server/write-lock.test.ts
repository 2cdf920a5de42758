// The write lock (and the same on PostgreSQL): a second writer on the database. A
// write waits for another connection's lock at most DB_BUSY_TIMEOUT_MS: a lock held shorter is
// waited for, one held longer is answered 503 + Retry-After (never 500, never a hang), and two
// server processes on one database (an overlapping deploy; on PostgreSQL, processes sharing the
// load) lose no write. The outside lock is SQLite's write lock (BEGIN IMMEDIATE) or, on
// PostgreSQL, the seq lock every write transaction takes at BEGIN (store/pg/seq.ts) and a
// table an operator LOCKs. Runs in the server and server-pg lanes (tests/fixtures/test-db.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isBusyError } from '../../sync-server/src/store/busy.js';
import { SEQ_LOCK_KEY } from '../../sync-server/src/store/pg/seq.js';
import { createPgStore } from '../../sync-server/src/store/pg/store.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { killServerProcesses, startServerProcess } from '../fixtures/server-process.js';
import { TEST_ENGINE, testDatabase, type TestDatabase, type TestDb } from '../fixtures/test-db.js';

const BUSY_TIMEOUT_MS = 1500;
const BUSY_ENV = { DB_BUSY_TIMEOUT_MS: String(BUSY_TIMEOUT_MS) };
/** Another connection that takes the writers' lock and gives it back, as a backup or an operator's session would. */
interface OutsideLock {
  take(): Promise<void>;
  release(): Promise<void>;
  close(): Promise<void>;
}

async function outsideLock(database: TestDatabase, dir: string): Promise<OutsideLock> {
  if (database.engine === 'sqlite') {
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(join(dir, 'crux.sqlite'), { fileMustExist: true, timeout: 10_000 });
    return {
      take: async () => void db.exec('BEGIN IMMEDIATE'),
      release: async () => void db.exec('COMMIT'),
      close: async () => void db.close(),
    };
  }
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  return {
    async take() {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [SEQ_LOCK_KEY]);
    },
    release: async () => void (await client.query('COMMIT')),
    close: () => client.end(),
  };
}

describe('writes while another connection holds the lock', () => {
  let dir: string;
  let database: TestDatabase;
  let db: TestDb;
  let first: string;
  let second: string;
  let ada: TestUser;
  let outside: OutsideLock;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'crux-lock-'));
    database = await testDatabase(dir, join(dir, 'crux.sqlite'));
    first = (await startServerProcess(dir, database.url, BUSY_ENV)).url;
    // A second process on the same database, as during an overlapping deploy.
    second = (await startServerProcess(dir, database.url, BUSY_ENV)).url;
    ada = await createTestUser('Ada Locksmith');
    // Known to the server before the lock tests (the first signed-in call records the user).
    expect((await apiClient(first, ada.token).post('/topics', { title: 'Warm-up', categories: ['Science'] })).status).toBe(201);
    db = await database.openDb();
    outside = await outsideLock(database, dir);
  }, 90_000);
  afterAll(async () => {
    await outside?.close();
    await db?.close();
    killServerProcesses();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a lock held longer than the busy timeout: 503 with Retry-After and a clear message, nothing written', async () => {
    await outside.take();
    let res;
    try {
      res = await apiClient(first, ada.token).post('/topics', { title: 'Blocked by a long lock', categories: ['Science'] });
    } finally {
      await outside.release();
    }
    expect(res.status, res.text).toBe(503);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(res.body).toEqual({ error: expect.stringMatching(/try again/i), code: 'unavailable' });
    const stored = await db.row<{ n: number }>("SELECT count(*) AS n FROM topics WHERE title = 'Blocked by a long lock'");
    expect(stored).toEqual({ n: 0 });
  });

  it('a lock held shorter than the busy timeout: the write waits for it and lands', async () => {
    await outside.take();
    const released = new Promise<void>((resolve) => setTimeout(resolve, BUSY_TIMEOUT_MS / 5)).then(() => outside.release());
    const started = Date.now();
    const res = await apiClient(first, ada.token).post('/topics', { title: 'Waited for a short lock', categories: ['Science'] });
    await released;
    expect(res.status, res.text).toBe(201);
    // It waited (well within the timeout), rather than failing at once.
    expect(Date.now() - started).toBeGreaterThanOrEqual(BUSY_TIMEOUT_MS / 5 - 50);
  });

  // Engine-specific tests are defined on their engine only (a SQLite run has no such test, not a skipped one).
  if (TEST_ENGINE === 'postgres')
    it('PostgreSQL: a table LOCKed by an operator past the busy timeout: 503, not a hang', async () => {
      const operator = new pg.Client({ connectionString: database.url });
      await operator.connect();
      let res;
      try {
        await operator.query('BEGIN');
        await operator.query('LOCK TABLE topics IN EXCLUSIVE MODE');
        res = await apiClient(first, ada.token).post('/topics', { title: 'Blocked by LOCK TABLE', categories: ['Science'] });
      } finally {
        await operator.query('ROLLBACK');
        await operator.end();
      }
      expect(res.status, res.text).toBe(503);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await db.row("SELECT count(*) AS n FROM topics WHERE title = 'Blocked by LOCK TABLE'")).toEqual({ n: 0 });
    });

  it('two server processes on one database, writing at once: every write lands', async () => {
    const apis = [apiClient(first, ada.token), apiClient(second, ada.token)];
    const topic = (await apis[0]!.post('/topics', { title: 'Busy debate', categories: ['Science'] })).body as { id: string };
    // Replies read the topic and its counts, then write: the pattern that failed at once
    // when a transaction started deferred and the other process wrote in between.
    const results = await Promise.all(
      Array.from({ length: 400 }, (_, i) =>
        apis[i % 2]!.post('/responses', { topic_id: topic.id, type: i % 3 === 0 ? 'against' : 'for', content: `Concurrent ${i}` }),
      ),
    );
    const failures = results.filter((res) => res.status !== 201).map((res) => `${res.status} ${res.text}`);
    expect(failures).toEqual([]);
    expect(await db.row('SELECT count(*) AS n FROM responses WHERE topic_id = ?', topic.id)).toEqual({ n: 400 });
    expect(await db.row('SELECT responses_count FROM topics WHERE id = ?', topic.id)).toEqual({ responses_count: 400 });
  });
});

if (TEST_ENGINE === 'postgres')
  describe("PostgreSQL: every pooled connection taken past the pool's limit", () => {
    it('a write fails busy (503 at the API) instead of waiting for a connection forever', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'crux-pool-'));
      const database = await testDatabase(dir, join(dir, 'crux.sqlite'));
      const store = await createPgStore({ connectionString: database.url!, max: 1, connectTimeoutMs: 300 });
      let release: () => void = () => {};
      const holding = store.transaction(() => new Promise<void>((resolve) => (release = resolve)));
      try {
        // The one connection is in the transaction above: this one cannot get a client.
        const error = await store.transaction(() => store.topics.get('nothing', null)).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(Error);
        expect(isBusyError(error), String(error)).toBe(true);
      } finally {
        release();
        await holding;
        await store.close();
        await database.drop();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
