// Graceful shutdown and readiness (docs/OPERATIONS.md "Shutdown and readiness"): a
// SIGTERM in the middle of a burst of writes against the real server process loses nothing it
// acknowledged (the writes under way finish and commit, new ones are refused with 503), ends the
// live streams (their clients reconnect elsewhere), answers /api/ready with 503 from then on (at once;
// requests are still taken for SHUTDOWN_DELAY_MS, so that is observable), and the process exits 0 within
// SHUTDOWN_TIMEOUT_MS; and a request that never finishes cannot hold it past SHUTDOWN_TIMEOUT_MS (exit 1,
// logged). Runs on both engines.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { killServerProcesses, startServerProcess } from '../fixtures/server-process.js';
import { testDatabase, type TestDatabase, type TestDb } from '../fixtures/test-db.js';

const IN_FLIGHT = 20;
const SIGTERM_AFTER = 100;
const SHUTDOWN_TIMEOUT_MS = 10_000;
/** SIGTERM's first phase: /api/ready says 503 while requests are still taken (what a load balancer needs to notice). */
const SHUTDOWN_DELAY_MS = 500;

const until = async (done: () => boolean, ms = 60_000) => {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

describe('SIGTERM in the middle of a burst of writes', () => {
  let dir: string;
  let database: TestDatabase;
  let db: TestDb;
  let ada: TestUser;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'crux-shutdown-'));
    database = await testDatabase(dir, join(dir, 'crux.sqlite'));
    ada = await createTestUser('Ada Shutdown');
  }, 90_000);
  afterAll(async () => {
    killServerProcesses();
    await db?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('drains: nothing acknowledged is lost, streams end, /api/ready is 503, exit 0 within the bound', async () => {
    const first = await startServerProcess(dir, database.url, {
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS),
    });
    const ready = await fetch(`${first.url}/api/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true, state: 'serving' });
    const api = apiClient(first.url, ada.token);
    const topic = (await api.post('/topics', { title: 'Written through a shutdown', categories: ['Science'] })).body as { id: string };

    // A live stream, read until the server ends it.
    const stream = await fetch(`${first.url}/api/sync/stream?topics=${topic.id}`);
    expect(stream.status).toBe(200);
    const streamEnded = (async () => {
      const reader = stream.body!.getReader();
      try {
        for (;;) if ((await reader.read()).done) return 'ended';
      } catch {
        return 'cut';
      }
    })();

    const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
      first.child.once('exit', (code) => resolve({ code, at: Date.now() })),
    );
    let gone = false;
    void exited.then(() => (gone = true));
    const acknowledged: string[] = [];
    const refused: number[] = [];
    let i = 0;
    const writer = async () => {
      while (!gone) {
        const n = i++;
        try {
          const res = await api.post('/responses', { topic_id: topic.id, type: n % 2 ? 'for' : 'against', content: `Reply ${n}` });
          if (res.status === 201) acknowledged.push((res.body as { id: string }).id);
          else refused.push(res.status);
        } catch {
          // the listener is closed: not acknowledged
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      }
    };
    // /api/ready polled through the shutdown.
    const readyAnswers: Array<{ status: number; state?: string; afterTerm: boolean }> = [];
    let termSent = false;
    const poller = async () => {
      while (!gone) {
        try {
          const res = await fetch(`${first.url}/api/ready`);
          const body = (await res.json()) as { state?: string };
          readyAnswers.push({ status: res.status, state: body.state, afterTerm: termSent });
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
      }
    };
    const writers = Promise.all([...Array.from({ length: IN_FLIGHT }, writer), poller()]);
    await until(() => acknowledged.length >= SIGTERM_AFTER);
    const termAt = Date.now();
    const acknowledgedAtTerm = acknowledged.length;
    termSent = true;
    first.child.kill('SIGTERM');
    const exit = await exited;
    await writers;

    expect(exit.code).toBe(0);
    expect(exit.at - termAt).toBeLessThan(SHUTDOWN_TIMEOUT_MS);
    expect(await streamEnded).toBe('ended');
    // Refusals while draining are 503s (try again elsewhere), nothing else.
    expect(refused.filter((status) => status !== 503)).toEqual([]);
    // /api/ready said 503 (draining) after the SIGTERM, and once it had, never 200 again.
    const firstDraining = readyAnswers.findIndex((answer) => answer.status === 503);
    expect(firstDraining).toBeGreaterThanOrEqual(0);
    expect(readyAnswers[firstDraining]!.afterTerm).toBe(true);
    expect(readyAnswers.slice(firstDraining).every((answer) => answer.status === 503 && answer.state === 'draining')).toBe(true);
    // Writes went on being acknowledged while it said so (SHUTDOWN_DELAY_MS), and were kept (below).
    expect(acknowledged.length).toBeGreaterThan(acknowledgedAtTerm);
    console.log(
      `shutdown: ${acknowledged.length} acknowledged, ${refused.length} refused with 503, ${readyAnswers.filter((a) => a.status === 503).length} /api/ready 503s, exit after ${exit.at - termAt} ms`,
    );

    const second = await startServerProcess(dir, database.url);
    db = await database.openDb();
    const stored = new Set(
      (await db.rows<{ id: string }>('SELECT id FROM responses WHERE topic_id = ? AND deleted = 0', topic.id)).map((r) => r.id),
    );
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    expect(await db.row('SELECT responses_count FROM topics WHERE id = ?', topic.id)).toEqual({ responses_count: stored.size });
    await second.kill();
  }, 120_000);

  it('a request that never finishes cannot hold the process: it exits 1 once SHUTDOWN_TIMEOUT_MS is over, and logs why', async () => {
    const BOUND_MS = 1000;
    const server = await startServerProcess(dir, database.url, { SHUTDOWN_TIMEOUT_MS: String(BOUND_MS), LOG_LEVEL: 'error' });
    // A write whose body never finishes arriving: the request stays in flight.
    const { port } = new URL(server.url);
    const stuck = request({
      host: '127.0.0.1',
      port: Number(port),
      method: 'POST',
      path: '/api/topics',
      headers: { 'content-type': 'application/json', 'content-length': '1000', authorization: `Bearer ${ada.token}` },
    });
    stuck.on('error', () => {}); // cut when the process exits
    await new Promise<void>((resolve) => stuck.write('{"title": "Never fin', () => resolve()));
    // Its headers were on the wire before this request was sent: by the time this one is answered the
    // server has read them and the write is in flight (its handler waits for the rest of the body).
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
      server.child.once('exit', (code) => resolve({ code, at: Date.now() })),
    );
    const termAt = Date.now();
    server.child.kill('SIGTERM');
    const exit = await exited;
    expect(exit.code).toBe(1);
    expect(exit.at - termAt).toBeGreaterThanOrEqual(BOUND_MS);
    expect(exit.at - termAt).toBeLessThan(BOUND_MS + 10_000);
    const lines = server
      .stdout()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string; inFlight?: number });
    expect(lines.find((line) => line.msg.startsWith('Shutdown: still busy'))).toMatchObject({ inFlight: 1 });
  }, 60_000);
});
