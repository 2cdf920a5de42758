// Reports in the data layer, against the real server: a report made offline lands once,
// a second report of the same target updates the first (one per reporter and target), and the
// moderators' calls of CruxData (queue, action, original text) reach the REST routes with the
// signed-in user's token: a member is refused with the server's text.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MSG, removedByModerator } from '../../shared/messages.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, setTestUserRole, type TestUser } from '../fixtures/auth.js';
import { countRows, makeResponse, makeTopic } from '../fixtures/builders.js';
import { startClient, until, type TestClient } from '../fixtures/client.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

describe('reports in the data layer', () => {
  let server: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let mod: TestUser;
  const clients: TestClient[] = [];
  const client = async (...args: Parameters<typeof startClient>) => {
    const c = await startClient(...args);
    clients.push(c);
    return c;
  };
  const api = (user: TestUser) => apiClient(server.url, () => user.token);

  beforeAll(async () => {
    server = await startTestServer();
    [ada, bob, mod] = await Promise.all([createTestUser('Ada'), createTestUser('Bob'), createTestUser('Mod')]);
    await setTestUserRole(mod, 'moderator');
  });
  // RxDB opens at most 13 collections per process: one signed-in client at a time.
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close().catch(() => {});
  });
  afterAll(() => server.stop());

  /** A response by Bob in a topic of his, opened on the client. */
  async function bobsResponse(c: TestClient) {
    const topic = await makeTopic(api(bob), { title: 'Is tea better than coffee?' });
    const response = await makeResponse(api(bob), { topic_id: topic.id, content: 'Tea, obviously.' });
    await c.data.openTopic(topic.id);
    await until(c.data.topicResponses$(topic.id), (list) => list.length === 1);
    return { topic, response };
  }

  const reportsPushed = (c: TestClient) =>
    c.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/api/sync/reports/push')).length;

  it('a report made offline lands once, with its reason and note', async () => {
    const a = await client(server.url, { user: ada });
    const { response } = await bobsResponse(a);

    a.goOffline();
    await until(a.data.status$, (s) => !s.online);
    const answeredBefore = a.responses.length;
    await a.data.report('response', response.id, 'spam', '  Selling tea kettles  ');
    expect((await until(a.data.status$, (s) => s.pending === 1)).online).toBe(false);
    const offline = await a.data.exportMyData();
    expect(offline.reports).toEqual([
      expect.objectContaining({
        target_type: 'response',
        target_id: response.id,
        reason: 'spam',
        note: 'Selling tea kettles',
        status: 'open',
        pending: true,
      }),
    ]);
    // The report did not reach the server while offline. (A pull of reports already in flight when
    // the connection dropped may still be answered: it carries nothing of the device's.)
    expect(a.responses.slice(answeredBefore).filter((r) => r.path.includes('/reports/push'))).toEqual([]);

    a.goOnline();
    await until(a.data.status$, (s) => s.online && s.pending === 0, 15_000);
    expect(await countRows(server.db, 'reports', 'reporter_uid = ? AND target_id = ?', ada.uid, response.id)).toBe(1);
    const row = await server.db.row<{ reason: string; note: string | null; status: string }>(
      'SELECT reason, note, status FROM reports WHERE reporter_uid = ? AND target_id = ?',
      ada.uid,
      response.id,
    );
    expect(row).toEqual({ reason: 'spam', note: 'Selling tea kettles', status: 'open' });
    const pushes = reportsPushed(a);
    expect(pushes).toBeGreaterThanOrEqual(1);

    // A reload with the same profile sends nothing again, and the report is still once on the server.
    await a.close();
    clients.splice(0);
    const again = await client(server.url, { user: ada, indexedDB: a.indexedDB, prefix: a.prefix });
    await until(again.data.status$, (s) => s.online && s.pending === 0, 15_000);
    expect(reportsPushed(again)).toBe(0);
    expect((await again.data.exportMyData()).reports).toEqual([expect.objectContaining({ target_id: response.id, pending: false })]);
    expect(await countRows(server.db, 'reports', 'reporter_uid = ? AND target_id = ?', ada.uid, response.id)).toBe(1);
  });

  it('a second report of the same target updates the first', async () => {
    const a = await client(server.url, { user: ada });
    const { topic } = await bobsResponse(a);
    await a.data.report('topic', topic.id, 'spam', null);
    await until(a.data.status$, (s) => s.online && s.pending === 0, 15_000);
    const first = (await a.data.exportMyData()).reports.find((r) => r.target_id === topic.id)!;

    await a.data.report('topic', topic.id, 'off-topic', 'Not a debate');
    await until(a.data.status$, (s) => s.online && s.pending === 0, 15_000);
    expect(await countRows(server.db, 'reports', 'reporter_uid = ? AND target_id = ?', ada.uid, topic.id)).toBe(1);
    expect(await server.db.row('SELECT reason, note FROM reports WHERE reporter_uid = ? AND target_id = ?', ada.uid, topic.id)).toEqual({
      reason: 'off-topic',
      note: 'Not a debate',
    });
    const mine = (await a.data.exportMyData()).reports.filter((r) => r.target_id === topic.id);
    expect(mine).toEqual([
      expect.objectContaining({ reason: 'off-topic', note: 'Not a debate', created_at: first.created_at, pending: false }),
    ]);
  });

  it('refuses on the device: signed out, one’s own item, an unknown reason', async () => {
    const anonymous = await client(server.url);
    await expect(anonymous.data.report('user', bob.uid, 'spam')).rejects.toThrow(MSG.loginToReport);
    await anonymous.close();
    clients.splice(0);

    const b = await client(server.url, { user: bob });
    const { response } = await bobsResponse(b);
    await expect(b.data.report('response', response.id, 'spam')).rejects.toThrow(MSG.reportOwnItem);
    await expect(b.data.report('user', bob.uid, 'spam')).rejects.toThrow(MSG.reportOwnItem);
    await expect(b.data.report('user', ada.uid, 'rude' as never)).rejects.toThrow(MSG.reportReasonMissing);
    expect((await b.data.exportMyData()).reports).toEqual([]);
  });

  it('the moderators’ calls: a member is refused, a moderator reads the queue, removes with a reason and reads the original', async () => {
    const a = await client(server.url, { user: ada });
    const { response } = await bobsResponse(a);
    await a.data.report('response', response.id, 'harassment', 'Rude');
    await until(a.data.status$, (s) => s.online && s.pending === 0, 15_000);
    await expect(a.data.moderationQueue('open', 20, 0)).rejects.toThrow(MSG.moderatorsOnly);
    await a.close();
    clients.splice(0);

    const m = await client(server.url, { user: mod });
    await until(m.data.myAccount$(), (account) => account?.role === 'moderator', 15_000);
    const page = await m.data.moderationQueue('open', 100, 0);
    const item = page.items.find((i) => i.target_id === response.id);
    expect(item).toMatchObject({ target_type: 'response', reporters: 1, target: { text: 'Tea, obviously.', author_uid: bob.uid } });
    expect(item!.reports).toEqual([expect.objectContaining({ reporter_uid: ada.uid, reason: 'harassment', note: 'Rude' })]);
    expect((await m.data.moderationQueue('open', 0, 0)).total).toBe(page.total);

    await expect(m.data.moderate({ action: 'remove', target_type: 'response', target_id: response.id, reason: '  ' })).rejects.toThrow(
      MSG.moderationReasonEmpty,
    );
    await m.data.moderate({ action: 'remove', target_type: 'response', target_id: response.id, reason: 'Personal attack' });
    expect((await m.data.moderatedOriginal('response', response.id)).text).toBe('Tea, obviously.');
    // The device holds the replacement once it pulls.
    await m.data.openTopic(response.topic_id);
    const removed = await until(m.data.topicResponses$(response.topic_id), (list) => list[0]?.moderation === 'removed', 15_000);
    expect(removed[0]!.content).toBe(removedByModerator('Personal attack'));
    const log = await m.data.moderationLog(50, 0);
    expect(log.items[0]).toMatchObject({ action: 'remove', target_id: response.id, reason: 'Personal attack', moderator_uid: mod.uid });
  });

  it('a removal reaches a device that holds the text and erases it from IndexedDB', async () => {
    const a = await client(server.url, { user: ada });
    const topic = await makeTopic(api(bob), { title: 'Are kettles overrated?' });
    const original = 'Kettles at half price on kettle-shop dot example';
    const response = await makeResponse(api(bob), { topic_id: topic.id, content: original });
    await a.data.openTopic(topic.id);
    await until(a.data.topicResponses$(topic.id), (list) => list[0]?.content === original);
    expect(await storedCopies(a, original)).not.toEqual([]);

    const removed = await api(mod).post('/moderation/actions', {
      action: 'remove',
      target_type: 'response',
      target_id: response.id,
      reason: 'Advertising',
    });
    expect(removed.status).toBe(200);
    // The live stream tells the device to pull; the pulled state replaces the text.
    const list = await until(a.data.topicResponses$(topic.id), (l) => l[0]?.moderation === 'removed', 20_000);
    expect(list[0]!.content).toBe(removedByModerator('Advertising'));
    expect(await storedCopies(a, original)).toEqual([]);
  });
});

/** Every database/store of the client's IndexedDB holding a value that contains `text`. */
async function storedCopies(c: TestClient, text: string): Promise<string[]> {
  const found: string[] = [];
  for (const { name } of await c.indexedDB.databases()) {
    if (!name) continue;
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = c.indexedDB.open(name);
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error ?? new Error(name));
    });
    for (const store of Array.from(db.objectStoreNames)) {
      const values = await new Promise<unknown[]>((resolve) => {
        const all = db.transaction(store).objectStore(store).getAll();
        all.onsuccess = () => resolve(all.result as unknown[]);
        all.onerror = () => resolve([]);
      });
      if (values.some((value) => JSON.stringify(value).includes(text))) found.push(`${name}/${store}`);
    }
    db.close();
  }
  return found;
}
