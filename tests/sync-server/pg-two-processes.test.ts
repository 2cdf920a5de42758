// Two server processes (sync-server/src/main.ts, as deployed) on one PostgreSQL
// database share the load: a write through A reaches a live stream open on B (the change feed
// crosses processes by LISTEN/NOTIFY), B answers with what A wrote, and a caller's rate limit
// counts across both. The latency is measured by `npm run bench` (budget 2 s), not here.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { killServerProcesses, startServerProcess } from '../fixtures/server-process.js';
import { startPostgres, type Postgres } from '../fixtures/postgres.js';

const dirs: string[] = [];
let postgres: Postgres;
let a: string;
let b: string;
let ada: TestUser;

/** The real server as its own process on the shared database, each with a data folder of its own. */
async function startOnShared(databaseUrl: string): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'crux-pg-process-'));
  dirs.push(dataDir);
  // Rate limits on, with small write limits, so that sharing them across the processes shows.
  const env = { RATE_LIMITS: 'on', RATE_LIMIT_USER_WRITES_BURST: '4', RATE_LIMIT_USER_WRITES_PER_MIN: '1' };
  return (await startServerProcess(dataDir, databaseUrl, env)).url;
}

/** The live stream's events as they arrive (what a browser's replication reads). */
function openStream(url: string) {
  const events: Array<{ type: string; collection: string; topic_id?: string }> = [];
  const controller = new AbortController();
  const done = (async () => {
    const response = await fetch(`${url}/api/sync/stream`, { signal: controller.signal });
    const reader = response.body!.getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += new TextDecoder().decode(value);
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (data) events.push(JSON.parse(data) as (typeof events)[number]);
      }
    }
  })().catch(() => {});
  return {
    events,
    async until(predicate: (event: (typeof events)[number]) => boolean, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!events.some(predicate)) {
        if (Date.now() > deadline) throw new Error(`no such event; got ${JSON.stringify(events)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async close() {
      controller.abort();
      await done;
    },
  };
}

beforeAll(async () => {
  postgres = await startPostgres();
  [a, b] = await Promise.all([startOnShared(postgres.url), startOnShared(postgres.url)]);
  ada = await createTestUser('Ada Two Processes');
}, 120_000);

afterAll(async () => {
  killServerProcesses();
  await postgres?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('two server processes on one PostgreSQL database', () => {
  it('a write through A reaches a stream on B, and B serves it', async () => {
    const stream = openStream(b);
    await stream.until((event) => event.collection === '*');
    const created = await apiClient(a, ada.token).post('/topics', { title: 'Written on A, heard on B', categories: ['Science'] });
    expect(created.status).toBe(201);
    await stream.until((event) => event.collection === 'topics');
    const onB = await apiClient(b).get(`/topics/${created.body.id}`);
    expect(onB.status).toBe(200);
    expect(onB.body).toEqual(created.body);

    // A reply through B reaches a stream on A that follows the topic.
    const onA = openStream(a);
    await onA.until((event) => event.collection === '*');
    const reply = await apiClient(b, ada.token).post('/responses', { topic_id: created.body.id, type: 'for', content: 'From B' });
    expect(reply.status).toBe(201);
    await onA.until((event) => event.collection === 'topics');
    await Promise.all([stream.close(), onA.close()]);
  });

  it("a caller's write limit counts across both processes", async () => {
    const bob = await createTestUser('Bob Two Processes');
    const statuses: number[] = [];
    // Burst 4: two writes through A, two through B, then the fifth is refused wherever it goes.
    for (const url of [a, a, b, b, a]) {
      statuses.push(
        (await apiClient(url, bob.token).post('/topics', { title: `Limited ${statuses.length}`, categories: ['Other'] })).status,
      );
    }
    expect(statuses).toEqual([201, 201, 201, 201, 429]);
    expect((await apiClient(b, bob.token).post('/topics', { title: 'Still limited', categories: ['Other'] })).status).toBe(429);
  });
});
