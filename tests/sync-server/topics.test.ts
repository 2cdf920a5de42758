// /api/topics: create, read, list (hot/new/top, category, paging), search, delete with cascade.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES } from '../../shared/constants.js';
import { MSG } from '../../shared/messages.js';
import { hotScore } from '../../shared/rules/hot.js';
import type { Topic } from '../../shared/types.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { countRows, makeResponse, makeTopic, uniqueId, upvote } from '../fixtures/builders.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

describe('topics', () => {
  let server: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let nameless: TestUser;
  const as = (user?: TestUser) => apiClient(server.url, user?.token);

  beforeAll(async () => {
    server = await startTestServer();
    [ada, bob, nameless] = await Promise.all([createTestUser('Ada'), createTestUser('Bob'), createTestUser(null)]);
  });
  afterAll(() => server.stop());

  it('GET /api/health answers {"ok":true}', async () => {
    const res = await as().get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
  });

  it('GET /api/topics/categories lists the fixed categories in order', async () => {
    const res = await as().get('/topics/categories');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([...CATEGORIES]);
    expect(res.body).toEqual([
      'Politics',
      'Science',
      'Technology',
      'Philosophy',
      'Economics',
      'Society',
      'Health',
      'Environment',
      'Education',
      'Culture',
      'Other',
    ]);
  });

  describe('POST /api/topics', () => {
    it('creates a topic: 201 with every field of a topic, title trimmed, author from the token', async () => {
      const res = await as(ada).post<Topic>('/topics', { title: '  Should cities ban cars?  ', categories: ['Society'] });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        title: 'Should cities ban cars?',
        categories: ['Society'],
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
        username: 'Ada',
        creator_uid: ada.uid,
        score: 0,
        user_has_upvoted: false,
        user_has_downvoted: false,
        responses_count: 0,
        locked: false,
        moderation: null,
        moderation_reason: null,
      });
      const again = await as().get(`/topics/${res.body.id}`);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(res.body);
    });

    it('shows username null for an author without a display name', async () => {
      const topic = await makeTopic(as(nameless));
      expect(topic.username).toBeNull();
      expect(topic.creator_uid).toBe(nameless.uid);
    });

    it('accepts a client-supplied id', async () => {
      const id = uniqueId('client');
      const topic = await makeTopic(as(ada), { id });
      expect(topic.id).toBe(id);
      expect((await as().get(`/topics/${id}`)).body.id).toBe(id);
    });

    it('a retried create with the same id is idempotent: same 201 body, one row', async () => {
      const id = uniqueId('retry');
      const first = await as(ada).post('/topics', { id, title: 'Retried topic', categories: ['Health'] });
      const second = await as(ada).post('/topics', { id, title: 'Retried topic', categories: ['Health'] });
      expect(first.status).toBe(201);
      expect(second.status).toBe(201);
      expect(second.body).toEqual(first.body);
      expect(await countRows(server.db, 'topics', 'id = ?', id)).toBe(1);
    });

    it('an id taken by another user → 409 and the original is untouched', async () => {
      const id = uniqueId('taken');
      const original = await makeTopic(as(ada), { id, title: 'Original' });
      const res = await as(bob).post('/topics', { id, title: 'Hijack', categories: ['Other'] });
      expect(res.status).toBe(409);
      expect(res.body.error).toBe(MSG.idTaken);
      expect((await as().get(`/topics/${id}`)).body).toEqual(original);
    });

    it.each([
      ['blank title', { title: '   ', categories: ['Science'] }, MSG.titleEmpty],
      ['missing title', { categories: ['Science'] }, MSG.titleEmpty],
      ['no category', { title: 'A title', categories: [] }, MSG.categoryMissing],
      ['missing categories', { title: 'A title' }, MSG.categoryMissing],
      ['unknown category', { title: 'A title', categories: ['Sports'] }, `A category must be one of: ${CATEGORIES.join(', ')}.`],
      ['two categories', { title: 'A title', categories: ['Science', 'Health'] }, 'A topic has exactly one category.'],
      ['title over 300', { title: 'x'.repeat(301), categories: ['Science'] }, 'A topic title has at most 300 characters.'],
      ['unknown field', { title: 'A title', categories: ['Science'], pinned: true }, 'Unknown field: pinned.'],
    ])('%s → 400 %j and nothing stored', async (_label, body, message) => {
      const before = await countRows(server.db, 'topics');
      const res = await as(ada).post('/topics', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(message);
      expect(await countRows(server.db, 'topics')).toBe(before);
    });

    it('server-owned fields sent by a client are ignored, never applied', async () => {
      const res = await as(ada).post<Topic>('/topics', {
        title: 'Honest topic',
        categories: ['Economics'],
        score: 999,
        responses_count: 50,
        creator_uid: bob.uid,
        username: 'Someone else',
        created_at: '2000-01-01T00:00:00.000Z',
        user_has_upvoted: true,
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        score: 0,
        responses_count: 0,
        creator_uid: ada.uid,
        username: 'Ada',
        user_has_upvoted: false,
      });
      expect(res.body.created_at).not.toBe('2000-01-01T00:00:00.000Z');
    });

    it('a title of exactly 300 characters is accepted', async () => {
      const topic = await makeTopic(as(ada), { title: 't'.repeat(300) });
      expect(topic.title).toHaveLength(300);
    });

    it('without a token → 401 with the text asking to log in', async () => {
      const res = await as().post('/topics', { title: 'No auth', categories: ['Science'] });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe(MSG.loginToCreateTopic);
    });

    it.each([
      ['garbage', 'Bearer not-a-real-token'],
      ['forged JWT', `Bearer ${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"sub":"x"}').toString('base64url')}.`],
      ['not a bearer scheme', 'Basic dXNlcjpwYXNz'],
      ['empty bearer', 'Bearer '],
    ])('an invalid token (%s) → 401', async (_label, header) => {
      const before = await countRows(server.db, 'topics');
      const res = await as().post('/topics', { title: 'Bad token', categories: ['Science'] }, { headers: { authorization: header } });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe(MSG.invalidToken);
      expect(await countRows(server.db, 'topics')).toBe(before);
    });
  });

  describe('GET /api/topics/{id}', () => {
    it('unknown id → 404 with an error', async () => {
      const res = await as().get('/topics/no-such-topic');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: MSG.topicNotFound, code: 'not-found' });
    });

    it('user_has_upvoted reflects the caller, and is false without a token', async () => {
      const topic = await makeTopic(as(ada));
      await upvote(as(bob), 'topic', topic.id);
      expect((await as(bob).get(`/topics/${topic.id}`)).body).toMatchObject({
        score: 1,
        user_has_upvoted: true,
        user_has_downvoted: false,
      });
      expect((await as(ada).get(`/topics/${topic.id}`)).body).toMatchObject({ score: 1, user_has_upvoted: false });
      expect((await as().get(`/topics/${topic.id}`)).body).toMatchObject({ score: 1, user_has_upvoted: false });
    });
  });

  describe('DELETE /api/topics/{id}', () => {
    it('no token → 401, another user → 403, the owner → 204, then 404', async () => {
      const topic = await makeTopic(as(ada));
      const anon = await as().del(`/topics/${topic.id}`);
      expect(anon.status).toBe(401);
      expect(anon.body.error).toBe(MSG.loginToDeleteTopic);
      const other = await as(bob).del(`/topics/${topic.id}`);
      expect(other.status).toBe(403);
      expect(other.body.error).toBe(MSG.notYourTopic);
      expect((await as().get(`/topics/${topic.id}`)).status).toBe(200);
      const owner = await as(ada).del(`/topics/${topic.id}`);
      expect(owner.status).toBe(204);
      expect(owner.text).toBe('');
      expect((await as().get(`/topics/${topic.id}`)).status).toBe(404);
      expect((await as(ada).del(`/topics/${topic.id}`)).status).toBe(404);
    });

    it('unknown id → 404', async () => {
      const res = await as(ada).del('/topics/never-existed');
      expect(res.status).toBe(404);
      expect(res.body.error).toBe(MSG.topicNotFound);
    });

    it('an invalid token → 401', async () => {
      const topic = await makeTopic(as(ada));
      const res = await as().del(`/topics/${topic.id}`, undefined, { headers: { authorization: 'Bearer nope' } });
      expect(res.status).toBe(401);
      expect((await as().get(`/topics/${topic.id}`)).status).toBe(200);
    });

    it('cascades: responses, votes and notifications go, and points go back', async () => {
      const carol = await createTestUser('Carol');
      const topic = await makeTopic(as(ada), { title: 'Cascade me' });
      const root = await makeResponse(as(bob), { topic_id: topic.id }); // notifies Ada
      const reply = await makeResponse(as(ada), { parent_response_id: root.id }); // notifies Bob
      const deep = await makeResponse(as(carol), { parent_response_id: reply.id }); // notifies Ada
      await upvote(as(bob), 'topic', topic.id); // Ada +1
      await upvote(as(carol), 'response', root.id); // Bob +1
      await upvote(as(bob), 'response', deep.id); // Carol +1
      expect((await as(ada).get(`/users/${ada.uid}/score`)).body.points).toBeGreaterThanOrEqual(1);
      const pointsBefore = async (user: TestUser) => (await as(user).get(`/users/${user.uid}/score`)).body.points as number;
      const [adaBefore, bobBefore, carolBefore] = [await pointsBefore(ada), await pointsBefore(bob), await pointsBefore(carol)];
      const adaNotes = (await as(ada).get(`/notifications/user/${ada.uid}`)).body as { target_id: string }[];
      expect(adaNotes.filter((n) => n.target_id === topic.id)).toHaveLength(2);

      expect((await as(ada).del(`/topics/${topic.id}`)).status).toBe(204);

      expect((await as().get(`/responses?topic_id=${topic.id}`)).status).toBe(404);
      for (const id of [root.id, reply.id, deep.id]) expect((await as().get(`/responses/${id}`)).status).toBe(404);
      expect(await countRows(server.db, 'responses', 'topic_id = ? AND deleted = 0', topic.id)).toBe(0);
      expect(await countRows(server.db, 'votes', 'topic_id = ? AND deleted = 0', topic.id)).toBe(0);
      expect(await countRows(server.db, 'notifications', 'target_id = ? AND deleted = 0', topic.id)).toBe(0);
      const adaAfter = (await as(ada).get(`/notifications/user/${ada.uid}`)).body as { target_id: string }[];
      expect(adaAfter.filter((n) => n.target_id === topic.id)).toEqual([]);
      const bobAfter = (await as(bob).get(`/notifications/user/${bob.uid}`)).body as { target_id: string }[];
      expect(bobAfter.filter((n) => n.target_id === topic.id)).toEqual([]);
      expect(await pointsBefore(ada)).toBe(adaBefore - 1);
      expect(await pointsBefore(bob)).toBe(bobBefore - 1);
      expect(await pointsBefore(carol)).toBe(carolBefore - 1);
      const search = await as().get(`/topics?search=${encodeURIComponent('Cascade')}`);
      expect((search.body as Topic[]).map((t) => t.id)).not.toContain(topic.id);
      expect((await as(bob).post('/upvotes', { target_type: 'topic', target_id: topic.id })).status).toBe(404);
      expect((await as(bob).post('/responses', { topic_id: topic.id, content: 'late', type: 'for' })).status).toBe(404);
    });
  });
});

