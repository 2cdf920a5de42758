// Topics and responses replicate pull-only and the user's own changes to them go through the outbox
// (app/src/data/outbox.ts, pull-guard.ts). What that must keep: a pull never writes over
// an unsent change, a change made while its push is out is sent after it as an edit (never a false
// conflict), and RxDB keeps no replication-meta copy of the pulled documents.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { makeResponse, makeTopic, upvote } from '../fixtures/builders.js';
import { startClient, until, type TestClient } from '../fixtures/client.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';
import { storedRecords } from '../fixtures/indexeddb.js';
import { SYNC_PROTOCOL_VERSION } from '../../shared/sync-protocol.js';
import type { PushSettings } from '../../shared/push.js';

/** A gate on one request path: requests wait at it until it opens. */
function gate(pathStart: string) {
  let open = true;
  let release: () => void = () => {};
  let opened = Promise.resolve();
  let waiting = 0;
  return {
    close() {
      open = false;
      opened = new Promise((resolve) => (release = resolve));
    },
    open() {
      open = true;
      release();
    },
    waiting: () => waiting,
    async beforeFetch(path: string) {
      if (open || !path.startsWith(pathStart)) return;
      waiting += 1;
      await opened;
      waiting -= 1;
    },
  };
}

/** Resolves once `check` holds (polled). */
async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !(await check());) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the outbox of topics and responses', () => {
  let server: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let a: TestClient;
  const pushes = gate('/api/sync/responses/push');
  const profilePushes = gate('/api/sync/profile/push');
  beforeAll(async () => {
    server = await startTestServer();
    ada = await createTestUser('Ada');
    bob = await createTestUser('Bob');
    // Recorded on the server before anything votes or replies as them.
    await apiClient(server.url, bob.token).get('/follows');
    a = await startClient(server.url, {
      user: ada,
      beforeFetch: async (path) => {
        await pushes.beforeFetch(path);
        await profilePushes.beforeFetch(path);
      },
    });
  });
  afterAll(async () => {
    pushes.open();
    profilePushes.open();
    await a?.close();
    await server.stop();
  });

  it('a pull of a newer server state never writes over an unsent edit; the edit then lands as an edit', async () => {
    const api = apiClient(server.url, ada.token);
    const topic = await makeTopic(api, { title: 'Pulled while an edit waits' });
    const response = await makeResponse(api, { topic_id: topic.id, content: 'as first written' });
    await a.data.openTopic(topic.id);
    await until(a.data.topicResponses$(topic.id), (list) => list.length === 1);

    pushes.close();
    await a.data.editResponse(response.id, { content: 'edited, waiting to be sent' });
    await eventually(() => pushes.waiting() === 1);
    // Meanwhile the server's state of that response changes (Bob upvotes it), and a later reply of
    // Bob's shows that the page holding that newer state has been pulled and stored.
    const bobApi = apiClient(server.url, bob.token);
    await upvote(bobApi, 'response', response.id);
    const reply = await makeResponse(bobApi, { topic_id: topic.id, content: 'Bob replies' });
    const pulled = await until(a.data.topicResponses$(topic.id), (list) => list.some((r) => r.id === reply.id));
    expect(pulled.find((r) => r.id === response.id)).toMatchObject({ content: 'edited, waiting to be sent', isPending: true });

    pushes.open();
    await until(a.data.status$, (s) => s.pending === 0, 15_000);
    expect((await api.get(`/responses/${response.id}`)).body).toMatchObject({ content: 'edited, waiting to be sent', score: 1 });
    expect(await until(a.data.syncProblems$(), () => true)).toEqual([]);
    // The server's state comes back after the push: the edit and Bob's vote.
    await until(a.data.topicResponses$(topic.id), (list) =>
      list.some((r) => r.id === response.id && r.content === 'edited, waiting to be sent' && r.score === 1 && !r.isPending),
    );
  });

  it('a change made while its push is out is sent after it, on the state the server answered', async () => {
    const api = apiClient(server.url, ada.token);
    const topic = await makeTopic(api, { title: 'Edited twice' });
    const response = await makeResponse(api, { topic_id: topic.id, content: 'version 0' });
    await a.data.openTopic(topic.id);
    await until(a.data.topicResponses$(topic.id), (list) => list.length === 1);
    const pushesBefore = a.requests.filter((r) => r.path.startsWith('/api/sync/responses/push')).length;

    pushes.close();
    await a.data.editResponse(response.id, { content: 'version 1' });
    await eventually(() => pushes.waiting() === 1);
    await a.data.editResponse(response.id, { content: 'version 2' });
    pushes.open();

    await until(a.data.status$, (s) => s.pending === 0, 15_000);
    expect((await api.get(`/responses/${response.id}`)).body.content).toBe('version 2');
    // Not a conflict with the first push: the second was sent on the state the server answered.
    expect(await until(a.data.syncProblems$(), () => true)).toEqual([]);
    const sent = a.requests.filter((r) => r.path.startsWith('/api/sync/responses/push')).slice(pushesBefore);
    expect(
      sent.map((r) => (JSON.parse(r.body!) as { newDocumentState: { content: string } }[]).map((row) => row.newDocumentState.content)),
    ).toEqual([['version 1'], ['version 2']]);
    const second = (JSON.parse(sent[1]!.body!) as { assumedMasterState: { content: string } | null }[])[0]!;
    expect(second.assumedMasterState?.content).toBe('version 1');
  });

  it('keeps no replication-meta copy of pulled topics and responses', async () => {
    const api = apiClient(server.url, ada.token);
    const topic = await makeTopic(api, { title: 'Many responses, read only' });
    for (let i = 0; i < 30; i++) await makeResponse(api, { topic_id: topic.id, content: `response ${i}` });
    await a.data.openTopic(topic.id);
    await until(a.data.topicResponses$(topic.id), (list) => list.length === 30);
    const stored = await storedRecords(a.indexedDB, new RegExp(`^rxdb-dexie-${a.prefix}-public--\\d+--responses$`));
    expect(stored.filter((doc) => doc.topic_id === topic.id)).toHaveLength(30);
    // RxDB's meta records of a document hold it whole (`docData`); checkpoints are the only ones left.
    const meta = await storedRecords(a.indexedDB, new RegExp(`^rxdb-dexie-${a.prefix}-public--\\d+--rx-replication-meta`));
    expect(meta.length).toBeGreaterThan(0);
    expect(meta.filter((record) => record.isCheckpoint !== '1')).toEqual([]);
  });

  // The same for RxDB's own push (the user's database): the second of two quick changes to one
  // document, made while the first is being sent, used to go on the state from before the first, and
  // the server refused it as a conflict with the user's own first change (push-handler.ts `answers`).
  it('two quick changes of a preference, the second made while the first is being sent, both reach the server', async () => {
    const settings$ = a.data.pushSettings$();
    const before = await until(settings$, (value) => value !== null);
    const serverSettings = async () =>
      (
        (
          await apiClient(server.url, ada.token).get('/sync/profile/pull?limit=10', {
            headers: { 'x-crux-sync': String(SYNC_PROTOCOL_VERSION) },
          })
        ).body as { documents: { push_settings: PushSettings }[] }
      ).documents[0]!.push_settings;
    profilePushes.close();
    await a.data.setPushSettings({ ...before!, replies: !before!.replies });
    await eventually(() => profilePushes.waiting() === 1);
    const quiet = { start: '22:00', end: '07:00', time_zone: 'Europe/Berlin' };
    await a.data.setPushSettings({ ...before!, replies: !before!.replies, quiet_hours: quiet });
    profilePushes.open();
    await until(a.data.status$, (s) => s.pending === 0, 15_000);
    await eventually(async () => (await serverSettings()).quiet_hours !== null);
    expect(await serverSettings()).toEqual({ ...before, replies: !before!.replies, quiet_hours: quiet });
    expect(await until(a.data.syncProblems$(), () => true)).toEqual([]);
  });
});
