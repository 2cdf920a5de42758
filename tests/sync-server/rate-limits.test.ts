// Writes (REST and sync push, counted in rows), expensive reads and
// open live streams are limited per user and per IP, answered 429 `rate-limited` with
// Retry-After and a message for a person; a refused request applies nothing. The
// limits here are set low through the environment the server reads (RATE_LIMIT_*);
// refills are slow (1 a minute) so nothing refills while a test runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PushResponse, TopicDoc } from '../../shared/sync-protocol.js';
import { apiClient, type ApiResult } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { countRows, makeTopic, uniqueId } from '../fixtures/builders.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

/** Starts a server with these RATE_LIMIT_* variables (restored once it is built). */
async function serverWith(env: Record<string, string>): Promise<TestServer> {
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  Object.assign(process.env, env);
  try {
    return await startTestServer();
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

const topicDoc = (overrides: Partial<TopicDoc> = {}): TopicDoc => ({
  id: uniqueId('t'),
  title: 'A pushed topic',
  category: 'Science',
  creator_uid: '',
  username: null,
  created_at: '',
  score: 0,
  responses_count: 0,
  stance_agree: 0,
  stance_disagree: 0,
  stance_unsure: 0,
  minds_changed: 0,
  locked: false,
  moderation: null,
  moderation_reason: null,
  opinion_groups: null,
  seq: 0,
  _deleted: false,
  ...overrides,
});

function expectRateLimited(res: ApiResult, text: RegExp) {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ error: expect.stringMatching(text), code: 'rate-limited' });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
  expect(res.body.error).toContain(`${retryAfter} second`);
}

