// An installed app older than the server's sync protocol: the server answers its
// /api/sync requests with 426 `sync-outdated`. The client stops syncing (no retry
// loop), keeps every queued write, and asks for a reload; the reloaded (current)
// app then sends what was queued.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { startClient, until, type TestClient } from '../fixtures/client.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

const syncRequests = (client: TestClient) => client.requests.filter((r) => r.path.startsWith('/api/sync/')).length;

describe('outdated sync protocol', () => {
  let server: TestServer;
  let ada: TestUser;
  const clients: TestClient[] = [];
  beforeAll(async () => {
    server = await startTestServer();
    ada = await createTestUser('Ada');
  });
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => {});
    await server.stop();
  });

  it('stops syncing, keeps queued writes and asks for a reload', async () => {
    // The app before the protocol change: its requests say x-crux-sync: 0.
    const old = await startClient(server.url, { user: ada, syncHeaders: { 'x-crux-sync': '0' } });
    clients.push(old);
    const status = await until(old.data.status$, (s) => s.updateRequired, 15_000);
    expect(status.lastError).toBe(MSG.syncOutdated);
    expect(old.responses.some((r) => r.path.startsWith('/api/sync/') && r.status === 426)).toBe(true);

    // A write made meanwhile: visible locally, queued, never sent.
    const topic = await old.data.createTopic({ title: 'Written by the old app', category: 'Science' });
    expect(topic.isPending).toBe(true);
    const sent = syncRequests(old);
    // Several retry periods (150 ms in tests): no request goes out, nothing is dropped.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(syncRequests(old)).toBe(sent);
    const after = await until(old.data.status$, (s) => s.updateRequired && s.pending > 0);
    expect(after.lastError).toBe(MSG.syncOutdated);
    expect((await until(old.data.topic$(topic.id), (t) => t !== undefined))?.isPending).toBe(true);
    expect((await apiClient(server.url).get(`/topics/${topic.id}`)).status).toBe(404);

    // Reloaded with the current app (same browser profile): the queued write lands.
    await old.close();
    clients.splice(clients.indexOf(old), 1);
    const current = await startClient(server.url, { user: ada, indexedDB: old.indexedDB, prefix: old.prefix });
    clients.push(current);
    await until(current.data.topic$(topic.id), (t) => !!t && !t.isPending, 15_000);
    const ready = await until(current.data.status$, (s) => s.pending === 0 && !s.updateRequired);
    expect(ready.lastError).toBeNull();
    expect((await apiClient(server.url).get(`/topics/${topic.id}`)).body.title).toBe('Written by the old app');
  });
});