describe('topic lists: hot, new, top, category, paging', () => {
  let server: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let now = new Date('2026-01-01T00:00:00.000Z');
  const as = (user?: TestUser) => apiClient(server.url, user?.token);
  const at = (iso: string) => {
    now = new Date(iso);
  };
  const ids = (topics: Topic[]) => topics.map((t) => t.id);
  let middle: Topic, popularOld: Topic;

  beforeAll(async () => {
    server = await startTestServer({ clock: () => now });
    [ada, bob, carol] = await Promise.all([createTestUser('Ada'), createTestUser('Bob'), createTestUser('Carol')]);
    // hot = sign(s)·log10(max(|s|,1)) + created/45000 with s = score + responses_count.
    at('2026-01-01T00:00:00.000Z');
    await makeTopic(as(ada), { id: 'old', title: 'Old quiet topic', categories: ['Science'] });
    popularOld = await makeTopic(as(ada), { id: 'popular-old', title: 'Old popular topic', categories: ['Politics'] });
    at('2026-01-01T06:15:00.000Z'); // +22,500 s: half a hot unit later
    middle = await makeTopic(as(bob), { id: 'middle', title: 'Middle topic', categories: ['Science'] });
    at('2026-01-02T01:00:00.000Z'); // +90,000 s: two hot units later
    await makeTopic(as(carol), { id: 'fresh', title: 'Fresh topic', categories: ['Health'] });
    // Popular: 2 votes + 8 responses = 10 → +1 hot unit; middle: 1 vote (s = 1 → +0).
    at('2026-01-02T02:00:00.000Z');
    await upvote(as(bob), 'topic', popularOld.id);
    await upvote(as(carol), 'topic', popularOld.id);
    for (let i = 0; i < 8; i++) await makeResponse(as(bob), { topic_id: popularOld.id });
    await upvote(as(carol), 'topic', middle.id);
  });
  afterAll(() => server.stop());

  it('stores hot as docs/RULES.md computes it', async () => {
    const rows = await server.db.rows<{ id: string; created_at: string; score: number; responses_count: number; hot: number }>(
      'SELECT id, created_at, score, responses_count, hot FROM topics',
    );
    expect(rows).toHaveLength(4);
    for (const row of rows) expect(row.hot).toBeCloseTo(hotScore(row.score, row.responses_count, row.created_at), 9);
  });

  it('hot (the default): activity against age', async () => {
    // fresh: 0 + t0/45000 + 2; popular: 1 + t0/45000; middle: 0 + t0/45000 + 0.5; old: t0/45000.
    const byDefault = await as().get('/topics');
    const hot = await as().get('/topics?sort=hot');
    expect(ids(hot.body)).toEqual(['fresh', 'popular-old', 'middle', 'old']);
    expect(ids(byDefault.body)).toEqual(ids(hot.body));
  });

  it('new: newest first', async () => {
    const res = await as().get('/topics?sort=new');
    expect(ids(res.body).slice(0, 2)).toEqual(['fresh', 'middle']);
    expect(ids(res.body).slice(2).sort()).toEqual(['old', 'popular-old']);
  });

  it('top: score, then newest', async () => {
    const res = await as().get('/topics?sort=top');
    expect(ids(res.body)).toEqual(['popular-old', 'middle', 'fresh', 'old']);
    expect((res.body as Topic[]).map((t) => t.score)).toEqual([2, 1, 0, 0]);
  });

  it('counts responses and votes on list items', async () => {
    const res = await as().get('/topics?sort=top');
    expect(res.body[0]).toMatchObject({ id: 'popular-old', score: 2, responses_count: 8 });
  });

  it('category filters the list', async () => {
    const res = await as().get('/topics?category=Science&sort=new');
    expect(ids(res.body)).toEqual(['middle', 'old']);
    expect((await as().get('/topics?category=Culture')).body).toEqual([]);
  });

  it('user_has_upvoted on list items reflects the caller', async () => {
    const asCarol = (await as(carol).get('/topics?sort=top')).body as Topic[];
    expect(
      asCarol
        .filter((t) => t.user_has_upvoted)
        .map((t) => t.id)
        .sort(),
    ).toEqual(['middle', 'popular-old']);
    const asAda = (await as(ada).get('/topics?sort=top')).body as Topic[];
    expect(asAda.some((t) => t.user_has_upvoted)).toBe(false);
    const anonymous = (await as().get('/topics?sort=top')).body as Topic[];
    expect(anonymous.some((t) => t.user_has_upvoted)).toBe(false);
  });

  describe('paging', () => {
    let many: TestServer;
    let manyNow = new Date('2025-01-01T00:00:00.000Z');
    beforeAll(async () => {
      many = await startTestServer({ clock: () => manyNow });
      const api = apiClient(many.url, ada.token);
      for (let i = 0; i < 105; i++) {
        manyNow = new Date(Date.UTC(2025, 0, 1, 0, i));
        await makeTopic(api, {
          id: `t${String(i).padStart(3, '0')}`,
          title: `Paged topic ${i}`,
          categories: [i % 2 ? 'Science' : 'Other'],
        });
      }
    });
    afterAll(() => many.stop());
    const list = (query: string) => apiClient(many.url).get(`/topics${query}`);

    it('limit defaults to 20', async () => {
      const res = await list('?sort=new');
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(20);
      expect(res.body[0].id).toBe('t104');
    });

    it('limit 100 is the maximum', async () => {
      expect((await list('?limit=100')).body).toHaveLength(100);
    });

    it('offset pages through without overlap or gap', async () => {
      const seen: string[] = [];
      for (let offset = 0; offset < 105; offset += 20) {
        const res = await list(`?sort=new&limit=20&offset=${offset}`);
        seen.push(...ids(res.body));
      }
      expect(seen).toHaveLength(105);
      expect(new Set(seen).size).toBe(105);
      expect(seen[0]).toBe('t104');
      expect(seen[104]).toBe('t000');
      expect((await list('?offset=105')).body).toEqual([]);
    });

    it('pages within a category', async () => {
      const res = await list('?category=Science&sort=new&limit=5&offset=5');
      expect(ids(res.body)).toEqual(['t093', 't091', 't089', 't087', 't085']);
    });

    it.each([
      ['?limit=0', 'limit must be between 1 and 100.'],
      ['?limit=101', 'limit must be between 1 and 100.'],
      ['?limit=-1', 'limit must be a whole number.'],
      ['?limit=abc', 'limit must be a whole number.'],
      ['?limit=', 'limit must be a whole number.'],
      ['?offset=-1', 'offset must be a whole number.'],
      ['?offset=1.5', 'offset must be a whole number.'],
      ['?sort=best', 'sort must be one of: hot, new, top.'],
      ['?category=Sports', `category must be one of: ${CATEGORIES.join(', ')}.`],
    ])('%s → 400 %j', async (query, message) => {
      const res = await list(query);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(message);
    });
  });
});

