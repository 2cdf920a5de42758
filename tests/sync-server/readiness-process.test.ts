// GET /api/ready of the real process while it migrates (docs/OPERATIONS.md
// "Shutdown and readiness"): the server listens before it opens the database, so a load balancer
// sees 503 `migrating` (and every other request 503 with Retry-After) until the migrations are done,
// then 200 `serving`. The migration is held up by what holds it up in production: another process
// migrating (SQLite: a write lock on a new file; PostgreSQL: the migration lock). Both engines.
// Draining is graceful-shutdown.test.ts; the state machine on the app is readiness.test.ts.
import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATE_LOCK_KEY } from '../../sync-server/src/store/pg/migrate.js';
import { emulatorHost } from '../fixtures/auth.js';
import { waitForListening } from '../fixtures/listening.js';
import { testDatabase, TEST_ENGINE, type TestDatabase } from '../fixtures/test-db.js';

/** A port free a moment ago: the process's /api/ready must be reachable before it prints its address. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Holds up the migrations the way a second process migrating would; resolves to its release. */
async function holdMigrations(dir: string, database: TestDatabase): Promise<() => Promise<void>> {
  if (TEST_ENGINE === 'sqlite') {
    // A new file (no migrations applied) whose write lock is taken: the server's first migration waits.
    const db = new Database(join(dir, 'crux.sqlite'));
    db.pragma('journal_mode = WAL');
    db.exec('BEGIN IMMEDIATE');
    return async () => {
      db.exec('ROLLBACK');
      db.close();
    };
  }
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATE_LOCK_KEY]);
  return async () => {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATE_LOCK_KEY]);
    await client.end();
  };
}

describe('/api/ready of a server process that is migrating', () => {
  let child: ChildProcess | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'crux-ready-'));
  let database: TestDatabase | undefined;
  afterAll(async () => {
    if (child?.exitCode === null) child.kill('SIGKILL');
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 migrating (and 503 with Retry-After elsewhere) until the migrations are done, then 200 serving', async () => {
    database = await testDatabase(dir, join(dir, 'crux.sqlite'));
    const release = await holdMigrations(dir, database);
    const port = await freePort();
    child = spawn(process.execPath, ['--import', 'tsx', 'sync-server/src/main.ts'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dir,
        ...(database.url ? { DATABASE_URL: database.url } : {}),
        STATIC_DIR: join(dir, 'no-build'),
        SEED_DEMO: 'false',
        MAIL_SCHEDULER: 'off',
        DB_BUSY_TIMEOUT_MS: '60000',
        FIREBASE_AUTH_EMULATOR_HOST: emulatorHost(),
      },
    });
    const listening = waitForListening(child, 90_000);
    const base = `http://127.0.0.1:${port}`;

    // Until the listener is up, connections are refused; then it says it is migrating.
    let ready: Response | undefined;
    const end = Date.now() + 30_000;
    while (!ready) {
      ready = await fetch(`${base}/api/ready`).catch(() => undefined);
      if (!ready) {
        expect(Date.now()).toBeLessThan(end);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ ready: false, state: 'migrating' });
    const other = await fetch(`${base}/api/topics`);
    expect(other.status).toBe(503);
    expect(other.headers.get('retry-after')).toBe('1');
    expect(other.headers.get('x-request-id')).toBeTruthy();
    // Still migrating a moment later: it waits for the other process, it does not give up.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await fetch(`${base}/api/ready`)).status).toBe(503);

    await release();
    expect(await listening).toBe(base);
    const served = await fetch(`${base}/api/ready`);
    expect(served.status).toBe(200);
    expect(await served.json()).toEqual({ ready: true, state: 'serving' });
    expect((await fetch(`${base}/api/topics`)).status).toBe(200);
  }, 120_000);
});
