// Tokens that expire mid-replication, a server that restarts mid-pull, an
// outage without an 'offline' event: nothing lost, nothing twice.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTopic } from '../../sync-server/src/domain/topics.js';
import { rememberUser } from '../../sync-server/src/domain/users.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { countRows } from '../fixtures/builders.js';
import { startClient, until, type TestClient } from '../fixtures/client.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

describe('replication resilience', () => {
  let server: TestServer;
  let ada: TestUser;
  const clients: TestClient[] = [];
  beforeAll(async () => {
    server = await startTestServer();
    ada = await createTestUser('Ada');
  });
  // RxDB opens at most 13 collections per process (a signed-in client holds 8): each test's client
  // is closed before the next one opens.
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('refreshes a token that expires mid-replication and sends the write once', async () => {
    let expired = false;
    const forced: boolean[] = [];
    const client = await startClient(server.url, {
      user: ada,
      getToken: async (force) => {
        forced.push(force === true);
        if (force) return ada.refresh();
        // After "expiry" the cached token no longer verifies; only a forced refresh gives a good one.
        return expired ? `${ada.token.slice(0, -4)}AAAA` : ada.token;
      },
    });
    clients.push(client);
    await until(client.data.status$, (s) => s.online && s.lastSyncedAt !== null);
    expired = true;
    const topic = await client.data.createTopic({ title: 'Token went stale', category: 'Technology' });
    await until(client.data.topic$(topic.id), (t) => !!t && !t.isPending);
    expect(forced).toContain(true);
    expect(await countRows(server.db, 'topics', 'id = ?', topic.id)).toBe(1);
    const pushes = client.requests.filter((r) => r.path === '/api/sync/topics/push');
    expect(pushes.length).toBeGreaterThanOrEqual(2); // the 401 and its retry
    await client.close();
    clients.splice(clients.indexOf(client), 1);
  });

  it('a server restart mid-pull loses and duplicates nothing', async () => {
    const seeder = { uid: ada.uid, name: 'Ada', email: ada.email };
    await rememberUser(server.ctx, seeder);
    const seeded = new Set<string>();
    for (let i = 0; i < 1000; i++)
      seeded.add((await createTopic(server.ctx, seeder, { title: `Seeded ${i}`, categories: ['Science'] })).id);
    const total = await countRows(server.db, 'topics');

    let current = server;
    let pulls = 0;
    // Set inside beforeFetch (a closure), so held in an object TypeScript does not narrow to null.
    const restart: { done?: Promise<void> } = {};
    const client = await startClient(server.url, {
      user: ada,
      baseUrl: () => current.url,
      beforeFetch: async (path) => {
        if (!path.startsWith('/api/sync/topics/page') || ++pulls !== 2 || restart.done) return;
        // The second page's request (the device reads the list it shows, 100 topics a request) meets a dead server; it comes back on the same data a bit later.
        const old = current;
        await old.stop({ keepData: true });
        restart.done = (async () => {
          await new Promise((resolve) => setTimeout(resolve, 300));
          current = await startTestServer({ dir: old.dir });
          server = current;
        })();
      },
    });
    clients.push(client);
    // The device keeps what it shows, not the site: the list on screen is what it reads (page by page).
    const listed = until(client.data.topics$({ sort: 'new', limit: 5000 }), (list) => list.length === total + 1, 90_000);
    await until(client.data.status$, (s) => !s.online, 30_000);
    // Written during the outage: must land exactly once after the restart.
    const during = await client.data.createTopic({ title: 'Written while the server was down', category: 'Other' });
    await restart.done;
    await until(client.data.status$, (s) => s.online && s.pending === 0, 40_000);
    const all = await listed;
    expect(new Set(all.map((t) => t.id)).size).toBe(all.length);
    for (const id of seeded) expect(all.some((t) => t.id === id)).toBe(true);
    expect(await countRows(current.db, 'topics', 'id = ?', during.id)).toBe(1);
    expect(await countRows(current.db, 'topics')).toBe(total + 1);
  }, 90_000);

  // After the 1000 seeded topics above, the client's first upstream pass over them is still
  // running when the outage pauses it: the write made then must still go on resume (RxDB 17.6
  // stored a checkpoint past it; sync-controller.ts requeues pending writes on resume).
  it('a request failing without an offline event pauses replication; a successful retry resumes it', async () => {
    const client = await startClient(server.url, { user: ada });
    clients.push(client);
    await until(client.data.status$, (s) => s.online && s.lastSyncedAt !== null);
    client.breakNetwork();
    const topic = await client.data.createTopic({ title: 'Sent during an outage', category: 'Health' });
    const down = await until(client.data.status$, (s) => !s.online, 30_000);
    expect(down.lastError).toBe('The server cannot be reached.');
    expect(down.pending).toBe(1);
    client.repairNetwork(); // no 'online' event: only a retry can notice
    await until(client.data.status$, (s) => s.online && s.pending === 0 && s.lastError === null, 30_000);
    expect((await apiClient(server.url).get(`/topics/${topic.id}`)).status).toBe(200);
  }, 60_000);
});
