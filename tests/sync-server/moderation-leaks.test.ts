// A removed item's text, sources and quote reach nobody but its author and moderators,
// through every read the server has, on either engine (the server-pg lane runs this file on
// PostgreSQL): REST (topic, lists, title search, roots, replies, response search, the response
// that quoted it, the user page, common ground), sync pull, the first visit's page and the live
// stream; and a restore brings it back everywhere. Removal keeps the item's place, counts and replies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removedByModerator } from '../../shared/messages.js';
import type { NotificationDoc, PullResponse, ResponseDoc, TopicDoc } from '../../shared/sync-protocol.js';
import type { ModeratedOriginal, Notification, Response, Topic } from '../../shared/types.js';
import { firstPageFor, withFirstPage } from '../../sync-server/src/routes/first-page.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, setTestUserRole, type TestUser } from '../fixtures/auth.js';
import { makeResponse, makeTopic, upvote } from '../fixtures/builders.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

const TOPIC_SECRET = 'zebracrossing';
const RESPONSE_SECRET = 'quokkasmile';
const SOURCE_SECRET = 'https://quokka-evidence.example/report';
const REASON = 'Personal attack';

describe('a removed item leaks nowhere', () => {
  let server: TestServer;
  let author: TestUser;
  let member: TestUser;
  let mod: TestUser;
  let topic: Topic;
  let removedTopic: Topic;
  let quoted: Response;
  let removed: Response;
  let quoting: Response;
  let reply: Response;
  const as = (user?: TestUser) => apiClient(server.url, user?.token);
  const act = (body: Record<string, unknown>) => as(mod).post('/moderation/actions', { reason: REASON, ...body });

  /** Every public read the server has of the topics and responses involved, as raw text. */
  async function everyRead(): Promise<Record<string, string>> {
    const pages = await Promise.all([
      firstPageFor(server.ctx, `/topics/${topic.id}`),
      firstPageFor(server.ctx, `/topics/${removedTopic.id}`),
      firstPageFor(server.ctx, '/'),
    ]);
    const reads: Record<string, string> = {
      topic: (await as(member).get(`/topics/${removedTopic.id}`)).text,
      list: (await as(member).get('/topics?sort=new&limit=100')).text,
      titleSearch: (await as(member).get(`/topics?search=${TOPIC_SECRET}`)).text,
      roots: (await as(member).get(`/responses?topic_id=${topic.id}`)).text,
      replies: (await as(member).get(`/responses?parent_id=${quoted.id}`)).text,
      response: (await as(member).get(`/responses/${removed.id}`)).text,
      quoting: (await as(member).get(`/responses/${quoting.id}`)).text,
      search: (await as(member).get(`/responses/search?topic_id=${topic.id}&q=${RESPONSE_SECRET}`)).text,
      userPage: (await as(member).get(`/users/${author.uid}`)).text,
      commonGround: (await as(member).get(`/topics/${topic.id}/common-ground`)).text,
      pullTopics: (await as(member).get('/sync/topics/pull?id=&seq=0&limit=1000')).text,
      pullResponses: (await as(member).get(`/sync/responses/pull?topic_id=${topic.id}&id=&seq=0&limit=1000`)).text,
      citations: (await as(member).get(`/sources/${removed.sources[0]!.id}/responses`)).text,
      firstPage: pages.map((data) => (data ? withFirstPage('<html><head></head><body></body></html>', data) : '')).join(''),
    };
    for (const [name, text] of Object.entries(reads)) expect(text.length, name).toBeGreaterThan(0);
    return reads;
  }

  beforeAll(async () => {
    server = await startTestServer();
    [author, member, mod] = await Promise.all([createTestUser('Author'), createTestUser('Member'), createTestUser('Mod')]);
    await setTestUserRole(mod, 'moderator');
    topic = await makeTopic(as(author), { title: 'Should parks allow dogs?' });
    removedTopic = await makeTopic(as(author), { title: `The ${TOPIC_SECRET} question` });
    quoted = await makeResponse(as(member), { topic_id: topic.id, content: 'An earlier point' });
    removed = await makeResponse(as(author), {
      topic_id: topic.id,
      parent_response_id: quoted.id,
      quoted_response_id: quoted.id,
      content: `A ${RESPONSE_SECRET} insult`,
      sources: [{ url: SOURCE_SECRET, name: 'Quokka evidence' }],
    });
    quoting = await makeResponse(as(member), { topic_id: topic.id, quoted_response_id: removed.id, content: 'Quoting it' });
    reply = await makeResponse(as(member), { topic_id: topic.id, parent_response_id: removed.id, content: 'A reply to it' });
    await upvote(as(member), 'response', removed.id);
  });
  afterAll(() => server.stop());

  it('before removal the texts are served (the checks below can fail)', async () => {
    const reads = await everyRead();
    for (const name of ['topic', 'list', 'titleSearch', 'pullTopics', 'firstPage']) expect(reads[name], name).toContain(TOPIC_SECRET);
    for (const name of ['replies', 'response', 'quoting', 'search', 'userPage', 'pullResponses', 'firstPage']) {
      expect(reads[name], name).toContain(RESPONSE_SECRET);
    }
    expect(reads.citations).toContain(removed.id);
  });

  it('removed: no read serves the text, sources or quote; the live stream says only that something changed', async () => {
    // An anonymous live stream following the topic, read raw.
    const abort = new AbortController();
    const stream = await fetch(`${server.url}/api/sync/stream?topics=${topic.id}`, { signal: abort.signal });
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    let streamed = '';
    const heard = (async () => {
      while (!streamed.includes(`"topic_id":"${topic.id}"`)) {
        const { value, done } = await reader.read();
        if (done) break;
        streamed += value;
      }
    })();
    expect((await act({ action: 'remove', target_type: 'response', target_id: removed.id })).status).toBe(200);
    await heard;
    abort.abort();
    expect(streamed).toContain('"type":"RESYNC"');
    expect(streamed).not.toContain(RESPONSE_SECRET);
    expect((await act({ action: 'remove', target_type: 'topic', target_id: removedTopic.id })).status).toBe(200);

    const reads = await everyRead();
    for (const [name, text] of Object.entries(reads)) {
      expect(text, name).not.toContain(RESPONSE_SECRET);
      expect(text, name).not.toContain(TOPIC_SECRET);
      // The catalogue keeps the URL (as for a deleted response), no longer cited by the removed response.
      if (name !== 'citations') expect(text, name).not.toContain('quokka-evidence');
    }
    expect(reads.citations).not.toContain(removed.id);
    const row = (await as(member).get<Response>(`/responses/${removed.id}`)).body;
    expect(row).toMatchObject({
      content: removedByModerator(REASON),
      moderation: 'removed',
      moderation_reason: REASON,
      sources: [],
      quoted_response: null,
      // It keeps its place, its score and its replies.
      parent_response_id: quoted.id,
      score: 1,
      comment_count: 1,
    });
    expect((await as(member).get<Response>(`/responses/${quoting.id}`)).body.quoted_response?.content).toBe(removedByModerator(REASON));
    expect((await as(member).get<Response[]>(`/responses?parent_id=${removed.id}`)).body.map((r) => r.id)).toEqual([reply.id]);
    expect((await as(member).get<Topic>(`/topics/${removedTopic.id}`)).body.title).toBe(removedByModerator(REASON));
    const pulled = (await as(member).get<PullResponse<TopicDoc>>('/sync/topics/pull?id=&seq=0&limit=1000')).body.documents;
    expect(pulled.find((doc) => doc.id === removedTopic.id)).toMatchObject({ title: removedByModerator(REASON), moderation: 'removed' });
    // Even its author reads the replacement in the thread.
    expect((await as(author).get(`/responses/${removed.id}`)).text).not.toContain(RESPONSE_SECRET);
  });

  it('the author and moderators read the original; anyone else is refused', async () => {
    for (const user of [author, mod]) {
      const res = await as(user).get<ModeratedOriginal>(`/moderation/original/response/${removed.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        target_type: 'response',
        target_id: removed.id,
        text: `A ${RESPONSE_SECRET} insult`,
        quoted_response_id: quoted.id,
        moderation: 'removed',
        moderation_reason: REASON,
      });
      expect(res.body.sources.map((source) => source.url)).toEqual([SOURCE_SECRET]);
    }
    const other = await as(member).get(`/moderation/original/response/${removed.id}`);
    expect(other.status).toBe(403);
    expect(other.text).not.toContain(RESPONSE_SECRET);
    expect((await as(author).get<ModeratedOriginal>(`/moderation/original/topic/${removedTopic.id}`)).body.text).toContain(TOPIC_SECRET);
    // An item not moderated: its current text, moderation null.
    expect((await as(member).get<ModeratedOriginal>(`/moderation/original/response/${quoting.id}`)).body).toMatchObject({
      text: 'Quoting it',
      moderation: null,
    });
    // The moderators' queue is not where the author looks: a member gets 403 there.
    expect((await as(member).get('/moderation/reports')).status).toBe(403);
  });

  it('the author is notified without the moderator being named', async () => {
    const list = (await as(author).get<Notification[]>(`/notifications/user/${author.uid}`)).body;
    const notice = list.find((n) => n.type === 'moderation_removed' && n.target_id === topic.id)!;
    expect(notice).toMatchObject({ actor_display_name: 'A moderator', target_summary: REASON });
    const pulled = (await as(author).get<PullResponse<NotificationDoc>>('/sync/notifications/pull?id=&seq=0&limit=100')).body.documents;
    const doc = pulled.find((n) => n.response_id === removed.id && n.type === 'moderation_removed')!;
    expect(doc.actor_display_name).toBe('A moderator');
    expect(JSON.stringify(pulled)).not.toContain('Mod"');
    expect(JSON.stringify(pulled)).not.toContain(mod.uid);
  });

  it('a restore brings the text, sources and quote back everywhere', async () => {
    expect((await act({ action: 'restore', target_type: 'response', target_id: removed.id })).status).toBe(200);
    expect((await act({ action: 'restore', target_type: 'topic', target_id: removedTopic.id })).status).toBe(200);
    const reads = await everyRead();
    for (const name of ['topic', 'list', 'titleSearch', 'pullTopics', 'firstPage']) expect(reads[name], name).toContain(TOPIC_SECRET);
    for (const name of ['replies', 'response', 'quoting', 'search', 'userPage', 'pullResponses', 'firstPage']) {
      expect(reads[name], name).toContain(RESPONSE_SECRET);
    }
    expect(reads.citations).toContain(removed.id);
    const row = (await as(member).get<Response>(`/responses/${removed.id}`)).body;
    expect(row).toMatchObject({ content: `A ${RESPONSE_SECRET} insult`, moderation: null, moderation_reason: null, score: 1 });
    expect(row.quoted_response?.id).toBe(quoted.id);
    expect(row.sources).toEqual([expect.objectContaining({ url: SOURCE_SECRET, name: 'Quokka evidence' })]);
    const pulled = (await as(member).get<PullResponse<ResponseDoc>>(`/sync/responses/pull?topic_id=${topic.id}&id=&seq=0&limit=1000`)).body;
    expect(pulled.documents.find((doc) => doc.id === removed.id)).toMatchObject({
      moderation: null,
      content: `A ${RESPONSE_SECRET} insult`,
    });
    const list = (await as(author).get<Notification[]>(`/notifications/user/${author.uid}`)).body;
    expect(list.find((n) => n.type === 'moderation_restored')).toMatchObject({ actor_display_name: 'A moderator' });
    // Restored, the author may edit it again.
    expect((await as(author).put(`/responses/${removed.id}`, { content: 'Kinder words' })).status).toBe(200);
  });
});
