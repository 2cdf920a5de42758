// Following topics in the data layer, against the real server: a follow made offline
// shows at once (pending) and lands exactly once after reconnecting, an offline unfollow lands and is
// kept, followed and unfollowed again offline sends nothing, and the follows the server makes itself
// (the user created a topic or replied) reach the device by pull, so the list reads offline.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages.js';
import { SYNC_PROTOCOL_VERSION } from '../../shared/sync-protocol.js';
import type { FollowedTopic } from '../../shared/types.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { makeResponse, makeTopic } from '../fixtures/builders.js';
import { startClient, until, type TestClient } from '../fixtures/client.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

describe('follows in the data layer', () => {
  let server: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  const clients: TestClient[] = [];
  const client = async (...args: Parameters<typeof startClient>) => {
    const c = await startClient(...args);
    clients.push(c);
    return c;
  };
  const api = (user: TestUser) => apiClient(server.url, () => user.token);
  const serverList = async (user: TestUser) => (await api(user).get<FollowedTopic[]>('/follows')).body.map((f) => f.topic_id);
  const pushes = (c: TestClient) => c.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/api/sync/follows/push'));
  const pull = async (user: TestUser) =>
    (
      await api(user).get<{ documents: { id: string }[] }>('/sync/follows/pull?limit=1000', {
        headers: { 'x-crux-sync': String(SYNC_PROTOCOL_VERSION) },
      })
    ).body.documents;
  const following = (list: { topic_id: string; following: boolean }[]) => list.filter((f) => f.following).map((f) => f.topic_id);

  beforeAll(async () => {
    server = await startTestServer();
    [ada, bob] = await Promise.all([createTestUser('Ada'), createTestUser('Bob')]);
    for (const user of [ada, bob]) expect((await api(user).get('/follows')).status).toBe(200);
  });
  // RxDB opens at most 13 collections per process: one signed-in client at a time.
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close().catch(() => {});
  });
  afterAll(() => server.stop());

  it('a follow made offline shows at once, lands once; an offline unfollow lands and is kept', async () => {
    const topic = await makeTopic(api(bob), { title: 'Should tea be free?' });
    const a = await client(server.url, { user: ada });
    await until(a.data.status$, (s) => s.online);
    a.goOffline();
    await until(a.data.status$, (s) => !s.online);
    await a.data.followTopic(topic.id, topic.title);
    expect(await until(a.data.follows$(), (list) => list.length === 1)).toEqual([
      { topic_id: topic.id, title: topic.title, following: true, updated_at: expect.any(String), isPending: true },
    ]);
    await a.data.followTopic(topic.id, topic.title);
    expect(await serverList(ada)).toEqual([]);

    a.goOnline();
    await until(a.data.follows$(), (list) => list.length === 1 && !list[0]!.isPending);
    await until(a.data.status$, (s) => s.online && s.pending === 0);
    expect(await serverList(ada)).toEqual([topic.id]);
    // Sent once: one state (an attempt the offline network refused just before is recorded too).
    expect(
      new Set(
        pushes(a)
          .filter((r) => r.body?.includes(topic.id))
          .map((r) => r.body),
      ).size,
    ).toBe(1);
    expect((await pull(ada)).filter((d) => d.id === topic.id)).toHaveLength(1);

    a.goOffline();
    await until(a.data.status$, (s) => !s.online);
    await a.data.unfollowTopic(topic.id);
    expect(following(await until(a.data.follows$(), (list) => list.every((f) => !f.following)))).toEqual([]);
    a.goOnline();
    await until(a.data.status$, (s) => s.online && s.pending === 0);
    expect(await serverList(ada)).toEqual([]);
    // Kept: Ada replying there now does not follow it again.
    await makeResponse(api(ada), { topic_id: topic.id, content: 'Ada still has a view' });
    expect(await serverList(ada)).toEqual([]);
  });

  it('followed and unfollowed again offline sends nothing', async () => {
    const topic = await makeTopic(api(bob), { title: 'Is coffee a vegetable?' });
    const a = await client(server.url, { user: ada });
    await until(a.data.status$, (s) => s.online);
    a.goOffline();
    await until(a.data.status$, (s) => !s.online);
    await a.data.followTopic(topic.id, topic.title);
    await a.data.unfollowTopic(topic.id);
    a.goOnline();
    await until(a.data.status$, (s) => s.online && s.pending === 0);
    expect(pushes(a).filter((r) => r.body?.includes(topic.id))).toHaveLength(0);
    expect(await serverList(ada)).not.toContain(topic.id);
  });

  it("the server's own follows (a topic created, a reply) reach the device and read offline; signed out is refused", async () => {
    const own = await makeTopic(api(ada), { title: "Ada's question about bridges" });
    const other = await makeTopic(api(bob), { title: "Bob's question about tunnels" });
    await makeResponse(api(ada), { topic_id: other.id, content: 'Ada answers Bob' });
    const a = await client(server.url, { user: ada });
    const list = await until(a.data.follows$(), (l) => following(l).includes(own.id) && following(l).includes(other.id));
    expect(list.find((f) => f.topic_id === other.id)).toMatchObject({ title: other.title, isPending: false });
    a.goOffline();
    await until(a.data.status$, (s) => !s.online);
    expect(following(await until(a.data.follows$(), (l) => l.length > 0))).toEqual(expect.arrayContaining([own.id, other.id]));
    await a.close();
    clients.length = 0;

    const anonymous = await client(server.url, {});
    await expect(anonymous.data.followTopic(other.id, other.title)).rejects.toThrow(MSG.loginToFollow);
  });
});