describe('topic search (?search=)', () => {
  let server: TestServer;
  let ada: TestUser;
  let now = new Date('2026-02-01T00:00:00.000Z');
  const as = (user?: TestUser) => apiClient(server.url, user?.token);
  const search = async (text: string, extra = '') => {
    const res = await as().get(`/topics?search=${encodeURIComponent(text)}${extra}`);
    expect(res.status, res.text).toBe(200);
    return (res.body as Topic[]).map((t) => t.id);
  };

  beforeAll(async () => {
    server = await startTestServer({ clock: () => now });
    ada = await createTestUser('Ada');
    const titles: [string, string, string][] = [
      ['nuclear', 'Is nuclear power safe?', 'Science'],
      ['nuclear-weapons', 'Nuclear weapons and deterrence', 'Politics'],
      ['cafe', 'Le café est-il meilleur que le thé ?', 'Culture'],
      ['or-and', 'Cats OR dogs AND why', 'Other'],
      ['inject', "Robert'); DROP TABLE topics; --", 'Other'],
      ['emoji', 'Best emoji 🎉 of the year', 'Culture'],
    ];
    for (const [id, title, category] of titles) {
      now = new Date(now.getTime() + 60_000);
      await makeTopic(as(ada), { id, title, categories: [category] });
    }
  });
  afterAll(() => server.stop());

  it('matches title words, by prefix, case-insensitive', async () => {
    expect((await search('nuclear')).sort()).toEqual(['nuclear', 'nuclear-weapons']);
    expect((await search('NUCL')).sort()).toEqual(['nuclear', 'nuclear-weapons']);
    expect(await search('nuclear safe')).toEqual(['nuclear']);
    expect(await search('weap')).toEqual(['nuclear-weapons']);
  });

  it('ignores accents', async () => {
    expect(await search('cafe')).toEqual(['cafe']);
    expect(await search('café')).toEqual(['cafe']);
  });

  it('sorts search results with sort', async () => {
    expect(await search('nuclear', '&sort=new')).toEqual(['nuclear-weapons', 'nuclear']);
  });

  it('filters search results by category', async () => {
    expect(await search('nuclear', '&category=Politics')).toEqual(['nuclear-weapons']);
  });

  it.each([
    ['OR', ['or-and']],
    ['AND', ['or-and', 'nuclear-weapons']],
    ['cats OR', ['or-and']],
    ['"', []],
    ['" OR "', ['or-and']],
    ['NEAR(cats dogs)', []],
    ['cats NEAR dogs', []],
    ['(cats) {dogs}', ['or-and']],
    ['title:nuclear', []],
    ['*', []],
    ['nuclear*', ['nuclear', 'nuclear-weapons']],
    ["'); DROP TABLE topics; --", ['inject']],
    ['1=1', []],
    ['🎉', []],
    ['', []],
    ['no-such-words-here', []],
  ])('%j is searched as text → %j', async (text, expected) => {
    expect((await search(text)).sort()).toEqual([...expected].sort());
  });

  it('the table survives injection-looking searches', async () => {
    await search("'); DROP TABLE topics; --");
    expect((await as().get('/topics?limit=100')).body).toHaveLength(6);
  });

  it('search longer than a title → 400', async () => {
    const res = await as().get(`/topics?search=${'x'.repeat(301)}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('search is too long.');
  });

  it('pages search results', async () => {
    expect(await search('nuclear', '&sort=new&limit=1&offset=1')).toEqual(['nuclear']);
  });
});
