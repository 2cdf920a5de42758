// Issue 11 point 3: a second writer on the database file. Write transactions start
// IMMEDIATE, so the busy timeout (DB_BUSY_TIMEOUT_MS) applies: a lock held shorter is
// waited for, one held longer is answered 503 + Retry-After (never 500), and two
// server processes on one data folder (an overlapping deploy) lose no write.
import { spawn, type ChildProcess } from 'node:child_process';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, emulatorHost, type TestUser } from '../fixtures/auth.js';
import { waitForListening } from '../fixtures/listening.js';

const BUSY_TIMEOUT_MS = 1500;
const children: ChildProcess[] = [];

/** The real server (sync-server/src/main.ts) as its own process on `dataDir`. */
async function startServerProcess(dataDir: string): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'sync-server/src/main.ts'], {
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      STATIC_DIR: join(dataDir, 'no-build'),
      SEED_DEMO: 'false',
      DB_BUSY_TIMEOUT_MS: String(BUSY_TIMEOUT_MS),
      RATE_LIMITS: 'off',
      MAIL_SCHEDULER: 'off',
      FIREBASE_AUTH_EMULATOR_HOST: emulatorHost(),
    },
  });
  children.push(child);
  return waitForListening(child);
}

describe('writes while another connection holds the lock', () => {
  let dir: string;
  let first: string;
  let second: string;
  let ada: TestUser;
  let outside: Database.Database;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'crux-lock-'));
    first = await startServerProcess(dir);
    // A second process on the same data folder, as during an overlapping deploy.
    second = await startServerProcess(dir);
    ada = await createTestUser('Ada Locksmith');
    // Known to the server before the lock tests (the first signed-in call records the user).
    expect((await apiClient(first, ada.token).post('/topics', { title: 'Warm-up', categories: ['Science'] })).status).toBe(201);
    outside = new Database(join(dir, 'crux.sqlite'), { fileMustExist: true, timeout: 10_000 });
  }, 90_000);
  afterAll(() => {
    outside?.close();
    for (const child of children) if (child.pid && child.exitCode === null) process.kill(child.pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('a lock held longer than the busy timeout: 503 with Retry-After and a clear message, nothing written', async () => {
    outside.exec('BEGIN IMMEDIATE');
    let res;
    try {
      res = await apiClient(first, ada.token).post('/topics', { title: 'Blocked by a long lock', categories: ['Science'] });
    } finally {
      outside.exec('ROLLBACK');
    }
    expect(res.status, res.text).toBe(503);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(res.body).toEqual({ error: expect.stringMatching(/try again/i), code: 'unavailable' });
    const stored = outside.prepare("SELECT count(*) AS n FROM topics WHERE title = 'Blocked by a long lock'").get();
    expect(stored).toEqual({ n: 0 });
  });

  it('a lock held shorter than the busy timeout: the write waits for it and lands', async () => {
    outside.exec('BEGIN IMMEDIATE');
    const released = new Promise<void>((resolve) =>
      setTimeout(() => {
        outside.exec('COMMIT');
        resolve();
      }, BUSY_TIMEOUT_MS / 5),
    );
    const started = Date.now();
    const res = await apiClient(first, ada.token).post('/topics', { title: 'Waited for a short lock', categories: ['Science'] });
    await released;
    expect(res.status, res.text).toBe(201);
    // It waited (well within the timeout), rather than failing at once.
    expect(Date.now() - started).toBeGreaterThanOrEqual(BUSY_TIMEOUT_MS / 5 - 50);
  });

  it('two server processes on one file, writing at once: every write lands', async () => {
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
    expect(outside.prepare('SELECT count(*) AS n FROM responses WHERE topic_id = ?').get(topic.id)).toEqual({ n: 400 });
    expect(outside.prepare('SELECT responses_count FROM topics WHERE id = ?').get(topic.id)).toEqual({ responses_count: 400 });
  });
});
