// What a server acknowledged survives a kill -9 (DESIGN: a 201 means stored). The SQLite writer
// answers a transaction only after the COMMIT its group of transactions shares (store/
// store/sqlite/transactions.ts, group commit), PostgreSQL after its own COMMIT; so a process killed in
// the middle of a burst of writes loses only writes it never answered, and the counts it keeps
// (the topic's responses_count) match the rows after a restart. Runs on both engines.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { killServerProcesses, startServerProcess } from '../fixtures/server-process.js';
import { testDatabase, type TestDatabase, type TestDb } from '../fixtures/test-db.js';

const WRITES = 600;
const IN_FLIGHT = 40;
const KILL_AFTER = 200;

describe('a kill -9 in the middle of a burst of writes', () => {
  let dir: string;
  let database: TestDatabase;
  let db: TestDb;
  let ada: TestUser;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'crux-crash-'));
    database = await testDatabase(dir, join(dir, 'crux.sqlite'));
    ada = await createTestUser('Ada Crash');
  }, 90_000);
  afterAll(async () => {
    killServerProcesses();
    await db?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loses no acknowledged write, and the counts match the rows after a restart', async () => {
    const first = await startServerProcess(dir, database.url);
    const api = apiClient(first.url, ada.token);
    const topic = (await api.post('/topics', { title: 'Written through a crash', categories: ['Science'] })).body as { id: string };
    const acknowledged: string[] = [];
    let next = 0;
    // Set inside the writers (closures), so held in an object TypeScript does not narrow to undefined.
    const crash: { killed?: Promise<void> } = {};
    // IN_FLIGHT writers, each posting the next reply until the process is gone.
    const writer = async () => {
      while (next < WRITES && !crash.killed) {
        const i = next++;
        try {
          const res = await api.post('/responses', { topic_id: topic.id, type: i % 2 ? 'for' : 'against', content: `Reply ${i}` });
          if (res.status === 201) acknowledged.push((res.body as { id: string }).id);
        } catch {
          // The connection died with the process: not acknowledged.
        }
        if (acknowledged.length >= KILL_AFTER) crash.killed ??= first.kill();
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, writer));
    await crash.killed;
    expect(crash.killed).toBeDefined();
    expect(acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER);

    const second = await startServerProcess(dir, database.url);
    db = await database.openDb();
    const stored = new Set((await db.rows<{ id: string }>('SELECT id FROM responses WHERE topic_id = ?', topic.id)).map((r) => r.id));
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    const counted = await db.row<{ responses_count: number }>('SELECT responses_count FROM topics WHERE id = ?', topic.id);
    expect(counted).toEqual({ responses_count: stored.size });
    // The restarted server answers from the same data.
    const page = await apiClient(second.url, ada.token).get(`/topics/${topic.id}`);
    expect(page.status).toBe(200);
    expect((page.body as { responses_count: number }).responses_count).toBe(stored.size);
    await second.kill();
  }, 120_000);
});
