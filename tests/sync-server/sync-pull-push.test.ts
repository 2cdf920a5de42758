// /api/sync pull and push against the real server, SQLite file and emulator tokens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PullResponse, PushResponse, ResponseDoc, TopicDoc, VoteDoc } from '../../shared/sync-protocol.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { countRows, makeResponse, makeTopic, uniqueId } from '../fixtures/builders.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';
import { SEQ_MESSAGE } from '../../sync-server/src/sync/routes.js';

const topicDoc = (overrides: Partial<TopicDoc>): TopicDoc => ({
  id: uniqueId('t'),
  title: 'A pushed topic',
  category: 'Science',
  creator_uid: 'ignored',
  username: 'ignored',
  created_at: '2000-01-01T00:00:00.000Z',
  score: 999,
  responses_count: 999,
  stance_agree: 999,
  stance_disagree: 999,
  stance_unsure: 999,
  minds_changed: 999,
  locked: false,
  moderation: null,
  moderation_reason: null,
  opinion_groups: null,
  seq: 0,
  _deleted: false,
  ...overrides,
});

describe('sync pull and push', () => {
  let server: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    server = await startTestServer();
    [ada, bob] = await Promise.all([createTestUser('Ada'), createTestUser('Bob')]);
  });
  afterAll(() => server.stop());

  it('refuses a seq past the safe whole numbers with the same 400 on GET and POST pull', async () => {
    const anon = apiClient(server.url);
    const topic = await makeTopic(apiClient(server.url, ada.token));
    for (const seq of ['100000000000000000000000', '9007199254740992', '1e23', '-1', '1.5']) {
      const res = await anon.get<{ error: string }>(`/sync/topics/pull?id=&seq=${seq}&limit=10`);
      expect(res.status, `seq=${seq}: ${res.text}`).toBe(400);
      expect(res.body.error).toBe(SEQ_MESSAGE);
    }
    for (const seq of [1e23, 2 ** 53, -1, 1.5]) {
      const res = await anon.post<{ error: string }>('/sync/responses/pull', {
        checkpoint: { topics: { [topic.id]: { id: '', seq } } },
        limit: 10,
      });
      expect(res.status, `seq=${seq}: ${res.text}`).toBe(400);
      expect(res.body.error).toBe(SEQ_MESSAGE);
    }
    const fine = await anon.get<PullResponse<TopicDoc>>(`/sync/topics/pull?id=&seq=${Number.MAX_SAFE_INTEGER}&limit=10`);
    expect(fine.status).toBe(200);
    expect(fine.body.documents).toEqual([]);
  });

  it('pulls topics in (seq, id) order from a checkpoint, page by page, tombstones included', async () => {
    const api = apiClient(server.url, ada.token);
    const made: Awaited<ReturnType<typeof makeTopic>>[] = [];
    for (let i = 0; i < 5; i++) made.push(await makeTopic(api));
    await api.del(`/topics/${made[1]!.id}`);
    const anon = apiClient(server.url);
    const seen: TopicDoc[] = [];
    let checkpoint = { id: '', seq: 0 };
    for (;;) {
      const page = await anon.get<PullResponse<TopicDoc>>(`/sync/topics/pull?id=${checkpoint.id}&seq=${checkpoint.seq}&limit=2`);
      expect(page.status).toBe(200);
      seen.push(...page.body.documents);
      checkpoint = page.body.checkpoint;
      if (page.body.documents.length < 2) break;
    }
    const seqs = seen.map((doc) => doc.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    const deleted = seen.filter((doc) => doc.id === made[1]!.id);
    expect(deleted.at(-1)?._deleted).toBe(true);
    for (const topic of made) expect(seen.some((doc) => doc.id === topic.id)).toBe(true);
  });

  it('keeps private collections to their owner: pull needs the bearer', async () => {
    const anon = apiClient(server.url);
    expect((await anon.get('/sync/votes/pull')).status).toBe(401);
    expect((await anon.post('/sync/topics/push', [])).status).toBe(401);
    const topic = await makeTopic(apiClient(server.url, bob.token));
    await apiClient(server.url, bob.token).post('/upvotes', { target_type: 'topic', target_id: topic.id });
    const adaVotes = await apiClient(server.url, ada.token).get<PullResponse<VoteDoc>>('/sync/votes/pull');
    expect(adaVotes.body.documents.some((doc) => doc.target_id === topic.id)).toBe(false);
    const bobVotes = await apiClient(server.url, bob.token).get<PullResponse<VoteDoc>>('/sync/votes/pull');
    expect(bobVotes.body.documents.find((doc) => doc.target_id === topic.id)).toMatchObject({ upvoted: true });
  });

  it('creates through the domain with server-derived fields, and a retried row lands once', async () => {
    const api = apiClient(server.url, ada.token);
    const doc = topicDoc({ title: '  Pushed offline  ' });
    const first = await api.post<PushResponse<TopicDoc>>('/sync/topics/push', [{ newDocumentState: doc }]);
    expect(first.status).toBe(200);
    expect(first.body.rejected).toEqual([]);
    const master = first.body.conflicts[0]!;
    expect(master).toMatchObject({
      id: doc.id,
      title: 'Pushed offline',
      creator_uid: ada.uid,
      username: 'Ada',
      score: 0,
      responses_count: 0,
    });
    expect(master.seq).toBeGreaterThan(0);
    expect(master.created_at).not.toBe(doc.created_at);
    // RxDB retries every error: the same row again must not create anything new.
    const again = await api.post<PushResponse<TopicDoc>>('/sync/topics/push', [{ newDocumentState: doc }]);
    expect(again.body.rejected).toEqual([]);
    expect(again.body.conflicts[0]).toEqual(master);
    expect(await countRows(server.db, 'topics', 'id = ?', doc.id)).toBe(1);
  });

  it('orders replies after their parents within one push', async () => {
    const api = apiClient(server.url, ada.token);
    const topic = await makeTopic(api);
    const base = {
      topic_id: topic.id,
      quoted_response_id: null,
      type: 'for' as const,
      sources: [],
      creator_uid: '',
      username: null,
      created_at: '',
      updated_at: '',
      edited_at: null,
      versions: [],
      score: 0,
      comment_count: 0,
      delta_count: 0,
      upvotes_agree: 0,
      upvotes_disagree: 0,
      downvotes_agree: 0,
      downvotes_disagree: 0,
      moderation: null,
      moderation_reason: null,
      seq: 0,
      _deleted: false,
    };
    const parent: ResponseDoc = { ...base, id: uniqueId('p'), parent_response_id: null, content: 'parent' };
    const child: ResponseDoc = { ...base, id: uniqueId('c'), parent_response_id: parent.id, content: 'child' };
    const res = await api.post<PushResponse<ResponseDoc>>('/sync/responses/push', [
      { newDocumentState: child },
      { newDocumentState: parent },
    ]);
    expect(res.body.rejected).toEqual([]);
    expect(res.body.conflicts.map((doc) => doc.id)).toEqual([parent.id, child.id]);
    expect((await api.get(`/responses/${parent.id}`)).body.comment_count).toBe(1);
  });

  it('answers the server state when the assumed state is outdated, and applies nothing', async () => {
    const api = apiClient(server.url, ada.token);
    const topic = await makeTopic(api);
    const response = await makeResponse(api, { topic_id: topic.id, content: 'v1' });
    const pulled = await api.get<PullResponse<ResponseDoc>>(`/sync/responses/pull?topic_id=${topic.id}`);
    const assumed = pulled.body.documents.find((doc) => doc.id === response.id)!;
    await api.put(`/responses/${response.id}`, { content: 'v2 from another device' });
    const res = await api.post<PushResponse<ResponseDoc>>('/sync/responses/push', [
      { assumedMasterState: assumed, newDocumentState: { ...assumed, content: 'v1 edited offline' } },
    ]);
    expect(res.body.conflicts).toHaveLength(1);
    expect(res.body.conflicts[0]!.content).toBe('v2 from another device');
    expect((await api.get(`/responses/${response.id}`)).body.content).toBe('v2 from another device');
  });

  it('rejects like the REST call: not yours (403), invalid (400), gone (404), each with its message', async () => {
    const adaApi = apiClient(server.url, ada.token);
    const bobApi = apiClient(server.url, bob.token);
    const topic = await makeTopic(adaApi);
    const adaTopicDoc = (await bobApi.get<PullResponse<TopicDoc>>('/sync/topics/pull?limit=1000')).body.documents.find(
      (d) => d.id === topic.id,
    )!;
    const res = await bobApi.post<PushResponse<TopicDoc>>('/sync/topics/push', [
      { assumedMasterState: adaTopicDoc, newDocumentState: { ...adaTopicDoc, _deleted: true } },
      { newDocumentState: topicDoc({ title: '   ' }) },
    ]);
    expect(res.body.rejected).toEqual([
      expect.objectContaining({
        id: topic.id,
        status: 403,
        error: 'Only the creator can delete this topic.',
        master: expect.objectContaining({ _deleted: false }),
      }),
      expect.objectContaining({ status: 400, error: 'Topic title cannot be empty.', master: null }),
    ]);
    const vote: VoteDoc = {
      id: 'topic_missing-topic',
      target_type: 'topic',
      target_id: 'missing-topic',
      topic_id: 'missing-topic',
      upvoted: true,
      updated_at: '',
      seq: 0,
      _deleted: false,
    };
    const gone = await bobApi.post<PushResponse<VoteDoc>>('/sync/votes/push', [{ newDocumentState: vote }]);
    expect(gone.body.rejected[0]).toMatchObject({ status: 404, error: 'The item you voted on does not exist.' });
    expect(await countRows(server.db, 'topics', 'id = ? AND deleted = 0', topic.id)).toBe(1);
  });

  it('toggles votes through setVote and marks notifications read through the domain', async () => {
    const adaApi = apiClient(server.url, ada.token);
    const bobApi = apiClient(server.url, bob.token);
    const topic = await makeTopic(adaApi);
    const vote: VoteDoc = {
      id: `topic_${topic.id}`,
      target_type: 'topic',
      target_id: topic.id,
      topic_id: topic.id,
      upvoted: true,
      updated_at: '',
      seq: 0,
      _deleted: false,
    };
    const up = await bobApi.post<PushResponse<VoteDoc>>('/sync/votes/push', [{ newDocumentState: vote }]);
    expect(up.body.conflicts[0]).toMatchObject({ upvoted: true });
    expect((await adaApi.get(`/topics/${topic.id}`)).body.score).toBe(1);
    await bobApi.post<PushResponse<VoteDoc>>('/sync/votes/push', [
      { assumedMasterState: up.body.conflicts[0], newDocumentState: { ...vote, upvoted: false } },
    ]);
    expect((await adaApi.get(`/topics/${topic.id}`)).body.score).toBe(0);

    await makeResponse(bobApi, { topic_id: topic.id });
    const notes = await adaApi.get<PullResponse<{ id: string; is_read: boolean; target_id: string }>>(
      '/sync/notifications/pull?limit=1000',
    );
    const note = notes.body.documents.find((doc) => doc.target_id === topic.id)!;
    expect(note.is_read).toBe(false);
    const stolen = await bobApi.post<PushResponse>('/sync/notifications/push', [{ newDocumentState: { ...note, is_read: true } }]);
    expect(stolen.body.rejected[0]).toMatchObject({ status: 403 });
    const read = await adaApi.post<PushResponse>('/sync/notifications/push', [
      { assumedMasterState: note, newDocumentState: { ...note, is_read: true } },
    ]);
    expect(read.body.conflicts[0]).toMatchObject({ id: note.id, is_read: true });
  });

  it('answers 400 for malformed rows, never 500', async () => {
    const api = apiClient(server.url, ada.token);
    expect((await api.post('/sync/responses/push', [{ newDocumentState: { id: 'x' } }])).status).toBe(400);
    expect((await api.post('/sync/topics/push', { not: 'a list' })).status).toBe(400);
    expect((await api.get('/sync/nothing/pull')).status).toBe(404);
    expect((await api.get('/sync/responses/pull')).status).toBe(400);
  });
});
