// READ_DATABASE_URL sends the reads of GET requests and sync pulls to a PostgreSQL
// streaming replica, with a real one (a second cluster made by pg_basebackup -R from the file's
// primary). Pausing the replica's replay shows who reads where: another user's GET and pull do
// not see a write the paused replica has not replayed, while the writer's read-back, GET and pull
// (primary, until the replica has their write) do; the pull that got less continues without a gap
// once the replica replays again. Rate limits and the mail lease stay on the primary.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PullResponse, SyncCheckpoint } from '../../shared/sync-protocol.js';
import { openBackend, type Backend } from '../../sync-server/src/backend.js';
import { takeMailLease } from '../../sync-server/src/mail/lease.js';
import { createPgStore, isPlainRead } from '../../sync-server/src/store/pg/store.js';
import { REPLICA_LAG_METRIC, registerReplicaLagGauge } from '../../sync-server/src/store/pg/replica-lag.js';
import { Registry } from 'prom-client';
import { newId } from '../../shared/ids.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { startPostgres, type Postgres } from '../fixtures/postgres.js';
import { startReplica, type Replica } from '../fixtures/postgres-replica.js';
import { killServerProcesses, startServerProcess } from '../fixtures/server-process.js';

type TopicDoc = { id: string; title: string; seq: number };

let primary: Postgres;
let replica: Replica;
let url: string;
let ada: TestUser;
let bob: TestUser;
let dave: TestUser;
const dirs: string[] = [];
const backends: Backend[] = [];

async function serverOn(env: Record<string, string>): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'crux-pg-replica-'));
  dirs.push(dataDir);
  return (await startServerProcess(dataDir, primary.url, env)).url;
}

/** Waits (bounded) until `check` holds: the server learns the replica's position by polling it. */
async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Every topic document from `checkpoint` on, page by page (small pages: several calls). */
async function pullAll(token: string | undefined, checkpoint: SyncCheckpoint, limit = 3) {
  const api = apiClient(url, token);
  const documents: TopicDoc[] = [];
  for (;;) {
    const page = await api.get<PullResponse<TopicDoc>>(`/sync/topics/pull?id=${checkpoint.id}&seq=${checkpoint.seq}&limit=${limit}`);
    expect(page.status).toBe(200);
    documents.push(...page.body.documents);
    checkpoint = page.body.checkpoint;
    if (page.body.documents.length < limit) return { documents, checkpoint };
  }
}

/** The live stream's events as they arrive (what a browser's replication reads). */
function openStream(token: string) {
  const events: Array<{ type: string; collection: string }> = [];
  const controller = new AbortController();
  const done = (async () => {
    const response = await fetch(`${url}/api/sync/stream`, { signal: controller.signal, headers: { authorization: `Bearer ${token}` } });
    const reader = response.body!.getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += new TextDecoder().decode(value);
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const data = /^data: (.*)$/m.exec(buffer.slice(0, end))?.[1];
        buffer = buffer.slice(end + 2);
        if (data) events.push(JSON.parse(data) as (typeof events)[number]);
      }
    }
  })().catch(() => {});
  return {
    until: (predicate: (event: (typeof events)[number]) => boolean) => until('the stream tells it', async () => events.some(predicate)),
    async close() {
      controller.abort();
      await done;
    },
  };
}

const post = async (user: TestUser, title: string) => {
  const created = await apiClient(url, user.token).post<TopicDoc>('/topics', { title, categories: ['Science'] });
  expect(created.status).toBe(201);
  return created.body;
};

beforeAll(async () => {
  primary = await startPostgres();
  replica = await startReplica(primary.url);
  url = await serverOn({
    READ_DATABASE_URL: replica.url,
    // Rate limits on, with a small write burst, so that counting them on the primary shows.
    RATE_LIMITS: 'on',
    RATE_LIMIT_USER_WRITES_BURST: '30',
    RATE_LIMIT_USER_WRITES_PER_MIN: '1',
  });
  [ada, bob, dave] = await Promise.all([createTestUser('Ada Replica'), createTestUser('Bob Replica'), createTestUser('Dave Replica')]);
  // Each has been met (their first authenticated call writes their row), and the replica has it.
  await Promise.all([ada, bob, dave].map((user) => apiClient(url, user.token).get('/users/me')));
  await replica.catchUp();
}, 180_000);

