// /api/responses: create (roots, replies, quotes), the tree reads, mappings, search,
// inline edit and subtree delete, with the authorization matrix and counts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages.js';
import { hotScore } from '../../shared/rules/hot.js';
import type { Response, ResponseMapping, Topic } from '../../shared/types.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { countRows, makeResponse, makeTopic, uniqueId, upvote } from '../fixtures/builders.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

describe('responses', () => {
  let server: TestServer;
  let now = new Date('2026-03-01T00:00:00.000Z');
  let ada: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  const as = (user?: TestUser) => apiClient(server.url, user?.token);
  const tick = () => {
    now = new Date(now.getTime() + 1_000);
  };
  const topicOf = async (id: string) => (await as().get<Topic>(`/topics/${id}`)).body;
  const responseOf = async (id: string, user?: TestUser) => (await as(user).get<Response>(`/responses/${id}`)).body;

  beforeAll(async () => {
    server = await startTestServer({ clock: () => (tick(), now) });
    [ada, bob, carol] = await Promise.all([createTestUser('Ada'), createTestUser('Bob'), createTestUser('Carol')]);
  });
  afterAll(() => server.stop());

  describe('POST /api/responses', () => {
    it('creates a root response: 201 with every field of a response, content as typed', async () => {
      const topic = await makeTopic(as(ada));
      const res = await as(bob).post<Response>('/responses', { topic_id: topic.id, content: '  I agree.\n\nBecause.  ', type: 'for' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        content: '  I agree.\n\nBecause.  ',
        type: 'for',
        topic_id: topic.id,
        parent_response_id: null,
        quoted_response: null,
        quoted_response_id: null,
        sources: [],
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
        edited_at: null,
        versions: [],
        username: 'Bob',
        creator_uid: bob.uid,
        score: 0,
        user_has_upvoted: false,
        user_has_downvoted: false,
        comment_count: 0,
        moderation: null,
        moderation_reason: null,
      });
      expect(await responseOf(res.body.id)).toEqual(res.body);
      expect((await topicOf(topic.id)).responses_count).toBe(1);
    });

    it.each(['for', 'against', 'neutral'] as const)('accepts type %s', async (type) => {
      const topic = await makeTopic(as(ada));
      expect((await makeResponse(as(bob), { topic_id: topic.id, type })).type).toBe(type);
    });

    it('a reply by parent_response_id alone lands in the parent topic and counts everywhere', async () => {
      const topic = await makeTopic(as(ada));
      const root = await makeResponse(as(bob), { topic_id: topic.id });
      const reply = await makeResponse(as(carol), { parent_response_id: root.id, type: 'against' });
      expect(reply).toMatchObject({ topic_id: topic.id, parent_response_id: root.id, type: 'against' });
      const deep = await makeResponse(as(ada), { parent_response_id: reply.id, topic_id: topic.id, type: 'neutral' });
      expect(deep.parent_response_id).toBe(reply.id);
      expect((await responseOf(root.id)).comment_count).toBe(1);
      expect((await responseOf(reply.id)).comment_count).toBe(1);
      expect((await topicOf(topic.id)).responses_count).toBe(3);
    });

    it('accepts topic_id as an integer, as the product specification sends it', async () => {
      const topic = await makeTopic(as(ada), { id: String(Date.now()) });
      const res = await as(bob).post('/responses', { topic_id: Number(topic.id), content: 'numeric', type: 'for' });
      expect(res.status, res.text).toBe(201);
      expect(res.body.topic_id).toBe(topic.id);
    });

    it('quotes a response of the same topic: quoted_response carries id, content, username', async () => {
      const topic = await makeTopic(as(ada));
      const quoted = await makeResponse(as(bob), { topic_id: topic.id, content: 'Quote me' });
      const quoting = await makeResponse(as(carol), { topic_id: topic.id, quoted_response_id: quoted.id, type: 'against' });
      expect(quoting.quoted_response_id).toBe(quoted.id);
      expect(quoting.quoted_response).toEqual({ id: quoted.id, content: 'Quote me', username: 'Bob' });
    });

    it('a client-supplied id is accepted and a retried create is idempotent (same 201 body, one row)', async () => {
      const topic = await makeTopic(as(ada));
      const id = uniqueId('resp');
      const body = { id, topic_id: topic.id, content: 'Offline reply', type: 'neutral' };
      const first = await as(bob).post('/responses', body);
      const second = await as(bob).post('/responses', body);
      expect(first.status).toBe(201);
      expect(first.body.id).toBe(id);
      expect(second.status).toBe(201);
      expect(second.body).toEqual(first.body);
      expect(await countRows(server.db, 'responses', 'id = ?', id)).toBe(1);
      expect((await topicOf(topic.id)).responses_count).toBe(1);
      expect(await countRows(server.db, 'notifications', 'response_id = ?', id)).toBe(1);
    });

    it('an id taken by another user → 409, nothing changes', async () => {
      const topic = await makeTopic(as(ada));
      const id = uniqueId('resp');
      const original = await makeResponse(as(bob), { id, topic_id: topic.id, content: 'Mine' });
      const res = await as(carol).post('/responses', { id, topic_id: topic.id, content: 'Not yours', type: 'for' });
      expect(res.status).toBe(409);
      expect(res.body.error).toBe(MSG.idTaken);
      expect(await responseOf(id)).toEqual(original);
    });

    it('without a token → 401 with the SPEC text; an invalid token → 401', async () => {
      const topic = await makeTopic(as(ada));
      const anon = await as().post('/responses', { topic_id: topic.id, content: 'x', type: 'for' });
      expect(anon.status).toBe(401);
      expect(anon.body.error).toBe(MSG.loginToPostResponse);
      const bad = await as().post(
        '/responses',
        { topic_id: topic.id, content: 'x', type: 'for' },
        { headers: { authorization: 'Bearer garbage' } },
      );
      expect(bad.status).toBe(401);
      expect(bad.body.error).toBe(MSG.invalidToken);
      expect((await topicOf(topic.id)).responses_count).toBe(0);
    });

    describe('refusals leave nothing behind', () => {
      let topic: Topic;
      let otherTopic: Topic;
      let root: Response;
      let elsewhere: Response;
      beforeAll(async () => {
        topic = await makeTopic(as(ada));
        otherTopic = await makeTopic(as(ada));
        root = await makeResponse(as(bob), { topic_id: topic.id });
        elsewhere = await makeResponse(as(bob), { topic_id: otherTopic.id });
      });

      it.each([
        ['blank content', () => ({ topic_id: topic.id, content: '   \n ', type: 'for' }), 400, MSG.contentEmpty],
        ['empty content', () => ({ topic_id: topic.id, content: '', type: 'for' }), 400, MSG.contentEmpty],
        [
          'content over 10,000',
          () => ({ topic_id: topic.id, content: 'x'.repeat(10_001), type: 'for' }),
          400,
          'A response has at most 10000 characters.',
        ],
        ['unknown type', () => ({ topic_id: topic.id, content: 'x', type: 'maybe' }), 400, 'type must be one of: for, against, neutral.'],
        ['no topic or parent', () => ({ content: 'x', type: 'for' }), 400, 'A response needs a topic_id or a parent_response_id.'],
        ['unknown topic', () => ({ topic_id: 'no-such-topic', content: 'x', type: 'for' }), 404, MSG.topicNotFound],
        ['unknown parent', () => ({ parent_response_id: 'no-such-response', content: 'x', type: 'for' }), 404, MSG.responseNotFound],
        [
          'parent in another topic',
          () => ({ topic_id: topic.id, parent_response_id: elsewhere.id, content: 'x', type: 'for' }),
          400,
          MSG.parentOtherTopic,
        ],
        [
          'quote in another topic',
          () => ({ topic_id: topic.id, quoted_response_id: elsewhere.id, content: 'x', type: 'for' }),
          400,
          MSG.quoteOtherTopic,
        ],
        [
          'unknown quote',
          () => ({ topic_id: topic.id, quoted_response_id: 'no-such-response', content: 'x', type: 'for' }),
          400,
          MSG.quoteNotFound,
        ],
        [
          'quoting itself',
          () => ({ id: 'self-quote', topic_id: topic.id, quoted_response_id: 'self-quote', content: 'x', type: 'for' }),
          400,
          MSG.quoteSelf,
        ],
        ['unknown field', () => ({ topic_id: topic.id, content: 'x', type: 'for', pinned: true }), 400, 'Unknown field: pinned.'],
        [
          'eleven sources',
          () => ({
            topic_id: topic.id,
            content: 'x',
            type: 'for',
            sources: Array.from({ length: 11 }, (_, i) => ({ url: `https://e.example/${i}` })),
          }),
          400,
          'A response has at most 10 sources.',
        ],
      ])('%s → %d %j', async (_label, body, status, message) => {
        const before = {
          responses: await countRows(server.db, 'responses'),
          sources: await countRows(server.db, 'sources'),
          notifications: await countRows(server.db, 'notifications'),
        };
        const res = await as(carol).post('/responses', body());
        expect(res.status).toBe(status);
        expect(res.body.error).toBe(message);
        expect({
          responses: await countRows(server.db, 'responses'),
          sources: await countRows(server.db, 'sources'),
          notifications: await countRows(server.db, 'notifications'),
        }).toEqual(before);
        expect((await responseOf(root.id)).comment_count).toBe(0);
        expect((await topicOf(topic.id)).responses_count).toBe(1);
      });
    });
  });

  describe('GET /api/responses?topic_id= and ?parent_id=', () => {
    let topic: Topic;
    let first: Response;
    let second: Response;
    let reply1: Response;
    let reply2: Response;
    beforeAll(async () => {
      topic = await makeTopic(as(ada));
      first = await makeResponse(as(bob), { topic_id: topic.id, content: 'first root' });
      second = await makeResponse(as(carol), { topic_id: topic.id, content: 'second root' });
      reply1 = await makeResponse(as(ada), { parent_response_id: first.id, content: 'reply one' });
      reply2 = await makeResponse(as(bob), { parent_response_id: first.id, content: 'reply two' });
      await makeResponse(as(carol), { parent_response_id: reply1.id, content: 'grandchild' });
    });

    it('topic_id lists the root responses only, oldest first', async () => {
      const res = await as().get<Response[]>(`/responses?topic_id=${topic.id}`);
      expect(res.status).toBe(200);
      expect(res.body.map((r) => r.id)).toEqual([first.id, second.id]);
      expect(res.body[0]).toMatchObject({ comment_count: 2, username: 'Bob' });
    });

    it('parent_id lists the direct replies only, oldest first', async () => {
      const res = await as().get<Response[]>(`/responses?parent_id=${first.id}`);
      expect(res.status).toBe(200);
      expect(res.body.map((r) => r.id)).toEqual([reply1.id, reply2.id]);
    });

    it('[] when there is none, 404 only when the topic or response does not exist', async () => {
      const empty = await makeTopic(as(ada));
      expect(await as().get(`/responses?topic_id=${empty.id}`)).toMatchObject({ status: 200, body: [] });
      expect(await as().get(`/responses?parent_id=${second.id}`)).toMatchObject({ status: 200, body: [] });
      const noTopic = await as().get('/responses?topic_id=no-such-topic');
      expect(noTopic.status).toBe(404);
      expect(noTopic.body.error).toBe(MSG.topicNotFound);
      const noParent = await as().get('/responses?parent_id=no-such-response');
      expect(noParent.status).toBe(404);
      expect(noParent.body.error).toBe(MSG.responseNotFound);
    });

    it('neither topic_id nor parent_id → 400', async () => {
      const res = await as().get('/responses');
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual(expect.any(String));
    });

    it('user_has_upvoted reflects the caller', async () => {
      await upvote(as(carol), 'response', reply2.id);
      const forCarol = (await as(carol).get<Response[]>(`/responses?parent_id=${first.id}`)).body;
      expect(forCarol.map((r) => [r.id, r.user_has_upvoted, r.score])).toEqual([
        [reply1.id, false, 0],
        [reply2.id, true, 1],
      ]);
      const forAda = (await as(ada).get<Response[]>(`/responses?parent_id=${first.id}`)).body;
      expect(forAda.map((r) => r.user_has_upvoted)).toEqual([false, false]);
      const anonymous = (await as().get<Response[]>(`/responses?parent_id=${first.id}`)).body;
      expect(anonymous.map((r) => r.user_has_upvoted)).toEqual([false, false]);
      expect((await as(carol).get(`/responses/${reply2.id}`)).body.user_has_upvoted).toBe(true);
    });

    it('GET /api/responses/{id} of an unknown id → 404', async () => {
      const res = await as().get('/responses/nope');
      expect(res.status).toBe(404);
      expect(res.body.error).toBe(MSG.responseNotFound);
    });
  });

  describe('GET /api/responses/mappings?topic_id=', () => {
    it('returns every {id, parent_response_id} of the topic, without auth', async () => {
      const topic = await makeTopic(as(ada));
      const root = await makeResponse(as(bob), { topic_id: topic.id });
      const reply = await makeResponse(as(carol), { parent_response_id: root.id });
      const deep = await makeResponse(as(ada), { parent_response_id: reply.id });
      const other = await makeResponse(as(ada), { topic_id: topic.id });
      await makeResponse(as(ada), { topic_id: (await makeTopic(as(ada))).id }); // another topic
      const res = await as().get<ResponseMapping[]>(`/responses/mappings?topic_id=${topic.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(4);
      expect(res.body).toEqual(
        expect.arrayContaining([
          { id: root.id, parent_response_id: null },
          { id: reply.id, parent_response_id: root.id },
          { id: deep.id, parent_response_id: reply.id },
          { id: other.id, parent_response_id: null },
        ]),
      );
    });

    it('[] for a topic without responses, 404 for an unknown topic, 400 without topic_id', async () => {
      const topic = await makeTopic(as(ada));
      expect(await as().get(`/responses/mappings?topic_id=${topic.id}`)).toMatchObject({ status: 200, body: [] });
      expect((await as().get('/responses/mappings?topic_id=nope')).status).toBe(404);
      const missing = await as().get('/responses/mappings');
      expect(missing.status).toBe(400);
      expect(missing.body.error).toBe('topic_id is required.');
    });
  });

  describe('GET /api/responses/search?topic_id=&q=', () => {
    let topic: Topic;
    let nuclear: Response;
    let injection: Response;
    beforeAll(async () => {
      topic = await makeTopic(as(ada));
      nuclear = await makeResponse(as(bob), { topic_id: topic.id, content: 'Nuclear plants are expensive to build' });
      await makeResponse(as(bob), { topic_id: topic.id, content: 'Solar keeps getting cheaper' });
      injection = await makeResponse(as(carol), { topic_id: topic.id, content: "x'); DELETE FROM responses; -- OR 1=1" });
      const other = await makeTopic(as(ada));
      await makeResponse(as(bob), { topic_id: other.id, content: 'Nuclear in another topic' });
    });
    const search = async (q: string, topicId = topic.id) => {
      const res = await as().get<Response[]>(`/responses/search?topic_id=${topicId}&q=${encodeURIComponent(q)}`);
      expect(res.status, res.text).toBe(200);
      return res.body.map((r) => r.id);
    };

    it('finds response content in the topic only, by word prefix', async () => {
      expect(await search('nuclear')).toEqual([nuclear.id]);
      expect(await search('expens')).toEqual([nuclear.id]);
      expect(await search('NUCLEAR plants')).toEqual([nuclear.id]);
    });

    it('returns full responses', async () => {
      const res = await as().get<Response[]>(`/responses/search?topic_id=${topic.id}&q=nuclear`);
      expect(res.body[0]).toEqual(await responseOf(nuclear.id));
    });

    it.each([
      ['DELETE FROM', 'injection'],
      ["'); DELETE", 'injection'],
      ['OR 1=1', 'injection'],
      ['"', 'none'],
      ['NOT solar', 'none'],
      ['content:nuclear', 'none'],
      ['', 'none'],
      ['🎉', 'none'],
    ])('%j is searched as text', async (q, expected) => {
      expect(await search(q)).toEqual(expected === 'injection' ? [injection.id] : []);
      expect(await countRows(server.db, 'responses', 'topic_id = ?', topic.id)).toBe(3);
    });

    it('404 for an unknown topic, 400 without topic_id or q', async () => {
      expect((await as().get('/responses/search?topic_id=nope&q=nuclear')).status).toBe(404);
      const noTopic = await as().get('/responses/search?q=nuclear');
      expect(noTopic.status).toBe(400);
      expect(noTopic.body.error).toBe('topic_id is required.');
      const noQuery = await as().get(`/responses/search?topic_id=${topic.id}`);
      expect(noQuery.status).toBe(400);
      expect(noQuery.body.error).toBe('q is required.');
    });
  });

  describe('PUT /api/responses/{id}', () => {
    it('no token → 401, another user → 403, the owner → 200 with the updated response', async () => {
      const topic = await makeTopic(as(ada));
      const response = await makeResponse(as(bob), { topic_id: topic.id, content: 'Before' });
      const anon = await as().put(`/responses/${response.id}`, { content: 'Anon edit' });
      expect(anon.status).toBe(401);
      expect(anon.body.error).toBe(MSG.loginToEditResponse);
      const other = await as(carol).put(`/responses/${response.id}`, { content: 'Carol edit' });
      expect(other.status).toBe(403);
      expect(other.body.error).toBe(MSG.notYourResponse);
      expect((await responseOf(response.id)).content).toBe('Before');
      const owner = await as(bob).put<Response>(`/responses/${response.id}`, { content: ' After ', quoted_response_id: null, sources: [] });
      expect(owner.status).toBe(200);
      // The edit is marked with the server's time (tests/sync-server/response-edited.test.ts).
      expect(owner.body).toEqual({ ...response, content: ' After ', edited_at: expect.any(String) });
      expect(await responseOf(response.id)).toEqual(owner.body);
    });

    it('changes content, quote and sources; keeps type, place, author and time', async () => {
      const topic = await makeTopic(as(ada));
      const a = await makeResponse(as(ada), { topic_id: topic.id, content: 'A' });
      const b = await makeResponse(as(ada), { topic_id: topic.id, content: 'B' });
      const mine = await makeResponse(as(bob), {
        topic_id: topic.id,
        content: 'Mine',
        type: 'against',
        quoted_response_id: a.id,
        sources: [{ url: 'https://one.example/' }],
      });
      const edited = await as(bob).put<Response>(`/responses/${mine.id}`, {
        content: 'Mine, edited',
        quoted_response_id: b.id,
        sources: [{ url: 'https://two.example/', name: 'Two' }],
      });
      expect(edited.status).toBe(200);
      expect(edited.body).toMatchObject({
        id: mine.id,
        content: 'Mine, edited',
        type: 'against',
        topic_id: topic.id,
        parent_response_id: null,
        quoted_response_id: b.id,
        quoted_response: { id: b.id, content: 'B', username: 'Ada' },
        created_at: mine.created_at,
        creator_uid: bob.uid,
      });
      expect(edited.body.sources).toEqual([{ id: expect.any(String), url: 'https://two.example/', name: 'Two', description: null }]);
    });

    it('an omitted quote or sources field stays as it was; null and [] clear them', async () => {
      const topic = await makeTopic(as(ada));
      const a = await makeResponse(as(ada), { topic_id: topic.id });
      const mine = await makeResponse(as(bob), {
        topic_id: topic.id,
        quoted_response_id: a.id,
        sources: [{ url: 'https://keep.example/' }],
      });
      const kept = await as(bob).put<Response>(`/responses/${mine.id}`, { content: 'only the text' });
      expect(kept.status).toBe(200);
      expect(kept.body.quoted_response_id).toBe(a.id);
      expect(kept.body.sources.map((s) => s.url)).toEqual(['https://keep.example/']);
      const cleared = await as(bob).put<Response>(`/responses/${mine.id}`, { content: 'cleared', quoted_response_id: null, sources: [] });
      expect(cleared.body).toMatchObject({ quoted_response_id: null, quoted_response: null, sources: [] });
    });

    it('the response sent back whole: only content, quote and sources change', async () => {
      const topic = await makeTopic(as(ada));
      const mine = await makeResponse(as(bob), { topic_id: topic.id, type: 'for', content: 'Original' });
      const res = await as(bob).put<Response>(`/responses/${mine.id}`, {
        ...mine,
        content: 'Edited',
        type: 'against',
        score: 500,
        creator_uid: carol.uid,
        comment_count: 7,
        topic_id: 'elsewhere',
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ ...mine, content: 'Edited', edited_at: expect.any(String) });
    });

    it('server-owned fields on create are ignored', async () => {
      const topic = await makeTopic(as(ada));
      const res = await as(bob).post<Response>('/responses', {
        topic_id: topic.id,
        content: 'Honest',
        type: 'neutral',
        score: 42,
        comment_count: 3,
        creator_uid: carol.uid,
        username: 'Carol',
      });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ score: 0, comment_count: 0, creator_uid: bob.uid, username: 'Bob' });
    });

    it.each([
      ['blank content', { content: '  ' }, 400, MSG.contentEmpty],
      ['content over 10,000', { content: 'x'.repeat(10_001) }, 400, 'A response has at most 10000 characters.'],
      ['quote from another topic', 'other-topic-quote', 400, MSG.quoteOtherTopic],
      ['quote of itself', 'self-quote', 400, MSG.quoteSelf],
      ['unknown quote', { content: 'x', quoted_response_id: 'no-such' }, 400, MSG.quoteNotFound],
      ['unknown field', { content: 'x', colour: 'red' }, 400, 'Unknown field: colour.'],
      [
        'javascript: source',
        { content: 'x', sources: [{ url: 'javascript:alert(1)' }] },
        400,
        'A source URL must start with http:// or https://.',
      ],
    ])('%s → %d, response unchanged', async (_label, bodyOrCase, status, message) => {
      const topic = await makeTopic(as(ada));
      const mine = await makeResponse(as(bob), { topic_id: topic.id, content: 'Untouched', sources: [{ url: 'https://stay.example/' }] });
      let body: unknown = bodyOrCase;
      if (bodyOrCase === 'other-topic-quote') {
        const elsewhere = await makeResponse(as(bob), { topic_id: (await makeTopic(as(ada))).id });
        body = { content: 'x', quoted_response_id: elsewhere.id };
      } else if (bodyOrCase === 'self-quote') {
        body = { content: 'x', quoted_response_id: mine.id };
      }
      const res = await as(bob).put(`/responses/${mine.id}`, body);
      expect(res.status).toBe(status);
      expect(res.body.error).toBe(message);
      expect(await responseOf(mine.id)).toEqual(mine);
    });

    it('unknown id → 404', async () => {
      const res = await as(bob).put('/responses/no-such-response', { content: 'x' });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe(MSG.responseNotFound);
    });
  });

  describe('DELETE /api/responses/{id}', () => {
    it('no token → 401, another user → 403, the owner → 204', async () => {
      const topic = await makeTopic(as(ada));
      const response = await makeResponse(as(bob), { topic_id: topic.id });
      const anon = await as().del(`/responses/${response.id}`);
      expect(anon.status).toBe(401);
      expect(anon.body.error).toBe(MSG.loginToDeleteResponse);
      const other = await as(ada).del(`/responses/${response.id}`);
      expect(other.status).toBe(403);
      expect(other.body.error).toBe(MSG.notYourResponse);
      expect((await as().get(`/responses/${response.id}`)).status).toBe(200);
      const owner = await as(bob).del(`/responses/${response.id}`);
      expect(owner.status).toBe(204);
      expect(owner.text).toBe('');
      expect((await as().get(`/responses/${response.id}`)).status).toBe(404);
      expect((await as(bob).del(`/responses/${response.id}`)).status).toBe(404);
      expect((await topicOf(topic.id)).responses_count).toBe(0);
    });

    it('unknown id → 404; an invalid token → 401', async () => {
      expect((await as(bob).del('/responses/no-such-response')).status).toBe(404);
      const topic = await makeTopic(as(ada));
      const response = await makeResponse(as(bob), { topic_id: topic.id });
      const res = await as().del(`/responses/${response.id}`, undefined, { headers: { authorization: 'Bearer x.y.z' } });
      expect(res.status).toBe(401);
      expect((await as().get(`/responses/${response.id}`)).status).toBe(200);
    });

    it('removes the whole subtree, its votes and points, and fixes parent and topic counts', async () => {
      const dave = await createTestUser('Dave');
      const topic = await makeTopic(as(ada));
      const root = await makeResponse(as(ada), { topic_id: topic.id });
      const sibling = await makeResponse(as(carol), { parent_response_id: root.id });
      const doomed = await makeResponse(as(bob), { parent_response_id: root.id });
      const child = await makeResponse(as(carol), { parent_response_id: doomed.id });
      const grandchild = await makeResponse(as(dave), { parent_response_id: child.id });
      const quoter = await makeResponse(as(ada), { topic_id: topic.id, quoted_response_id: child.id });
      await upvote(as(ada), 'response', grandchild.id); // Dave +1
      await upvote(as(ada), 'response', child.id); // Carol +1
      await upvote(as(dave), 'response', sibling.id); // Carol +1, stays
      const points = async (user: TestUser) => (await as(user).get(`/users/${user.uid}/score`)).body.points as number;
      expect(await points(dave)).toBe(1);
      expect(await points(carol)).toBeGreaterThanOrEqual(2);
      const carolBefore = await points(carol);
      expect((await responseOf(root.id)).comment_count).toBe(2);
      expect((await topicOf(topic.id)).responses_count).toBe(6);

      expect((await as(bob).del(`/responses/${doomed.id}`)).status).toBe(204);

      for (const id of [doomed.id, child.id, grandchild.id]) expect((await as().get(`/responses/${id}`)).status).toBe(404);
      expect((await as().get(`/responses?parent_id=${doomed.id}`)).status).toBe(404);
      expect((await as().get<Response[]>(`/responses?parent_id=${root.id}`)).body.map((r) => r.id)).toEqual([sibling.id]);
      expect((await responseOf(root.id)).comment_count).toBe(1);
      expect((await topicOf(topic.id)).responses_count).toBe(3);
      // The stored hot score follows the new response count.
      const row = (await server.db.row('SELECT score, responses_count, created_at, hot FROM topics WHERE id = ?', topic.id)) as {
        score: number;
        responses_count: number;
        created_at: string;
        hot: number;
      };
      expect(row.responses_count).toBe(3);
      expect(row.hot).toBeCloseTo(hotScore(row.score, row.responses_count, row.created_at), 9);
      const mapped = (await as().get<ResponseMapping[]>(`/responses/mappings?topic_id=${topic.id}`)).body.map((m) => m.id);
      expect(mapped.sort()).toEqual([root.id, sibling.id, quoter.id].sort());
      expect(await countRows(server.db, 'votes', `target_id IN (?, ?) AND deleted = 0`, child.id, grandchild.id)).toBe(0);
      expect(await points(dave)).toBe(0);
      expect(await points(carol)).toBe(carolBefore - 1);
      // A quote of a deleted response is no longer shown.
      expect(await responseOf(quoter.id)).toMatchObject({ quoted_response: null, quoted_response_id: null });
      expect((await as(ada).post('/upvotes', { target_type: 'response', target_id: child.id })).status).toBe(404);
      expect((await as(ada).post('/responses', { parent_response_id: child.id, content: 'late', type: 'for' })).status).toBe(404);
    });
  });
});
