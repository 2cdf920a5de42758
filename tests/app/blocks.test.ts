// Blocking in the data layer, against the real server: a block made offline lands
// exactly once after reconnecting, an offline unblock lands, blocked and unblocked again offline
// sends nothing, the list and the set are live, another device of the same user pulls them, and
// the device refuses what the server would (yourself, signed out).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages.js';
import type { BlockedUser } from '../../shared/types.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { countRows } from '../fixtures/builders.js';
import { startClient, until, type TestClient } from '../fixtures/client.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

describe('blocks in the data layer', () => {
  let server: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  const clients: TestClient[] = [];
  const client = async (...args: Parameters<typeof startClient>) => {
    const c = await startClient(...args);
    clients.push(c);
    return c;
  };
  const api = (user: TestUser) => apiClient(server.url, () => user.token);
  const serverList = async (user: TestUser) => (await api(user).get<BlockedUser[]>('/blocks')).body.map((b) => b.uid);
  const pushes = (c: TestClient) => c.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/api/sync/blocks/push'));

  beforeAll(async () => {
    server = await startTestServer();
    [ada, bob, carol] = await Promise.all([createTestUser('Ada'), createTestUser('Bob'), createTestUser('Carol')]);
    // The server knows a user once they have called it.
    for (const user of [ada, bob, carol]) expect((await api(user).get('/blocks')).status).toBe(200);
  });
  // RxDB opens at most 13 collections per process: one signed-in client at a time.
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close().catch(() => {});
  });
  afterAll(() => server.stop());

  it('a block made offline shows at once (pending), lands exactly once after reconnecting, and the set is live', async () => {
    const a = await client(server.url, { user: ada });
    a.goOffline();
    await until(a.data.status$, (s) => !s.online);
    await a.data.blockUser(bob.uid, 'Bob');
    expect(await until(a.data.blockedUsers$(), (list) => list.length === 1)).toEqual([
      { uid: bob.uid, display_name: 'Bob', updated_at: expect.any(String), isPending: true },
    ]);
    expect([...(await until(a.data.blockedUids$(), (set) => set !== null && set.size === 1))!]).toEqual([bob.uid]);
    // Blocking again changes nothing.
    await a.data.blockUser(bob.uid, 'Bob');
    expect(pushes(a)).toHaveLength(0);

    a.goOnline();
    await until(a.data.blockedUsers$(), (list) => list.length === 1 && !list[0]!.isPending);
    expect(await serverList(ada)).toEqual([bob.uid]);
    expect(await countRows(server.db, 'blocks', 'blocker_uid = ?', ada.uid)).toBe(1);
    await until(a.data.status$, (s) => s.pending === 0);
    const sent = pushes(a).filter((r) => r.body?.includes(bob.uid));
    expect(sent).toHaveLength(1);

    // Unblocked offline: gone from the list at once, and on the server after reconnecting.
    a.goOffline();
    await until(a.data.status$, (s) => !s.online);
    await a.data.unblockUser(bob.uid);
    await until(a.data.blockedUids$(), (set) => set !== null && set.size === 0);
    expect(await until(a.data.blockedUsers$(), (list) => list.length === 0)).toEqual([]);
    expect(await serverList(ada)).toEqual([bob.uid]);
    a.goOnline();
    await until(a.data.status$, (s) => s.online && s.pending === 0);
    expect(await serverList(ada)).toEqual([]);
    expect(await countRows(server.db, 'blocks', 'blocker_uid = ? AND blocked = 0', ada.uid)).toBe(1);
  });

  it('blocked and unblocked again offline sends nothing', async () => {
    const a = await client(server.url, { user: carol });
    await until(a.data.status$, (s) => s.online);
    a.goOffline();
    await until(a.data.status$, (s) => !s.online);
    await a.data.blockUser(bob.uid, 'Bob');
    await a.data.unblockUser(bob.uid);
    a.goOnline();
    await until(a.data.status$, (s) => s.online && s.pending === 0);
    expect(await countRows(server.db, 'blocks', 'blocker_uid = ?', carol.uid)).toBe(0);
    expect(await until(a.data.blockedUsers$(), () => true)).toEqual([]);
  });

  it('another device of the same user pulls the list, and hears of a block made elsewhere', async () => {
    expect((await api(ada).put(`/blocks/${carol.uid}`)).status).toBe(200);
    const b = await client(server.url, { user: ada });
    expect(await until(b.data.blockedUsers$(), (list) => list.length === 1)).toEqual([
      { uid: carol.uid, display_name: 'Carol', updated_at: expect.any(String), isPending: false },
    ]);
    // A block made on another device (here: REST) reaches this one live.
    expect((await api(ada).put(`/blocks/${bob.uid}`)).status).toBe(200);
    const both = await until(b.data.blockedUids$(), (set) => set !== null && set.size === 2);
    expect([...both!].sort()).toEqual([bob.uid, carol.uid].sort());
    expect((await api(ada).del(`/blocks/${bob.uid}`)).status).toBe(204);
    expect((await api(ada).del(`/blocks/${carol.uid}`)).status).toBe(204);
    await until(b.data.blockedUsers$(), (list) => list.length === 0);
  });

  it('a block the server refuses (a user it does not know) becomes a sync problem and is undone here', async () => {
    const a = await client(server.url, { user: carol });
    await a.data.blockUser('no-such-user', 'Nobody');
    const [problem] = await until(a.data.syncProblems$(), (list) => list.length === 1);
    expect(problem).toMatchObject({
      kind: 'rejected',
      collection: 'blocks',
      itemId: 'no-such-user',
      action: 'block',
      status: 404,
      error: MSG.userNotFound,
    });
    expect(await until(a.data.blockedUsers$(), (list) => list.length === 0)).toEqual([]);
    await until(a.data.status$, (s) => s.pending === 0);
    expect(await countRows(server.db, 'blocks', 'blocked_uid = ?', 'no-such-user')).toBe(0);
    await a.data.discardProblem(problem!.id);
  });

  it('refuses on the device what the server would: yourself, and signed out', async () => {
    const a = await client(server.url, { user: bob });
    await expect(a.data.blockUser(bob.uid, 'Bob')).rejects.toMatchObject({ message: MSG.blockSelf, code: 'invalid-argument' });
    await a.data.signOut();
    await expect(a.data.blockUser(ada.uid, 'Ada')).rejects.toMatchObject({ message: MSG.loginToBlock, code: 'unauthenticated' });
    await expect(a.data.unblockUser(ada.uid)).rejects.toMatchObject({ message: MSG.loginToBlock });
    expect(await until(a.data.blockedUsers$(), () => true)).toEqual([]);
    expect(await countRows(server.db, 'blocks', 'blocker_uid = ?', bob.uid)).toBe(0);
  });
});