describe('rate limits', () => {
  let ada: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    [ada, bob] = await Promise.all([createTestUser('Ada'), createTestUser('Bob')]);
  });

  describe('writes per user, in rows', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await serverWith({ RATE_LIMIT_USER_WRITES_BURST: '5', RATE_LIMIT_USER_WRITES_PER_MIN: '1' });
    });
    afterAll(() => server.stop());

    it('counts each REST write and each pushed row; over the limit nothing is applied', async () => {
      const api = apiClient(server.url, ada.token);
      await makeTopic(api); // 1
      await makeTopic(api); // 2
      const pushed = [topicDoc(), topicDoc()];
      const ok = await api.post<PushResponse<TopicDoc>>(
        '/sync/topics/push',
        pushed.map((doc) => ({ newDocumentState: doc })),
      ); // 4
      expect(ok.status).toBe(200);
      expect(ok.body.rejected).toEqual([]);

      // Two rows when one is left: the whole push is refused, neither row lands.
      const refused = [topicDoc(), topicDoc()];
      const push = await api.post(
        '/sync/topics/push',
        refused.map((doc) => ({ newDocumentState: doc })),
      );
      expectRateLimited(push, /^You are making changes too quickly\. Try again in \d+ seconds?\.$/);
      for (const doc of refused) expect(await countRows(server.db, 'topics', 'id = ?', doc.id)).toBe(0);

      // One row still fits; after it, REST writes are refused too, with the same shape.
      expect((await api.post('/sync/topics/push', [{ newDocumentState: topicDoc() }])).status).toBe(200);
      const title = `Refused ${uniqueId()}`;
      const rest = await api.post('/topics', { title, categories: ['Science'] });
      expectRateLimited(rest, /too quickly/);
      expect(await countRows(server.db, 'topics', 'title = ?', title)).toBe(0);
      expectRateLimited(await api.post('/upvotes', { target_type: 'topic', target_id: pushed[0]!.id }), /too quickly/);
    });

    it('is per user: another account is not slowed by the first', async () => {
      const api = apiClient(server.url, bob.token);
      expect((await api.post('/sync/topics/push', [{ newDocumentState: topicDoc() }])).status).toBe(200);
      expect((await makeTopic(api)).id).toBeTruthy();
    });

    it('reads are not writes: a limited user still reads and pulls', async () => {
      const api = apiClient(server.url, ada.token);
      expect((await api.get('/topics')).status).toBe(200);
      expect((await api.get('/sync/topics/pull?limit=10')).status).toBe(200);
    });
  });

  describe('a push bigger than the burst', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await serverWith({ RATE_LIMIT_USER_WRITES_BURST: '3', RATE_LIMIT_USER_WRITES_PER_MIN: '1' });
    });
    afterAll(() => server.stop());

    it('goes from a full bucket once, then the account waits for every row it took', async () => {
      const api = apiClient(server.url, ada.token);
      const topic = await apiClient(server.url, bob.token).post('/topics', { title: 'Bob asks', categories: ['Science'] });
      const base = {
        topic_id: topic.body.id as string,
        parent_response_id: null,
        quoted_response_id: null,
        type: 'for' as const,
        sources: [],
        creator_uid: '',
        username: null,
        created_at: '',
        updated_at: '',
        score: 0,
        comment_count: 0,
        seq: 0,
        _deleted: false,
      };
      const rows = Array.from({ length: 5 }, (_, i) => ({
        newDocumentState: { ...base, id: uniqueId('r'), content: `r${i}` },
      }));
      expect((await api.post('/sync/responses/push', rows)).status).toBe(200);
      const next = await api.post('/sync/responses/push', [{ newDocumentState: { ...base, id: uniqueId('r'), content: 'more' } }]);
      expectRateLimited(next, /too quickly/);
      // 5 rows taken from 3: two in debt, one more needed: about three minutes at one a minute.
      expect(Number(next.headers.get('retry-after'))).toBeGreaterThan(120);
    });
  });

  describe('writes per IP', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await serverWith({ RATE_LIMIT_IP_WRITES_BURST: '3', RATE_LIMIT_IP_WRITES_PER_MIN: '1' });
    });
    afterAll(() => server.stop());

    it('counts every account on one address together', async () => {
      expect((await apiClient(server.url, ada.token).post('/sync/topics/push', [{ newDocumentState: topicDoc() }])).status).toBe(200);
      expect((await apiClient(server.url, bob.token).post('/sync/topics/push', [{ newDocumentState: topicDoc() }])).status).toBe(200);
      const carol = await createTestUser('Carol');
      expect((await apiClient(server.url, carol.token).post('/sync/topics/push', [{ newDocumentState: topicDoc() }])).status).toBe(200);
      const dave = await createTestUser('Dave');
      expectRateLimited(
        await apiClient(server.url, dave.token).post('/topics', { title: 'Too many from here', categories: ['Science'] }),
        /^Too many changes are coming from your IP address\. Try again in \d+ seconds?\.$/,
      );
    });
  });

  describe('expensive reads', () => {
    let server: TestServer;
    let topicId: string;
    beforeAll(async () => {
      server = await serverWith({ RATE_LIMIT_USER_READS_BURST: '3', RATE_LIMIT_USER_READS_PER_MIN: '1' });
      topicId = (await makeTopic(apiClient(server.url, ada.token))).id;
    });
    afterAll(() => server.stop());

    it('limits searches and list pages per user, then per address for anonymous callers', async () => {
      const api = apiClient(server.url, ada.token);
      expect((await api.get(`/responses/search?topic_id=${topicId}&q=hello`)).status).toBe(200);
      expect((await api.get('/topics?search=hello')).status).toBe(200);
      expect((await api.get(`/responses?topic_id=${topicId}`)).status).toBe(200);
      expectRateLimited(await api.get('/sources?q=who'), /^Too many searches in a short time\. Try again in \d+ seconds?\.$/);
      // Cheap reads are not counted.
      expect((await api.get('/topics')).status).toBe(200);
      expect((await api.get(`/topics/${topicId}`)).status).toBe(200);

      // Bob has his own allowance; anonymous callers share their address's.
      expect((await apiClient(server.url, bob.token).get('/sources?q=who')).status).toBe(200);
      const anon = apiClient(server.url);
      for (let i = 0; i < 3; i++) expect((await anon.get('/sources')).status).toBe(200);
      expectRateLimited(await anon.get('/sources'), /Too many searches/);
    });
  });

  describe('live streams', () => {
    let server: TestServer;
    const aborts: AbortController[] = [];
    beforeAll(async () => {
      server = await serverWith({ RATE_LIMIT_USER_STREAMS: '2', RATE_LIMIT_IP_STREAMS: '4' });
    });
    afterAll(async () => {
      aborts.forEach((abort) => abort.abort());
      await server.stop();
    });

    async function open(token: string | null) {
      const abort = new AbortController();
      aborts.push(abort);
      const res = await fetch(`${server.url}/api/sync/stream`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
        signal: abort.signal,
      });
      if (res.status !== 200) return { res, body: (await res.json()) as { error: string; code: string }, abort };
      // Read the first event so the stream is known to be open.
      const reader = res.body!.getReader();
      await reader.read();
      return { res, body: null, abort, reader };
    }

    it('refuses a user more open streams than allowed, and counts a closed one out', async () => {
      const first = await open(ada.token);
      const second = await open(ada.token);
      expect([first.res.status, second.res.status]).toEqual([200, 200]);
      const third = await open(ada.token);
      expect(third.res.status).toBe(429);
      expect(third.body).toEqual({
        error: expect.stringMatching(/^Too many live connections are open for your account/),
        code: 'rate-limited',
      });
      expect(Number(third.res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

      // Another account is not affected by Ada's streams.
      expect((await open(bob.token)).res.status).toBe(200);

      // Closing one frees its place (the server notices the abort).
      first.abort.abort();
      let again = await open(ada.token);
      for (let i = 0; again.res.status === 429 && i < 100; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        again = await open(ada.token);
      }
      expect(again.res.status).toBe(200);
    });

    it('limits the streams of one address, anonymous ones included', async () => {
      // Ada 2 + Bob 1 open: one more fits the address's 4.
      expect((await open(null)).res.status).toBe(200);
      const over = await open(null);
      expect(over.res.status).toBe(429);
      expect(over.body?.error).toMatch(/^Too many live connections are coming from your IP address/);
    });
  });

  describe('off', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await serverWith({ RATE_LIMITS: 'off', RATE_LIMIT_USER_WRITES_BURST: '1', RATE_LIMIT_USER_WRITES_PER_MIN: '1' });
    });
    afterAll(() => server.stop());

    it('RATE_LIMITS=off applies none', async () => {
      const api = apiClient(server.url, ada.token);
      for (let i = 0; i < 3; i++) expect((await api.post('/sync/topics/push', [{ newDocumentState: topicDoc() }])).status).toBe(200);
    });
  });
});
