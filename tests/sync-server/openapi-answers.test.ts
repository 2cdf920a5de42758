// Real answers against the OpenAPI document the server serves (sync-server/src/openapi/): a flow over a
// real server with emulator tokens calls every route (reads, writes, sync, and refusals), and each JSON
// answer must validate against the document's schema for its route and status (JSON Schema 2020-12,
// ajv). At the end every described route must have been answered with a success at least once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUnsubscribeToken } from '../../sync-server/src/mail/token.js';
import type { OpenApiDocument } from '../../sync-server/src/openapi/document.js';
import { apiClient, type ApiResult } from '../fixtures/api.js';
import { createTestUser, setTestUserRole, type TestUser } from '../fixtures/auth.js';
import { startMailTestServer, type MailTestServer } from '../fixtures/mail.js';
import { answerChecker, type AnswerChecker } from '../fixtures/openapi.js';
import { startPushReceiver } from '../fixtures/push-receiver.js';

type Method = 'get' | 'post' | 'put' | 'delete';

/** The real app with a mail signing key (so the one-click unsubscribe answers too). */
const KEY = Buffer.from('openapi-test-key-0123456789abcdef0123456789', 'utf8');

describe('real answers fit the OpenAPI document', () => {
  let server: MailTestServer;
  let ada: TestUser;
  let bob: TestUser;
  let doc: OpenApiDocument;
  let checker: AnswerChecker;
  /** `METHOD /path` of every route answered with a success, and how many answers were validated. */
  const succeeded = new Set<string>();
  let validated = 0;

  beforeAll(async () => {
    server = await startMailTestServer({ signingKey: KEY });
    [ada, bob] = await Promise.all([createTestUser('Ada'), createTestUser('Bob')]);
    const res = await fetch(`${server.url}/api/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toMatch(/public/);
    doc = (await res.json()) as OpenApiDocument;
    checker = answerChecker(doc);
  });
  afterAll(() => server.stop());

  /**
   * Calls `route` (the document's path, e.g. `/api/topics/{id}`) at `address` (below /api) and checks
   * the answer: its status is one the document gives the route, and a JSON body fits that status's schema.
   */
  async function call(
    who: TestUser | null,
    method: Method,
    route: string,
    address: string,
    body?: unknown,
    init?: RequestInit,
  ): Promise<ApiResult> {
    const api = apiClient(server.url, who?.token);
    const res =
      method === 'get'
        ? await api.get(address, init)
        : await { post: api.post, put: api.put, delete: api.del }[method](address, body, init);
    const op = doc.paths[route]?.[method];
    expect(op, `${method} ${route} is described`).toBeDefined();
    expect(Object.keys(op!.responses), `${method} ${address} answered ${res.status}: ${res.text.slice(0, 300)}`).toContain(
      String(res.status),
    );
    const schema = checker.schemaOf(method, route, res.status);
    if (schema) {
      expect(checker.isMeaningful(schema), `${method} ${route} ${res.status} has a schema that says something`).toBe(true);
      expect(checker.errors(method, route, res.status, res.body), `${method} ${address} ${res.status}: ${res.text.slice(0, 500)}`).toEqual(
        [],
      );
      validated++;
    } else {
      expect(res.text, `${method} ${address} ${res.status} has no body`).toBe('');
    }
    if (res.status < 400) succeeded.add(`${method.toUpperCase()} ${route}`);
    return res;
  }

  it('answers the service routes as described', async () => {
    expect((await call(null, 'get', '/api/health', '/health')).body).toEqual({ ok: true });
    expect((await call(null, 'get', '/api/ready', '/ready')).body).toEqual({ ready: true, state: 'serving' });
    await call(null, 'get', '/api/config', '/config');
    const self = await call(null, 'get', '/api/openapi.json', '/openapi.json');
    expect(self.body).toEqual(doc);
    await call(null, 'get', '/api/topics/categories', '/topics/categories');
  });

  it('answers a debate, from topic to votes, stances, sources and notifications, as described', async () => {
    // Topics
    const topic = (await call(ada, 'post', '/api/topics', '/topics', { title: 'Is tea better than coffee?', categories: ['Culture'] }))
      .body as { id: string };
    expect((await call(null, 'post', '/api/topics', '/topics', { title: 'x', categories: ['Culture'] })).status).toBe(401);
    expect((await call(ada, 'post', '/api/topics', '/topics', { title: '', categories: ['Culture'] })).status).toBe(400);
    expect((await call(ada, 'post', '/api/topics', '/topics', { title: 'x', categories: ['Culture'], extra: 1 })).status).toBe(400);
    const huge = JSON.stringify({ title: 'x'.repeat(1_100_000), categories: ['Culture'] });
    expect((await call(ada, 'post', '/api/topics', '/topics', huge)).status).toBe(413);
    await call(null, 'get', '/api/topics', '/topics?sort=new&limit=5');
    await call(bob, 'get', '/api/topics', '/topics?search=tea');
    expect((await call(null, 'get', '/api/topics', '/topics?limit=0')).status).toBe(400);
    await call(bob, 'get', '/api/topics/{id}', `/topics/${topic.id}`);
    expect((await call(null, 'get', '/api/topics/{id}', '/topics/no-such-topic')).status).toBe(404);
    expect((await apiClient(server.url, 'not-a-token').get('/topics')).status).toBe(401);

    // Responses: a root with a source, a reply (a notification for Ada), a quote
    const root = (
      await call(ada, 'post', '/api/responses', '/responses', {
        topic_id: topic.id,
        type: 'for',
        content: 'Tea has less caffeine.',
        sources: [{ url: 'https://example.com/tea', name: 'Tea facts', description: 'About tea' }],
      })
    ).body as { id: string; sources: { id: string }[] };
    const reply = (
      await call(bob, 'post', '/api/responses', '/responses', {
        parent_response_id: root.id,
        type: 'against',
        content: 'Coffee has more flavour.',
        quoted_response_id: root.id,
      })
    ).body as { id: string; quoted_response: unknown };
    expect(reply.quoted_response).not.toBeNull();
    await call(bob, 'post', '/api/responses', '/responses', { topic_id: topic.id, type: 'neutral', content: 'Both are fine.' });
    expect((await call(bob, 'post', '/api/responses', '/responses', { topic_id: topic.id, type: 'maybe', content: 'x' })).status).toBe(400);
    const page = await call(null, 'get', '/api/responses', `/responses?topic_id=${topic.id}&limit=1`);
    expect(page.headers.get('x-next-cursor')).toBeTruthy();
    await call(null, 'get', '/api/responses', `/responses?parent_id=${root.id}`);
    expect((await call(null, 'get', '/api/responses', '/responses')).status).toBe(400);
    expect((await call(null, 'get', '/api/responses', '/responses?topic_id=no-such-topic')).status).toBe(404);
    await call(null, 'get', '/api/responses/mappings', `/responses/mappings?topic_id=${topic.id}`);
    await call(null, 'get', '/api/responses/search', `/responses/search?topic_id=${topic.id}&q=caffeine`);
    await call(ada, 'get', '/api/responses/{id}', `/responses/${reply.id}`);
    await call(ada, 'put', '/api/responses/{id}', `/responses/${root.id}`, { content: 'Tea has less caffeine, usually.' });
    expect((await call(bob, 'put', '/api/responses/{id}', `/responses/${root.id}`, { content: 'Mine now.' })).status).toBe(403);

    // Votes
    const vote = { target_type: 'response', target_id: root.id };
    expect((await call(bob, 'post', '/api/upvotes', '/upvotes', vote)).status).toBe(201);
    expect((await call(bob, 'post', '/api/upvotes', '/upvotes', vote)).status).toBe(200);
    await call(ada, 'post', '/api/upvotes', '/upvotes', { target_type: 'topic', target_id: (await newTopic(bob)).id });
    expect((await call(bob, 'post', '/api/upvotes', '/upvotes', { target_type: 'topic', target_id: 'no-such-topic' })).status).toBe(404);
    // Disagree and pass (Ada on the same response): cast, repeated, changed, taken back; a topic takes neither
    expect((await call(ada, 'post', '/api/downvotes', '/downvotes', vote)).status).toBe(201);
    expect((await call(ada, 'post', '/api/downvotes', '/downvotes', vote)).status).toBe(200);
    expect((await call(ada, 'post', '/api/passes', '/passes', vote)).status).toBe(201);
    expect((await call(ada, 'delete', '/api/passes', '/passes', vote)).status).toBe(204);
    expect((await call(ada, 'delete', '/api/downvotes', '/downvotes', vote)).status).toBe(204);
    expect((await call(ada, 'post', '/api/downvotes', '/downvotes', { target_type: 'topic', target_id: topic.id })).status).toBe(400);
    expect((await call(ada, 'post', '/api/passes', '/passes', { target_type: 'response', target_id: 'no-such-response' })).status).toBe(
      404,
    );

    // Stances: Bob agrees, then changes his mind crediting Ada's response
    expect((await call(bob, 'get', '/api/topics/{id}/stance', `/topics/${topic.id}/stance`)).status).toBe(404);
    await call(bob, 'put', '/api/topics/{id}/stance', `/topics/${topic.id}/stance`, { stance: 'disagree' });
    const changed = await call(bob, 'put', '/api/topics/{id}/stance', `/topics/${topic.id}/stance`, {
      stance: 'agree',
      credits: [root.id],
    });
    expect(changed.body).toMatchObject({ stance: 'agree', credits: [root.id] });
    expect((await call(bob, 'put', '/api/topics/{id}/stance', `/topics/${topic.id}/stance`, { stance: 'sideways' })).status).toBe(400);
    await call(bob, 'get', '/api/topics/{id}/stance', `/topics/${topic.id}/stance`);
    expect((await call(null, 'get', '/api/topics/{id}/stance', `/topics/${topic.id}/stance`)).status).toBe(401);
    await call(null, 'get', '/api/topics/{id}/stances', `/topics/${topic.id}/stances`);
    const ground = await call(null, 'get', '/api/topics/{id}/common-ground', `/topics/${topic.id}/common-ground?limit=5`);
    expect(ground.body).not.toEqual([]);

    // Embedding: oEmbed (JSON) and the share card's picture (a PNG, checked by its type).
    const topicAddress = encodeURIComponent(`${server.url}/topics/${topic.id}`);
    expect((await call(null, 'get', '/api/oembed', `/oembed?url=${topicAddress}&format=json`)).body).toMatchObject({ type: 'rich' });
    expect((await call(null, 'get', '/api/oembed', `/oembed?url=${topicAddress}&format=xml`)).status).toBe(501);
    expect((await call(null, 'get', '/api/oembed', '/oembed?url=nowhere')).status).toBe(400);
    const image = await fetch(`${server.url}/api/topics/${topic.id}/card.png`);
    expect(image.status).toBe(200);
    expect(Object.keys(doc.paths['/api/topics/{id}/card.png']!.get!.responses['200']!.content!)).toEqual(['image/png']);
    expect(image.headers.get('content-type')).toBe('image/png');
    await image.arrayBuffer();
    succeeded.add('GET /api/topics/{id}/card.png');
    expect((await call(null, 'get', '/api/topics/{id}/card.png', '/topics/no-such-topic/card.png')).status).toBe(404);

    // Sources
    const sources = await call(null, 'get', '/api/sources', '/sources?limit=10');
    expect(sources.headers.get('x-total-count')).toBeTruthy();
    const cited = await call(null, 'get', '/api/sources', '/sources?include=citations');
    expect(cited.body).not.toEqual([]);
    await call(null, 'get', '/api/sources', '/sources?q=tea');
    expect((await call(null, 'get', '/api/sources', '/sources?include=everything')).status).toBe(400);
    await call(null, 'get', '/api/sources/{id}/responses', `/sources/${root.sources[0]!.id}/responses`);
    expect((await call(null, 'get', '/api/sources/{id}/responses', '/sources/no-such-source/responses')).status).toBe(404);

    // Users
    await call(null, 'get', '/api/users/leaderboard', '/users/leaderboard');
    const board = await call(null, 'get', '/api/users/leaderboard', '/users/leaderboard?include=persuasion');
    expect(board.body).not.toEqual([]);
    await call(bob, 'get', '/api/users/{uid}/score', `/users/${ada.uid}/score?include=persuasion`);
    expect((await call(bob, 'get', '/api/users/{uid}/score', '/users/nobody/score')).status).toBe(404);
    expect((await call(null, 'get', '/api/users/{uid}/score', `/users/${ada.uid}/score`)).status).toBe(401);
    await call(null, 'get', '/api/users/{uid}', `/users/${ada.uid}`);
    expect((await call(null, 'get', '/api/users/{uid}', '/users/nobody')).status).toBe(404);
    await call(ada, 'get', '/api/users/preferences', '/users/preferences');
    await call(ada, 'post', '/api/users/preferences', '/users/preferences', { receive_weekly_summary: false });
    expect((await call(ada, 'post', '/api/users/preferences', '/users/preferences', { receive_weekly_summary: 'no' })).status).toBe(400);

    // Blocks: Ada blocks Bob, lists, unblocks; the refusals
    const blocked = await call(ada, 'put', '/api/blocks/{uid}', `/blocks/${bob.uid}`);
    expect(blocked.status).toBe(200);
    expect((await call(ada, 'get', '/api/blocks', '/blocks')).body).toEqual([blocked.body]);
    expect((await call(ada, 'put', '/api/blocks/{uid}', `/blocks/${ada.uid}`)).status).toBe(400);
    expect((await call(ada, 'put', '/api/blocks/{uid}', '/blocks/nobody')).status).toBe(404);
    expect((await call(null, 'get', '/api/blocks', '/blocks')).status).toBe(401);
    expect((await call(ada, 'delete', '/api/blocks/{uid}', `/blocks/${bob.uid}`)).status).toBe(204);
    expect((await call(ada, 'delete', '/api/blocks/{uid}', `/blocks/${ada.uid}`)).status).toBe(400);

    // Follows: Ada follows Bob's topic, lists, unfollows; the refusals
    const bobsTopic = await newTopic(bob);
    const follow = await call(ada, 'put', '/api/follows/{topic_id}', `/follows/${bobsTopic.id}`);
    expect(follow.status).toBe(200);
    expect((await call(ada, 'get', '/api/follows', '/follows')).body).toContainEqual(follow.body);
    expect((await call(ada, 'put', '/api/follows/{topic_id}', '/follows/no-such-topic')).status).toBe(404);
    expect((await call(null, 'get', '/api/follows', '/follows')).status).toBe(401);
    expect((await call(ada, 'delete', '/api/follows/{topic_id}', `/follows/${bobsTopic.id}`)).status).toBe(204);

    // Web Push: the key, a device turned on (201), again (200), off; the refusals
    expect((await call(null, 'get', '/api/push/config', '/push/config')).body.public_key).toBe(server.vapid.publicKey);
    const receiver = await startPushReceiver(server.vapid.publicKey);
    const device = receiver.device('openapi');
    expect((await call(ada, 'put', '/api/push/subscription', '/push/subscription', device.subscription)).status).toBe(201);
    expect((await call(ada, 'put', '/api/push/subscription', '/push/subscription', device.subscription)).status).toBe(200);
    expect((await call(ada, 'put', '/api/push/subscription', '/push/subscription', { endpoint: 'x' })).status).toBe(400);
    expect(
      (await call(ada, 'delete', '/api/push/subscription', '/push/subscription', { endpoint: device.subscription.endpoint })).status,
    ).toBe(204);
    expect(
      (await call(ada, 'delete', '/api/push/subscription', '/push/subscription', { endpoint: device.subscription.endpoint })).status,
    ).toBe(404);
    await receiver.close();

    // Notifications: Bob's reply and root response notified Ada
    const notes = (await call(ada, 'get', '/api/notifications/user/{uid}', `/notifications/user/${ada.uid}?limit=10`)).body as {
      id: string;
    }[];
    expect(notes.length).toBeGreaterThan(0);
    await call(ada, 'put', '/api/notifications/{id}/read', `/notifications/${notes[0]!.id}/read`);
    expect((await call(bob, 'get', '/api/notifications/user/{uid}', `/notifications/user/${ada.uid}`)).status).toBe(403);
    expect((await call(bob, 'put', '/api/notifications/{id}/read', `/notifications/${notes[0]!.id}/read`)).status).toBeGreaterThanOrEqual(
      403,
    );

    // Deletes, and the refusals around them
    expect((await call(ada, 'delete', '/api/responses/{id}', `/responses/${reply.id}`)).status).toBe(403);
    expect((await call(bob, 'delete', '/api/upvotes', '/upvotes', vote)).status).toBe(204);
    expect((await call(bob, 'delete', '/api/upvotes', '/upvotes', { target_type: 'response' })).status).toBe(400);
    expect((await call(bob, 'delete', '/api/responses/{id}', `/responses/${reply.id}`)).status).toBe(204);
    expect((await call(bob, 'get', '/api/responses/{id}', `/responses/${reply.id}`)).status).toBe(404);
    expect((await call(bob, 'delete', '/api/topics/{id}', `/topics/${topic.id}`)).status).toBe(403);
    expect((await call(ada, 'delete', '/api/topics/{id}', `/topics/${topic.id}`)).status).toBe(204);
  });

  it('answers the one-click unsubscribe as described', async () => {
    const token = encodeURIComponent(signUnsubscribeToken(KEY, ada.uid, new Date()));
    expect((await call(null, 'post', '/api/unsubscribe', `/unsubscribe?token=${token}`)).body).toEqual({
      ok: true,
      receive_weekly_summary: false,
    });
    expect((await call(null, 'post', '/api/unsubscribe', '/unsubscribe', { token: decodeURIComponent(token) })).status).toBe(200);
    expect((await call(null, 'post', '/api/unsubscribe', '/unsubscribe?token=abc')).status).toBe(400);
    const expired = encodeURIComponent(signUnsubscribeToken(KEY, ada.uid, new Date(), -60_000));
    expect((await call(null, 'post', '/api/unsubscribe', `/unsubscribe?token=${expired}`)).status).toBe(410);
    const opened = await call(null, 'get', '/api/unsubscribe', '/unsubscribe?token=abc', undefined, { redirect: 'manual' });
    expect(opened.status).toBe(303);
  });

  it('answers the moderation calls as described', async () => {
    const [mod, admin] = await Promise.all([createTestUser('Mod'), createTestUser('Admin')]);
    await Promise.all([setTestUserRole(mod, 'moderator'), setTestUserRole(admin, 'admin')]);
    const topic = await newTopic(ada);
    const report = { target_type: 'topic', target_id: topic.id, reason: 'spam' };
    expect((await call(bob, 'post', '/api/reports', '/reports', report)).status).toBe(201);
    expect((await call(bob, 'post', '/api/reports', '/reports', { ...report, note: 'Again' })).status).toBe(200);
    expect((await call(ada, 'post', '/api/reports', '/reports', report)).status).toBe(400);
    expect((await call(bob, 'post', '/api/reports', '/reports', { ...report, target_id: 'missing' })).status).toBe(404);
    expect((await call(null, 'post', '/api/reports', '/reports', report)).status).toBe(401);
    const queue = await call(mod, 'get', '/api/moderation/reports', '/moderation/reports?status=open&limit=20');
    expect((queue.body as { items: unknown[] }).items).not.toEqual([]);
    expect((await call(bob, 'get', '/api/moderation/reports', '/moderation/reports')).status).toBe(403);
    expect((await call(mod, 'get', '/api/moderation/reports', '/moderation/reports?status=closed')).status).toBe(400);
    const action = { action: 'remove', target_type: 'topic', target_id: topic.id, reason: 'Spam' };
    expect((await call(mod, 'post', '/api/moderation/actions', '/moderation/actions', action)).status).toBe(200);
    expect(
      (await call(mod, 'post', '/api/moderation/actions', '/moderation/actions', { ...action, action: 'lock', target_type: 'user' }))
        .status,
    ).toBe(400);
    expect((await call(mod, 'post', '/api/moderation/actions', '/moderation/actions', { ...action, target_id: 'missing' })).status).toBe(
      404,
    );
    expect((await call(null, 'post', '/api/moderation/actions', '/moderation/actions', action)).status).toBe(401);
    expect((await call(mod, 'get', '/api/moderation/log', '/moderation/log?limit=10')).status).toBe(200);
    expect((await call(bob, 'get', '/api/moderation/log', '/moderation/log')).status).toBe(403);
    const original = '/api/moderation/original/{target_type}/{id}';
    expect((await call(ada, 'get', original, `/moderation/original/topic/${topic.id}`)).status).toBe(200);
    expect((await call(bob, 'get', original, `/moderation/original/topic/${topic.id}`)).status).toBe(403);
    expect((await call(mod, 'get', original, '/moderation/original/response/missing')).status).toBe(404);
    expect((await call(mod, 'get', original, `/moderation/original/user/${bob.uid}`)).status).toBe(400);
    const standing = '/api/moderation/users/{uid}';
    expect((await call(mod, 'get', standing, `/moderation/users/${bob.uid}`)).status).toBe(200);
    expect((await call(bob, 'get', standing, `/moderation/users/${ada.uid}`)).status).toBe(403);
    expect((await call(mod, 'get', standing, '/moderation/users/missing')).status).toBe(404);
    expect((await call(null, 'get', standing, `/moderation/users/${bob.uid}`)).status).toBe(401);
    expect((await call(admin, 'put', '/api/users/{uid}/role', `/users/${bob.uid}/role`, { role: 'moderator' })).status).toBe(200);
    expect((await call(mod, 'put', '/api/users/{uid}/role', `/users/${bob.uid}/role`, { role: 'member' })).status).toBe(403);
    expect((await call(admin, 'put', '/api/users/{uid}/role', '/users/missing/role', { role: 'member' })).status).toBe(404);
    expect((await call(admin, 'put', '/api/users/{uid}/role', `/users/${bob.uid}/role`, { role: 'admin' })).status).toBe(400);
    expect((await call(admin, 'put', '/api/users/{uid}/role', `/users/${bob.uid}/role`, { role: 'member' })).status).toBe(200);
    await bob.refresh();
  });

  it('deletes an account as described', async () => {
    const leaving = await createTestUser('Leaving');
    expect((await call(leaving, 'delete', '/api/me', '/me', { content: 'maybe' })).status).toBe(400);
    expect((await call(null, 'delete', '/api/me', '/me', { content: 'delete' })).status).toBe(401);
    expect((await call(leaving, 'delete', '/api/me', '/me', { content: 'anonymise' })).status).toBe(204);
  });

  it('answers sync pulls, pushes and the stream as described', async () => {
    const topic = await newTopic(ada);
    await apiClient(server.url, bob.token).post('/responses', { topic_id: topic.id, type: 'for', content: 'Synced.' });
    await apiClient(server.url, bob.token).put(`/topics/${topic.id}/stance`, { stance: 'unsure' });
    await apiClient(server.url, bob.token).put(`/blocks/${ada.uid}`);
    for (const collection of ['topics', 'votes', 'notifications', 'profile', 'stances', 'reports', 'blocks', 'follows']) {
      const pulled = await call(bob, 'get', '/api/sync/{collection}/pull', `/sync/${collection}/pull?limit=50`);
      expect(pulled.status).toBe(200);
    }
    const responses = await call(null, 'get', '/api/sync/{collection}/pull', `/sync/responses/pull?topic_id=${topic.id}`);
    expect((responses.body as { documents: unknown[] }).documents).not.toEqual([]);
    expect((await call(null, 'get', '/api/sync/{collection}/pull', '/sync/votes/pull')).status).toBe(401);
    expect((await call(null, 'get', '/api/sync/{collection}/pull', '/sync/nothing/pull')).status).toBe(404);
    expect((await call(null, 'get', '/api/sync/{collection}/pull', '/sync/topics/pull?limit=5000')).status).toBe(400);
    const outdated = await call(null, 'get', '/api/sync/{collection}/pull', '/sync/topics/pull', undefined, {
      headers: { 'x-crux-sync': '0' },
    });
    expect(outdated.body).toMatchObject({ code: 'sync-outdated' });
    const several = await call(null, 'post', '/api/sync/responses/pull', '/sync/responses/pull', {
      checkpoint: { topics: { [topic.id]: { id: '', seq: 0 } } },
      limit: 10,
    });
    expect((several.body as { documents: unknown[] }).documents).not.toEqual([]);
    expect((await call(null, 'post', '/api/sync/responses/pull', '/sync/responses/pull', { checkpoint: {} })).status).toBe(400);

    // The device's working set: a page of a list, and the kept topics by id (only those newer than it has).
    const page = await call(null, 'get', '/api/sync/topics/page', '/sync/topics/page?sort=new&limit=5&offset=0');
    expect((page.body as { documents: Array<{ id: string }> }).documents.map((d) => d.id)).toContain(topic.id);
    expect((await call(null, 'get', '/api/sync/topics/page', '/sync/topics/page?sort=sideways')).status).toBe(400);
    const kept = await call(null, 'post', '/api/sync/topics/pull', '/sync/topics/pull', { topics: { [topic.id]: 0 } });
    expect((kept.body as { documents: Array<{ id: string }> }).documents.map((d) => d.id)).toEqual([topic.id]);
    expect((await call(null, 'post', '/api/sync/topics/pull', '/sync/topics/pull', { topics: 'all' })).status).toBe(400);

    const pushed = await call(ada, 'post', '/api/sync/{collection}/push', '/sync/topics/push', [
      {
        newDocumentState: {
          id: `pushed-${Date.now()}`,
          title: 'Pushed offline',
          category: 'Science',
          creator_uid: 'ignored',
          username: null,
          created_at: '2000-01-01T00:00:00.000Z',
          score: 0,
          responses_count: 0,
          stance_agree: 0,
          stance_disagree: 0,
          stance_unsure: 0,
          minds_changed: 0,
          seq: 0,
          _deleted: false,
        },
      },
    ]);
    expect((pushed.body as { conflicts: unknown[] }).conflicts).toHaveLength(1);
    const refused = await call(bob, 'post', '/api/sync/{collection}/push', '/sync/topics/push', [
      { newDocumentState: { ...(pushed.body as { conflicts: object[] }).conflicts[0], title: 'Not yours' } },
    ]);
    expect((refused.body as { rejected: unknown[] }).rejected).toHaveLength(1);
    expect((await call(ada, 'post', '/api/sync/{collection}/push', '/sync/topics/push', { not: 'a list' })).status).toBe(400);
    expect((await call(null, 'post', '/api/sync/{collection}/push', '/sync/topics/push', [])).status).toBe(401);

    // The stream never ends: its status and type are checked, then it is closed.
    const abort = new AbortController();
    const stream = await fetch(`${server.url}/api/sync/stream?topics=${topic.id}`, { signal: abort.signal });
    expect(stream.status).toBe(200);
    expect(Object.keys(doc.paths['/api/sync/stream']!.get!.responses['200']!.content!)).toEqual(['text/event-stream']);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    abort.abort();
    await stream.body?.cancel().catch(() => {});
    succeeded.add('GET /api/sync/stream');
    expect((await call(null, 'get', '/api/sync/stream', '/sync/stream?topics=not%20an%20id')).status).toBe(400);
  });

  it('has called every described route with a success, and validated the answers', () => {
    const described = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(described.filter((route) => !succeeded.has(route))).toEqual([]);
    expect(validated).toBeGreaterThan(80);
  });

  async function newTopic(who: TestUser): Promise<{ id: string }> {
    const res = await apiClient(server.url, who.token).post('/topics', { title: `Another topic ${Date.now()}`, categories: ['Science'] });
    expect(res.status).toBe(201);
    return res.body as { id: string };
  }
});
