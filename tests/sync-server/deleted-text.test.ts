// Once an author deletes a topic or response, nothing they wrote is
// served any more: sync pull answers a slim tombstone (id, seq, _deleted and the keys
// that place it), a push's answer too, and the SQLite file keeps no title or content.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationTombstone, PullResponse, PushResponse, ResponseTombstone, TopicTombstone } from '../../shared/sync-protocol.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { makeResponse, makeTopic } from '../fixtures/builders.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

const SECRET_TITLE = 'Topic title the author took back';
const SECRET_CONTENT = 'Response text the author took back';
const SECRET_REPLY = 'Reply text under the deleted response';

describe('deleted topics and responses keep no text', () => {
  let server: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    server = await startTestServer();
    [ada, bob] = await Promise.all([createTestUser('Ada Deleter'), createTestUser('Bob Bystander')]);
  });
  afterAll(() => server.stop());

  it('response pull serves a deleted response (and its deleted replies) as a slim tombstone', async () => {
    const api = apiClient(server.url, ada.token);
    const topic = await makeTopic(api, { title: 'A topic that stays' });
    const response = await makeResponse(api, {
      topic_id: topic.id,
      content: SECRET_CONTENT,
      sources: [{ url: 'https://secret.example/', name: 'Secret source', description: 'Secret description' }],
    });
    const reply = await makeResponse(api, { parent_response_id: response.id, content: SECRET_REPLY });
    expect((await api.del(`/responses/${response.id}`)).status).toBe(204);

    const anon = apiClient(server.url);
    const page = await anon.get<PullResponse>(`/sync/responses/pull?topic_id=${topic.id}&id=&seq=0&limit=1000`);
    expect(page.status).toBe(200);
    const byId = new Map(page.body.documents.map((doc) => [doc.id, doc]));
    const tombstone = byId.get(response.id) as ResponseTombstone;
    expect(tombstone).toEqual({ id: response.id, topic_id: topic.id, parent_response_id: null, seq: expect.any(Number), _deleted: true });
    expect(byId.get(reply.id)).toEqual({
      id: reply.id,
      topic_id: topic.id,
      parent_response_id: response.id,
      seq: expect.any(Number),
      _deleted: true,
    });
    for (const secret of [SECRET_CONTENT, SECRET_REPLY, 'Secret source', 'Secret description', 'Ada Deleter', ada.uid]) {
      expect(page.text).not.toContain(secret);
    }
    // The several-topics pull is the same.
    const multi = await anon.post<PullResponse>('/sync/responses/pull', {
      checkpoint: { topics: { [topic.id]: { id: '', seq: 0 } } },
      limit: 100,
    });
    expect(multi.status).toBe(200);
    expect(multi.text).not.toContain(SECRET_CONTENT);
    expect(multi.body.documents.find((doc) => doc.id === response.id)).toEqual(tombstone);

    // Gone from the file too, citations included.
    const stored = await server.db.rows('SELECT content, deleted FROM responses WHERE id IN (?, ?)', response.id, reply.id);
    expect(stored).toEqual([
      { content: '', deleted: 1 },
      { content: '', deleted: 1 },
    ]);
    expect(await server.db.row('SELECT count(*) AS n FROM response_sources WHERE response_id = ?', response.id)).toEqual({ n: 0 });
    // Nor in the search index (FTS5 on SQLite, tsvector rows on PostgreSQL).
    const indexed =
      server.db.engine === 'sqlite'
        ? "SELECT count(*) AS n FROM responses_fts WHERE responses_fts MATCH 'took'"
        : "SELECT count(*) AS n FROM responses_fts WHERE words @@ 'took:*'::tsquery";
    expect(await server.db.row(indexed)).toEqual({ n: 0 });
  });

  it('topic pull serves a deleted topic as a slim tombstone, and its responses too', async () => {
    const api = apiClient(server.url, ada.token);
    const topic = await makeTopic(api, { title: SECRET_TITLE });
    const response = await makeResponse(apiClient(server.url, bob.token), { topic_id: topic.id, content: SECRET_CONTENT });
    expect((await api.del(`/topics/${topic.id}`)).status).toBe(204);

    const anon = apiClient(server.url);
    const topics = await anon.get<PullResponse>('/sync/topics/pull?id=&seq=0&limit=1000');
    expect(topics.status).toBe(200);
    expect(topics.body.documents.filter((doc) => doc.id === topic.id)).toEqual([
      { id: topic.id, seq: expect.any(Number), _deleted: true } satisfies Omit<TopicTombstone, 'seq'> & { seq: unknown },
    ]);
    expect(topics.text).not.toContain(SECRET_TITLE);
    const responses = await anon.get<PullResponse>(`/sync/responses/pull?topic_id=${topic.id}&id=&seq=0&limit=1000`);
    expect(responses.body.documents).toEqual([
      { id: response.id, topic_id: topic.id, parent_response_id: null, seq: expect.any(Number), _deleted: true },
    ]);
    expect(responses.text).not.toContain(SECRET_CONTENT);
    expect(await server.db.row('SELECT title FROM topics WHERE id = ?', topic.id)).toEqual({ title: '' });
    expect(await server.db.row('SELECT content FROM responses WHERE id = ?', response.id)).toEqual({ content: '' });
  });

  it('notification pull serves a notification deleted with its topic as a slim tombstone (no summary, no actor)', async () => {
    const api = apiClient(server.url, ada.token);
    const topic = await makeTopic(api, { title: SECRET_TITLE });
    await makeResponse(apiClient(server.url, bob.token), { topic_id: topic.id, content: 'A reply Bob wrote to be summarised' });
    const before = await api.get<PullResponse>('/sync/notifications/pull?id=&seq=0&limit=1000');
    const notification = before.body.documents.find((doc) => 'target_id' in doc && doc.target_id === topic.id);
    expect(notification).toBeDefined();
    expect(before.text).toContain('Bob Bystander');

    expect((await api.del(`/topics/${topic.id}`)).status).toBe(204);
    const after = await api.get<PullResponse>(`/sync/notifications/pull?id=${notification!.id}&seq=${notification!.seq}&limit=1000`);
    expect(after.status).toBe(200);
    const tombstone = after.body.documents.find((doc) => doc.id === notification!.id) as NotificationTombstone;
    expect(tombstone).toEqual({ id: notification!.id, seq: expect.any(Number), _deleted: true });
    for (const secret of ['A reply Bob wrote', 'Bob Bystander', SECRET_TITLE]) expect(after.text).not.toContain(secret);
  });

  it("a push's answer about a deleted item is the tombstone; a retried delete is no conflict", async () => {
    const api = apiClient(server.url, ada.token);
    const topic = await makeTopic(api, { title: SECRET_TITLE });
    const full = (await apiClient(server.url).get<PullResponse>('/sync/topics/pull?id=&seq=0&limit=1000')).body.documents.find(
      (doc) => doc.id === topic.id,
    )!;
    expect((await api.del(`/topics/${topic.id}`)).status).toBe(204);

    // Someone else edits their stale copy: the answer is the tombstone, without the title.
    const stale = await apiClient(server.url, bob.token).post<PushResponse>('/sync/topics/push', [
      { assumedMasterState: full, newDocumentState: { ...full, title: 'Changed' } },
    ]);
    expect(stale.status).toBe(200);
    expect(stale.text).not.toContain(SECRET_TITLE);
    const answered = [...stale.body.conflicts, ...stale.body.rejected.map((row) => row.master)];
    expect(answered).toContainEqual({ id: topic.id, seq: expect.any(Number), _deleted: true });

    // The author's own delete, retried (its first answer was lost): nothing to apply, the tombstone back.
    const retry = await api.post<PushResponse>('/sync/topics/push', [
      { assumedMasterState: full, newDocumentState: { ...full, _deleted: true } },
    ]);
    expect(retry.status).toBe(200);
    expect(retry.body.rejected).toEqual([]);
    expect(retry.body.conflicts).toEqual([{ id: topic.id, seq: expect.any(Number), _deleted: true }]);
  });
});
