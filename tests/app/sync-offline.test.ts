// Two clients against one server: offline writes go out once, in order, and the
// other client hears about them through the live stream.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Change } from '../../sync-server/src/domain/change-feed.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { countRows, makeResponse, makeTopic } from '../fixtures/builders.js';
import { startClient, until, type TestClient } from '../fixtures/client.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

describe('offline writes with two clients', () => {
  let server: TestServer;
  let ada: TestUser;
  let a: TestClient;
  let b: TestClient;
  beforeAll(async () => {
    server = await startTestServer();
    ada = await createTestUser('Ada');
    a = await startClient(server.url, { user: ada });
    b = await startClient(server.url); // anonymous: public data only
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await server.stop();
  });

  it('A works offline; on reconnect the server and B see each change exactly once, B through the stream', async () => {
    const api = apiClient(server.url, ada.token);
    const t0 = await makeTopic(api, { title: 'Existing debate' });
    const r0 = await makeResponse(api, { topic_id: t0.id, content: 'to be edited' });
    const d0 = await makeResponse(api, { topic_id: t0.id, content: 'to be deleted' });
    await a.data.openTopic(t0.id);
    await b.data.openTopic(t0.id);
    await until(a.data.topicResponses$(t0.id), (list) => list.length === 2);
    await until(b.data.topicResponses$(t0.id), (list) => list.length === 2);
    // The topic's own document too: its count is pulled apart from its responses, and may lag them.
    await until(a.data.topic$(t0.id), (t) => t?.responses_count === 2);
    const bStreams = () => b.requests.filter((r) => r.path.startsWith('/api/sync/stream')).length;
    const bStreamsBefore = bStreams();

    a.goOffline();
    await until(a.data.status$, (s) => !s.online);
    const requestsWhileOffline = a.requests.length;
    const topic = await a.data.createTopic({ title: 'Written on a train', category: 'Society' });
    const reply = await a.data.createResponse({ topicId: topic.id, type: 'for', content: 'First argument' });
    const nested = await a.data.createResponse({
      topicId: topic.id,
      parentResponseId: reply.id,
      type: 'against',
      content: 'A reply to it',
    });
    await a.data.editResponse(r0.id, { content: 'edited offline' });
    expect(await a.data.toggleVote('topic', t0.id)).toBe(true);
    await a.data.deleteResponse(d0.id);

    // The local truth at once: optimistic counts, hidden delete, edited text.
    const localT0 = await until(a.data.topic$(t0.id), (t) => !!t && t.score === 1);
    expect(localT0).toMatchObject({ user_has_upvoted: true, responses_count: 1 });
    const localTopic = await until(a.data.topic$(topic.id), (t) => !!t);
    expect(localTopic).toMatchObject({ responses_count: 2, isPending: true, username: 'Ada' });
    const t0Responses = await until(a.data.topicResponses$(t0.id), (list) => list.length === 1);
    expect(t0Responses[0]).toMatchObject({ id: r0.id, content: 'edited offline', isPending: true });
    const roots = await until(a.data.rootResponses$(topic.id), (list) => list.length === 1);
    expect(roots[0]!.comment_count).toBe(1);
    expect((await until(a.data.status$, (s) => s.pending === 6)).online).toBe(false);
    // Nothing touched the network while offline.
    expect(a.requests.length).toBe(requestsWhileOffline);

    const published: Change[][] = [];
    const unsubscribe = server.ctx.changes.subscribe((changes) => published.push(changes));
    a.goOnline();
    await until(a.data.status$, (s) => s.online && s.pending === 0, 15_000);

    const reader = apiClient(server.url, ada.token);
    expect((await reader.get(`/topics/${topic.id}`)).body).toMatchObject({ title: 'Written on a train', responses_count: 2 });
    expect((await reader.get(`/responses/${nested.id}`)).body).toMatchObject({ parent_response_id: reply.id, content: 'A reply to it' });
    expect((await reader.get(`/responses/${r0.id}`)).body.content).toBe('edited offline');
    expect((await reader.get(`/topics/${t0.id}`)).body).toMatchObject({ score: 1, user_has_upvoted: true, responses_count: 1 });
    expect((await reader.get(`/responses/${d0.id}`)).status).toBe(404);
    // Exactly once: one committed domain operation per change (create topic, two replies, edit, vote, delete).
    expect(published).toHaveLength(6);
    expect(await countRows(server.db, 'responses', 'topic_id = ?', topic.id)).toBe(2);
    unsubscribe();

    // B, following t0, sees the edit, the vote and the delete without reconnecting or polling.
    await until(b.data.topicResponses$(t0.id), (list) => list.length === 1 && list[0]!.content === 'edited offline');
    await until(b.data.topic$(t0.id), (t) => !!t && t.score === 1 && t.responses_count === 1);
    await until(b.data.topics$({ sort: 'new' }), (list) => list.some((t) => t.id === topic.id && t.responses_count === 2));
    expect(bStreams()).toBe(bStreamsBefore);
    await b.data.openTopic(topic.id);
    const bTree = await until(b.data.topicResponses$(topic.id), (list) => list.length === 2);
    expect(bTree.map((r) => r.content).sort()).toEqual(['A reply to it', 'First argument']);
  });

  it('a vote toggled on and off offline sends nothing', async () => {
    const t = await makeTopic(apiClient(server.url, ada.token), { title: 'Undecided' });
    await until(a.data.topic$(t.id), (x) => !!x);
    a.goOffline();
    await a.data.toggleVote('topic', t.id);
    await a.data.toggleVote('topic', t.id);
    expect((await until(a.data.topic$(t.id), (x) => !!x))!.score).toBe(0);
    const before = a.requests.length;
    a.goOnline();
    await until(a.data.status$, (s) => s.online && s.pending === 0);
    // Let the stream's RESYNC run a full cycle, then check that no vote push was ever made.
    await until(b.data.topic$(t.id), (x) => !!x);
    const after = a.requests.slice(before);
    expect(after.some((r) => r.path.startsWith('/api/sync/votes/push'))).toBe(false);
    expect(await countRows(server.db, 'votes', 'target_id = ?', t.id)).toBe(0);
  });

  it('a reply offline to a topic the device does not have yet says so, and nothing is queued', async () => {
    // E.g. a page opened by address shows the server's first screen before the device has pulled the topic.
    const api = apiClient(server.url, ada.token);
    a.goOffline();
    const t = await makeTopic(api, { title: 'Published while A was offline' });
    const pendingBefore = (await until(a.data.status$, () => true)).pending;
    await expect(a.data.createResponse({ topicId: t.id, type: 'for', content: 'Too early' })).rejects.toThrow(
      'This topic is not on this device yet: it loads while you are online. Your text is kept; post it again then.',
    );
    expect((await until(a.data.status$, () => true)).pending).toBe(pendingBefore);
    a.goOnline();
    await until(a.data.topic$(t.id), (topic) => Boolean(topic));
    await expect(a.data.createResponse({ topicId: t.id, type: 'for', content: 'Now it is here' })).resolves.toMatchObject({
      topic_id: t.id,
    });
  });
});