afterAll(async () => {
  killServerProcesses();
  for (const backend of backends) await backend.close().catch(() => undefined);
  await replica?.stop();
  await primary?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('reads on a streaming replica (READ_DATABASE_URL)', () => {
  it('tells a live stream about a change once the replica has it, so the pull it prompts finds it', async () => {
    // First in the file: no topic was written before, so the stream's first topics event is this test's
    // (an earlier test's event could still be waiting for the server to see the replica replay it).
    const stream = openStream(bob.token);
    try {
      await stream.until((event) => event.collection === '*');
      await replica.pause();
      let resumed: Promise<void> = Promise.resolve();
      try {
        const topic = await post(ada, 'Told once replayed');
        // The replica replays again a little later; the event waits for it (the pull would miss the topic before).
        resumed = new Promise((resolve) => setTimeout(resolve, 300)).then(() => replica.resume());
        await stream.until((event) => event.collection === 'topics');
        expect((await apiClient(url, bob.token).get(`/topics/${topic.id}`)).status).toBe(200);
      } finally {
        await resumed;
        await replica.resume();
      }
    } finally {
      await stream.close();
    }
  });

  it("serves other users' GETs and pulls from the replica, and the writer's own reads from the primary", async () => {
    const before = await post(ada, 'Replayed before the pause');
    await replica.catchUp();
    await until('bob reads the replayed topic', async () => (await apiClient(url, bob.token).get(`/topics/${before.id}`)).status === 200);
    const start = await pullAll(bob.token, { id: '', seq: 0 });

    await replica.pause();
    try {
      // The write's read-back comes from the primary.
      const unseen = await post(ada, 'Written while the replica is paused');
      expect(unseen.title).toBe('Written while the replica is paused');

      // Bob (and anyone signed out) reads the paused replica: the topic is not there yet.
      expect((await apiClient(url, bob.token).get(`/topics/${unseen.id}`)).status).toBe(404);
      expect((await apiClient(url).get(`/topics/${unseen.id}`)).status).toBe(404);
      const list = await apiClient(url).get<{ topics: TopicDoc[] }>('/topics?sort=new');
      expect(list.status).toBe(200);
      expect(JSON.stringify(list.body)).toContain(before.id);
      expect(JSON.stringify(list.body)).not.toContain(unseen.id);
      const bobsPull = await pullAll(bob.token, start.checkpoint);
      expect(bobsPull.documents.map((doc) => doc.id)).not.toContain(unseen.id);

      // Ada, who wrote it, reads it back on GET and in a pull (the primary, until the replica has it).
      expect((await apiClient(url, ada.token).get(`/topics/${unseen.id}`)).status).toBe(200);
      expect(JSON.stringify((await apiClient(url, ada.token).get('/topics?sort=new')).body)).toContain(unseen.id);
      // The list page she read (kept by the process, at a newer version) is not what the replica's readers get.
      expect(JSON.stringify((await apiClient(url).get('/topics?sort=new')).body)).not.toContain(unseen.id);
      const adasPull = await pullAll(ada.token, start.checkpoint);
      expect(adasPull.documents.map((doc) => doc.id)).toContain(unseen.id);

      // The several-topics pull (a POST) reads the replica too.
      const reply = await apiClient(url, ada.token).post<{ id: string }>('/responses', {
        topic_id: before.id,
        type: 'for',
        content: 'A reply the paused replica lacks',
      });
      expect(reply.status).toBe(201);
      const responsesOf = async (user: TestUser) => {
        const page = await apiClient(url, user.token).post<PullResponse<{ id: string }>>('/sync/responses/pull', {
          checkpoint: { topics: { [before.id]: { id: '', seq: 0 } } },
          limit: 100,
        });
        expect(page.status).toBe(200);
        return page.body.documents.map((doc) => doc.id);
      };
      expect(await responsesOf(bob)).not.toContain(reply.body.id);
      expect(await responsesOf(ada)).toContain(reply.body.id);

      // A sync push is a write too: Dave, whose only write it is, pulls his topic right after it; Bob does not.
      const pushedId = newId();
      const pushed = await apiClient(url, dave.token).post('/sync/topics/push', [
        { assumedMasterState: null, newDocumentState: { id: pushedId, title: 'Pushed while the replica is paused', category: 'Science' } },
      ]);
      expect(pushed.status).toBe(200);
      // Applied (the answer carries the stored row back, with its seq).
      expect(pushed.body.rejected).toEqual([]);
      expect((await pullAll(dave.token, start.checkpoint)).documents.map((doc) => doc.id)).toContain(pushedId);
      expect((await pullAll(bob.token, start.checkpoint)).documents.map((doc) => doc.id)).not.toContain(pushedId);
    } finally {
      await replica.resume();
    }
  });

  it('a pull from the paused replica returns less, and the next pull after it replays fills in without a gap', async () => {
    const start = await pullAll(bob.token, { id: '', seq: 0 });
    await replica.pause();
    const written: string[] = [];
    let partial: Awaited<ReturnType<typeof pullAll>>;
    try {
      for (let i = 0; i < 7; i++) written.push((await post(ada, `Burst topic ${i}`)).id);
      // The paused replica has none of them: Bob's pull gets less (nothing), and a checkpoint that skips nothing.
      partial = await pullAll(bob.token, start.checkpoint);
      expect(partial.documents.map((doc) => doc.id).filter((id) => written.includes(id))).toEqual([]);
      expect(partial.checkpoint.seq).toBeLessThan(
        Math.min(...(await pullAll(ada.token, start.checkpoint)).documents.map((doc) => doc.seq)),
      );
    } finally {
      await replica.resume();
    }
    // Replayed: Bob's next pulls, from where the short one stopped, get every row, in order, once.
    const rest = await pullAll(bob.token, partial.checkpoint);
    const ids = [...partial.documents, ...rest.documents].map((doc) => doc.id);
    expect(ids.filter((id) => written.includes(id))).toEqual(written);
    expect(new Set(ids).size).toBe(ids.length);
    // The same as a pull from the start on the primary (Ada's).
    const everything = await pullAll(ada.token, { id: '', seq: 0 }, 1000);
    const bobs = [...start.documents, ...partial.documents, ...rest.documents];
    const latest = new Map(bobs.map((doc) => [doc.id, doc.seq]));
    expect(new Map(everything.documents.map((doc) => [doc.id, doc.seq]))).toEqual(latest);
  });

  it('counts rate limits on the primary while the replica is paused', async () => {
    const carol = await createTestUser('Carol Replica');
    const api = apiClient(url, carol.token);
    await replica.pause();
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 31; i++) statuses.push((await api.post('/topics', { title: `Limited ${i}`, categories: ['Other'] })).status);
      expect(statuses.slice(0, 30).every((status) => status === 201)).toBe(true);
      expect(statuses[30]).toBe(429);
    } finally {
      await replica.resume();
    }
  });

  it('takes the mail lease on the primary, and exports the lag', async () => {
    const open = async () => {
      const backend = await openBackend({
        databaseUrl: primary.url,
        readDatabaseUrl: replica.url,
        pgPoolMax: 2,
        databaseFile: '',
        dbBusyTimeoutMs: 5000,
      });
      backends.push(backend);
      return backend.store;
    };
    const [one, two] = await Promise.all([open(), open()]);
    await until('the store has measured the replica', async () => one.replicaLagSeconds?.() === 0);
    await replica.pause();
    try {
      const now = new Date('2026-11-27T10:00:00Z');
      const first = await takeMailLease(one, { clock: () => now });
      expect(first.ok).toBe(true);
      // The second process sees the first's lease (the primary), so it is told when that one ends.
      const later = new Date(now.getTime() + 60_000);
      const second = await takeMailLease(two, { clock: () => later });
      expect(second).toEqual({ ok: false, retryAt: new Date(now.getTime() + 5 * 60_000) });
      // The paused replica falls behind the lease's write: the lag is exported and grows.
      await until('the lag shows', async () => (one.replicaLagSeconds?.() ?? 0) > 0);
      // As a Prometheus gauge, read at the scrape.
      const registry = new Registry();
      expect(registerReplicaLagGauge(registry, one)).toBeDefined();
      const scraped = (await registry.getSingleMetric(REPLICA_LAG_METRIC)!.get()).values[0]!.value;
      expect(scraped).toBeGreaterThan(0);
      expect(await registry.metrics()).toMatch(new RegExp(`^${REPLICA_LAG_METRIC} [0-9.]+$`, 'm'));
      if (first.ok) await first.lease.release();
    } finally {
      await replica.resume();
    }
    await until('the lag is back to 0', async () => one.replicaLagSeconds?.() === 0);
    for (const backend of backends.splice(0)) await backend.close();
  });

  it('without READ_DATABASE_URL there is no routing and no lag; without DATABASE_URL it is refused', async () => {
    const backend = await openBackend({ databaseUrl: primary.url, pgPoolMax: 2, databaseFile: '', dbBusyTimeoutMs: 5000 });
    backends.push(backend);
    expect(backend.store.requests).toBeUndefined();
    expect(backend.store.replicaLagSeconds?.()).toBe(null);
    expect(registerReplicaLagGauge(new Registry(), backend.store)).toBeUndefined();
    await expect(
      openBackend({ databaseUrl: undefined, readDatabaseUrl: replica.url, pgPoolMax: 2, databaseFile: '', dbBusyTimeoutMs: 5000 }),
    ).rejects.toThrow('READ_DATABASE_URL is a streaming replica of the PostgreSQL primary: set DATABASE_URL to the primary too.');
  });

  it('reads the primary when READ_DATABASE_URL is not a standby, and says so', async () => {
    const logged: string[] = [];
    const backend = await openBackend(
      { databaseUrl: primary.url, readDatabaseUrl: primary.url, pgPoolMax: 2, databaseFile: '', dbBusyTimeoutMs: 5000 },
      { log: (message) => logged.push(message) },
    );
    backends.push(backend);
    const { store } = backend;
    await until('the check complains', async () => logged.some((line) => line.includes('is not a standby')));
    const reads = store.requests!;
    const topics = await reads.scope(async () => {
      reads.allowReplica();
      return store.topics.list({ sort: 'new', limit: 5, offset: 0, viewer: null });
    });
    expect(topics.length).toBeGreaterThan(0);
  });

  it('sends only plain reads to the replica', () => {
    expect(isPlainRead('SELECT * FROM topics WHERE id = $1')).toBe(true);
    expect(isPlainRead('WITH t AS (SELECT 1) SELECT updated_at, deleted FROM t')).toBe(true);
    expect(isPlainRead('SELECT value FROM mail_state WHERE key = $1 FOR UPDATE')).toBe(false);
    expect(isPlainRead('WITH moved AS (UPDATE topics SET seq = 1 RETURNING id) SELECT * FROM moved')).toBe(false);
    expect(isPlainRead('INSERT INTO users (uid) VALUES ($1) RETURNING *')).toBe(false);
    expect(isPlainRead('SELECT crux_next_seq() AS seq')).toBe(false);
  });

  it('reads the primary when the replica is gone', async () => {
    // A store that checks the replica once, at its start: only the read itself can find out it is gone.
    const once = await createPgStore({
      connectionString: primary.url,
      readConnectionString: replica.url,
      replicaPollMs: 3_600_000,
      log: () => {},
    });
    const reads = once.requests!;
    const asRead = <T>(fn: () => Promise<T>) =>
      reads.scope(async () => {
        reads.allowReplica();
        return fn();
      });
    try {
      await replica.pause();
      const unseen = await post(ada, 'Not on the paused replica');
      // Once its check has run, its reads go to the (paused) replica.
      await until('the store reads the replica', async () => (await asRead(() => once.topics.get(unseen.id, null))) === undefined);
      await replica.resume();
      await replica.stop();
      // The replica read fails (connection refused) and is asked again of the primary.
      expect((await asRead(() => once.topics.get(unseen.id, null)))?.title).toBe('Not on the paused replica');
      // The server process too (whether its read or its lag check notices first).
      expect((await apiClient(url, bob.token).get(`/topics/${unseen.id}`)).status).toBe(200);
      expect((await apiClient(url).get('/topics')).status).toBe(200);
    } finally {
      await once.close();
    }
  });
});
