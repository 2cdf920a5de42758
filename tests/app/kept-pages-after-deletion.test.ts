// Which pulled topics and responses make a topic's kept page (the service worker's copy of the
// server's first screen) stale: the pull answers come from the real server after an account deletion
// (both choices), which sets no moderation state on the rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topicsWithStalePages } from '../../app/src/data/replication.js';
import type { AnySyncDoc } from '../../shared/sync-protocol.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { makeResponse, makeTopic } from '../fixtures/builders.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

describe('kept topic pages after an account deletion', () => {
  let server: TestServer;
  let bob: TestUser;
  beforeAll(async () => {
    server = await startTestServer();
    bob = await createTestUser('Bob Keeper');
  });
  afterAll(async () => {
    await server.stop();
  });

  /** What a device's next pull of the topic's responses and of the topics brings. */
  async function pulled(topicIds: string[]): Promise<{ responses: AnySyncDoc[]; topics: AnySyncDoc[] }> {
    const api = apiClient(server.url, bob.token);
    const topics = Object.fromEntries(topicIds.map((id) => [id, { id: '', seq: 0 }]));
    const responses = await api.post<{ documents: AnySyncDoc[] }>('/sync/responses/pull', { checkpoint: { topics }, limit: 1000 });
    expect(responses.status).toBe(200);
    const known = Object.fromEntries(topicIds.map((id) => [id, 0]));
    const topicRows = await api.post<{ documents: AnySyncDoc[] }>('/sync/topics/pull', { topics: known });
    expect(topicRows.status).toBe(200);
    return { responses: responses.body.documents, topics: topicRows.body.documents };
  }

  it('an ordinary response and topic leave the kept page alone', async () => {
    const topic = await makeTopic(apiClient(server.url, bob.token), { title: 'Bob keeps a page' });
    await makeResponse(apiClient(server.url, bob.token), { topic_id: topic.id, content: 'Bob **says** so' });
    const { responses } = await pulled([topic.id]);
    expect(responses.length).toBeGreaterThan(0);
    expect(topicsWithStalePages('responses', responses).has(topic.id)).toBe(false);
  });

  for (const content of ['delete', 'anonymise'] as const) {
    it(`"${content}": the pulled rows of the deleted account make their topics' pages stale`, async () => {
      const ann = await createTestUser(`Ann ${content}`);
      const bobTopic = await makeTopic(apiClient(server.url, bob.token), { title: `Bob asks (${content})` });
      const annTopic = await makeTopic(apiClient(server.url, ann.token), { title: `Ann asks (${content})` });
      await makeResponse(apiClient(server.url, ann.token), { topic_id: bobTopic.id, content: 'Ann answers' });
      const before = await pulled([bobTopic.id]);
      expect(topicsWithStalePages('responses', before.responses).has(bobTopic.id)).toBe(false);

      expect((await apiClient(server.url, ann.token).del('/me', { content })).status).toBe(204);

      const after = await pulled([bobTopic.id, annTopic.id]);
      expect(topicsWithStalePages('responses', after.responses).has(bobTopic.id)).toBe(true);
      const annTopicRow = after.topics.find((doc) => doc.id === annTopic.id);
      expect(annTopicRow).toBeDefined();
      expect(topicsWithStalePages('topics', [annTopicRow!]).has(annTopic.id)).toBe(true);
      // Bob's own topic row is not the deleted account's: its page goes only for Ann's response in it.
      const bobTopicRow = after.topics.find((doc) => doc.id === bobTopic.id);
      expect(topicsWithStalePages('topics', bobTopicRow ? [bobTopicRow] : []).has(bobTopic.id)).toBe(false);
    });
  }

  it('collections other than topics and responses never touch kept pages', () => {
    expect(topicsWithStalePages('votes', []).size).toBe(0);
  });
});
