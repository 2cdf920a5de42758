// Tombstones on the device: the server now sends a deleted topic or response as
// a slim tombstone (id, seq, the keys that place it; no text). The client store, with
// its schema checks on (devMode), removes the item and keeps none of its text, and an
// edit made offline to an item deleted meanwhile becomes a sync problem, not an error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { makeResponse, makeTopic } from '../fixtures/builders.js';
import { startClient, until, type TestClient } from '../fixtures/client.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

describe('slim tombstones on the device', () => {
  let server: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let client: TestClient;
  beforeAll(async () => {
    server = await startTestServer();
    [ada, bob] = await Promise.all([createTestUser('Ada Author'), createTestUser('Bob Reader')]);
  });
  afterAll(async () => {
    await client?.close();
    await server.stop();
  });

  it('a response and a topic deleted on the server leave the device, text and all', async () => {
    const author = apiClient(server.url, ada.token);
    const topic = await makeTopic(author, { title: 'Topic that stays' });
    const doomedTopic = await makeTopic(author, { title: 'Topic to be deleted' });
    const kept = await makeResponse(author, { topic_id: topic.id, content: 'Response that stays' });
    const doomed = await makeResponse(author, {
      topic_id: topic.id,
      content: 'Response to be deleted',
      sources: [{ url: 'https://doomed.example/', name: 'Doomed source' }],
    });
    client = await startClient(server.url, { user: bob });
    await client.data.openTopic(topic.id);
    await until(
      client.data.topicResponses$(topic.id),
      (list) => list.some((r) => r.id === doomed.id) && list.some((r) => r.id === kept.id),
    );
    await until(client.data.topics$({ sort: 'new' }), (list) => list.some((t) => t.id === doomedTopic.id));

    expect((await author.del(`/responses/${doomed.id}`)).status).toBe(204);
    expect((await author.del(`/topics/${doomedTopic.id}`)).status).toBe(204);

    const responses = await until(client.data.topicResponses$(topic.id), (list) => !list.some((r) => r.id === doomed.id));
    expect(responses.map((r) => r.id)).toContain(kept.id);
    const topics = await until(client.data.topics$({ sort: 'new' }), (list) => !list.some((t) => t.id === doomedTopic.id));
    expect(topics.map((t) => t.id)).toContain(topic.id);
    expect(await until(client.data.topic$(doomedTopic.id), (t) => t === null)).toBeNull();

    const status = await until(client.data.status$, (s) => !s.syncing);
    expect(status.lastError).toBeNull();
    expect(await until(client.data.syncProblems$(), () => true)).toEqual([]);
  });

  it('an edit of a response deleted meanwhile on the server becomes a conflict problem', async () => {
    const author = apiClient(server.url, ada.token);
    const topic = await makeTopic(author, { title: 'Topic with an edit race' });
    const mine = await makeResponse(apiClient(server.url, bob.token), { topic_id: topic.id, content: 'Bob wrote this' });
    await client.data.openTopic(topic.id);
    await until(client.data.topicResponses$(topic.id), (list) => list.some((r) => r.id === mine.id));

    client.goOffline();
    await client.data.editResponse(mine.id, { content: 'Bob edited this offline' });
    // Meanwhile Bob deletes it from another device.
    expect((await apiClient(server.url, bob.token).del(`/responses/${mine.id}`)).status).toBe(204);
    client.goOnline();

    const problems = await until(client.data.syncProblems$(), (list) => list.some((p) => p.itemId === mine.id));
    const problem = problems.find((p) => p.itemId === mine.id)!;
    expect(problem.kind).toBe('conflict');
    expect(problem.serverState).toEqual({
      id: mine.id,
      topic_id: topic.id,
      parent_response_id: null,
      seq: expect.any(Number),
      _deleted: true,
    });
    await until(client.data.topicResponses$(topic.id), (list) => !list.some((r) => r.id === mine.id));
  });

  it('a notification deleted on the server (its topic was deleted) leaves the device, its slim tombstone accepted', async () => {
    const ada2 = await createTestUser('Ada Notified');
    const topic = await makeTopic(apiClient(server.url, ada2.token), { title: 'Topic whose notifications go' });
    const reply = await makeResponse(apiClient(server.url, bob.token), { topic_id: topic.id, content: 'Bob replied here' });
    // One client at a time (RxDB's open-source collection limit): Bob's goes, Ada's comes.
    await client.close();
    client = await startClient(server.url, { user: ada2 });
    await until(client.data.notifications$(), (list) => list.some((n) => n.response_id === reply.id));
    expect((await apiClient(server.url, ada2.token).del(`/topics/${topic.id}`)).status).toBe(204);
    await until(client.data.notifications$(), (list) => list.length === 0);
    const status = await until(client.data.status$, (s) => !s.syncing);
    expect(status.lastError).toBeNull();
    expect(await until(client.data.syncProblems$(), () => true)).toEqual([]);
  });
});
