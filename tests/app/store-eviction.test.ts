// Per-topic response replication keeps storage bounded: the most recently opened
// topics (keepTopics) plus the saved ones; older ones lose their responses and
// their checkpoint, and eviction never reaches the server as a delete.
import type { IDBFactory } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { countRows, makeResponse, makeTopic } from '../fixtures/builders.js';
import { startClient, until, type TestClient } from '../fixtures/client.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';
import { storedRecords } from '../fixtures/indexeddb.js';

/** topic_id of every response record in the profile's IndexedDB (RxDB tombstones too), read without RxDB. */
async function storedResponseTopics(factory: IDBFactory): Promise<string[]> {
  return (await storedRecords(factory, /--responses$/)).flatMap((record) => (typeof record.topic_id === 'string' ? [record.topic_id] : []));
}

describe('per-topic eviction', () => {
  let server: TestServer;
  let ada: TestUser;
  let client: TestClient;
  beforeAll(async () => {
    server = await startTestServer();
    ada = await createTestUser('Ada');
  });
  afterAll(async () => {
    await client?.close();
    await server.stop();
  });

  it('keeps the 3 most recently opened topics plus the saved one, and re-pulls an evicted topic from scratch', async () => {
    const api = apiClient(server.url, ada.token);
    const topics: Awaited<ReturnType<typeof makeTopic>>[] = [];
    for (let i = 0; i < 6; i++) {
      const topic = await makeTopic(api, { title: `Debate ${i}` });
      await makeResponse(api, { topic_id: topic.id, content: `first of ${i}` });
      await makeResponse(api, { topic_id: topic.id, content: `second of ${i}` });
      topics.push(topic);
    }
    client = await startClient(server.url, { user: ada, keepTopics: 3 });
    const localCount = async (topicId: string) => (await until(client.data.topicResponses$(topicId), () => true)).length;

    await client.data.openTopic(topics[0]!.id);
    await client.data.saveTopicOffline(topics[0]!.id, true);
    for (const topic of topics) {
      await client.data.openTopic(topic.id);
      await until(client.data.topicResponses$(topic.id), (list) => list.length === 2);
    }
    // Kept: saved topic 0 and the last three opened (3, 4, 5); evicted: 1 and 2.
    expect(await until(client.data.savedTopics$(), (ids) => ids.length === 1)).toEqual([topics[0]!.id]);
    await until(client.data.topicResponses$(topics[1]!.id), (list) => list.length === 0);
    expect(await localCount(topics[2]!.id)).toBe(0);
    for (const i of [0, 3, 4, 5]) expect(await localCount(topics[i]!.id)).toBe(2);
    // Gone from storage, tombstones included (not only hidden from the lists).
    expect(await storedResponseTopics(client.indexedDB)).not.toContain(topics[1]!.id);
    expect(await storedResponseTopics(client.indexedDB)).toContain(topics[3]!.id);
    const streamUrl = client.requests.filter((r) => r.path.startsWith('/api/sync/stream')).at(-1)!.path;
    expect(decodeURIComponent(streamUrl).split('topics=')[1]!.split(',').sort()).toEqual([0, 3, 4, 5].map((i) => topics[i]!.id).sort());

    // Nothing changed on the server since topic 1 was evicted: only a dropped checkpoint brings its responses back.
    await client.data.openTopic(topics[1]!.id);
    await until(client.data.topicResponses$(topics[1]!.id), (list) => list.length === 2);
    await until(client.data.topicResponses$(topics[3]!.id), (list) => list.length === 0);

    // Eviction is local only: no push, and the server still has every response.
    expect(client.requests.some((r) => r.path.startsWith('/api/sync/responses/push'))).toBe(false);
    expect(await countRows(server.db, 'responses', 'deleted = 0')).toBe(12);
  });
});
