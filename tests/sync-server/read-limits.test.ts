// Rate limits on the expensive reads the first pass left open: sync pulls (anonymous allowed,
// up to 1,000 documents or 200 topics a call) are paid in the documents they return; a topic
// list page past the first, common ground, the sitemap, a topic's server-rendered first page and
// the one-click unsubscribe count as expensive reads, and so do a user's page and a topic's stance
// totals. Over a limit: 429 `rate-limited` with
// Retry-After and a sentence for a person (the first page degrades to the plain shell instead).
// Limits are set low through RATE_LIMIT_* (refills of one a minute, so nothing refills mid-test).
import { serve, type ServerType } from '@hono/node-server';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_TOPICS_OFFSET } from '../../shared/schemas/topics.js';
import { createApp } from '../../sync-server/src/app.js';
import type { TokenVerifier } from '../../sync-server/src/auth/verifier.js';
import { DEFAULT_RATE_LIMITS } from '../../sync-server/src/http/rate-limit.js';
import { createTopic } from '../../sync-server/src/domain/topics.js';
import { rememberUser } from '../../sync-server/src/domain/users.js';
import { signUnsubscribeToken } from '../../sync-server/src/mail/token.js';
import { limitedFirstPage } from '../../sync-server/src/routes/first-page.js';
import { mountSite } from '../../sync-server/src/routes/site-files.js';
import { openDatabase } from '../../sync-server/src/store/sqlite/connection.js';
import { createStore } from '../../sync-server/src/store/sqlite/store.js';
import { apiClient, type ApiResult } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { makeTopic } from '../fixtures/builders.js';
import { startMailTestServer } from '../fixtures/mail.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

/** Runs `start` with these RATE_LIMIT_* variables set (restored once the server is built). */
async function withEnv<T>(env: Record<string, string>, start: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  Object.assign(process.env, env);
  try {
    return await start();
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

function expectRateLimited(res: ApiResult, text: RegExp) {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ error: expect.stringMatching(text), code: 'rate-limited' });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
  expect(res.body.error).toContain(`${retryAfter} second`);
}

const PULLS_TEXT = /^Too much data downloaded in a short time\. Try again in \d+ seconds?\.$/;
const REQUESTS_TEXT = /^Too many requests in a short time\. Try again in \d+ seconds?\.$/;

let ada: TestUser;
beforeAll(async () => {
  ada = await createTestUser('Ada Reads');
});

describe('sync pulls, paid in documents', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Ten at once: a pull costs one, plus the documents it returned.
    server = await withEnv({ RATE_LIMIT_USER_PULLS_BURST: '10', RATE_LIMIT_USER_PULLS_PER_MIN: '1' }, () => startTestServer());
    const api = apiClient(server.url, ada.token);
    for (let i = 0; i < 4; i++) await makeTopic(api);
  });
  afterAll(() => server.stop());

  it('counts the documents returned, not the requests; then 429 with Retry-After, per caller', async () => {
    const anon = apiClient(server.url);
    const first = await anon.get<{ documents: unknown[] }>('/sync/topics/pull?limit=100');
    expect(first.status).toBe(200);
    expect(first.body.documents).toHaveLength(4); // 1 + 4 = 5 of 10
    expect((await anon.get('/sync/topics/pull?limit=100')).status).toBe(200); // 10 of 10
    // Three requests: a count of requests alone (10 at once) would still let it through.
    expectRateLimited(await anon.get('/sync/topics/pull?limit=100'), PULLS_TEXT);
    // The several-topics pull shares the allowance.
    expectRateLimited(await anon.post('/sync/responses/pull', { checkpoint: { topics: {} }, limit: 1000 }), PULLS_TEXT);
    // A signed-in caller has an allowance of their own.
    expect((await apiClient(server.url, ada.token).get('/sync/topics/pull?limit=100')).status).toBe(200);
  });
});

describe('the several-topics pull', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await withEnv({ RATE_LIMIT_USER_PULLS_BURST: '3', RATE_LIMIT_USER_PULLS_PER_MIN: '1' }, () => startTestServer());
  });
  afterAll(() => server.stop());

  it('is counted too (anonymous allowed)', async () => {
    const anon = apiClient(server.url);
    const topics = Object.fromEntries(['t-a', 't-b'].map((id) => [id, { id: '', seq: 0 }]));
    for (let i = 0; i < 3; i++) expect((await anon.post('/sync/responses/pull', { checkpoint: { topics }, limit: 1000 })).status).toBe(200);
    expectRateLimited(await anon.post('/sync/responses/pull', { checkpoint: { topics }, limit: 1000 }), PULLS_TEXT);
  });
});

describe('other expensive reads', () => {
  // One read at once for each caller: the second of a kind is refused.
  const ONE_READ = { RATE_LIMIT_USER_READS_BURST: '1', RATE_LIMIT_USER_READS_PER_MIN: '1' };
  let server: TestServer;
  let topicId: string;
  beforeAll(async () => {
    server = await withEnv(ONE_READ, () => startTestServer());
    topicId = (await makeTopic(apiClient(server.url, ada.token))).id;
  });
  afterAll(() => server.stop());

  it('a topic list page past the first, for an anonymous caller', async () => {
    const anon = apiClient(server.url);
    expect((await anon.get('/topics')).status).toBe(200); // the first page is cheap: not counted
    expect((await anon.get('/topics?offset=20')).status).toBe(200);
    expectRateLimited(await anon.get('/topics?offset=20'), REQUESTS_TEXT);
    expect((await anon.get('/topics')).status).toBe(200);
  });

  it('common ground, for a signed-in caller', async () => {
    const api = apiClient(server.url, ada.token);
    expect((await api.get(`/topics/${topicId}/common-ground`)).status).toBe(200);
    expectRateLimited(await api.get(`/topics/${topicId}/common-ground`), REQUESTS_TEXT);
  });

  it('the sitemap (the anonymous allowance is spent by now)', async () => {
    const res = await fetch(`${server.url}/sitemap.xml`);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await res.json()).toEqual({ error: expect.stringMatching(REQUESTS_TEXT), code: 'rate-limited' });
  });

  it('an offset deeper than 10,000 is refused with 400, before anything is read', async () => {
    const res = await apiClient(server.url, ada.token).get(`/topics?offset=${MAX_TOPICS_OFFSET + 1}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: `offset must be between 0 and ${MAX_TOPICS_OFFSET}.`, code: 'invalid-argument' });
  });
});

describe("a user's page and a topic's stance totals", () => {
  let server: TestServer;
  let topicId: string;
  beforeAll(async () => {
    server = await withEnv({ RATE_LIMIT_USER_READS_BURST: '1', RATE_LIMIT_USER_READS_PER_MIN: '1' }, () => startTestServer());
    topicId = (await makeTopic(apiClient(server.url, ada.token))).id;
  });
  afterAll(() => server.stop());

  it("a user's page, for a signed-in caller", async () => {
    const api = apiClient(server.url, ada.token);
    expect((await api.get(`/users/${ada.uid}`)).status).toBe(200);
    expectRateLimited(await api.get(`/users/${ada.uid}`), REQUESTS_TEXT);
  });

  it("a topic's stance totals, for an anonymous caller (then the user page shares the allowance)", async () => {
    const anon = apiClient(server.url);
    expect((await anon.get(`/topics/${topicId}/stances`)).status).toBe(200);
    expectRateLimited(await anon.get(`/topics/${topicId}/stances`), REQUESTS_TEXT);
    expectRateLimited(await anon.get(`/users/${ada.uid}`), REQUESTS_TEXT);
  });
});

describe('the sitemap on its own', () => {
  it('is counted per address', async () => {
    const server = await withEnv({ RATE_LIMIT_USER_READS_BURST: '1', RATE_LIMIT_USER_READS_PER_MIN: '1' }, () => startTestServer());
    try {
      expect((await fetch(`${server.url}/sitemap.xml`)).status).toBe(200);
      expect((await fetch(`${server.url}/sitemap.xml`)).status).toBe(429);
    } finally {
      await server.stop();
    }
  });
});

describe('one-click unsubscribe', () => {
  it('is counted per address', async () => {
    const key = Buffer.from('read-limits-test-key-0123456789abcdef0123456789', 'utf8');
    const server = await withEnv({ RATE_LIMIT_USER_READS_BURST: '1', RATE_LIMIT_USER_READS_PER_MIN: '1' }, () =>
      startMailTestServer({ signingKey: key }),
    );
    try {
      const oneClick = () =>
        apiClient(server.url).post(`/unsubscribe?token=${encodeURIComponent(signUnsubscribeToken(key, ada.uid, new Date()))}`);
      expect((await oneClick()).status).toBe(200);
      expectRateLimited(await oneClick(), REQUESTS_TEXT);
    } finally {
      await server.stop();
    }
  });
});

describe("a topic's server-rendered first page", () => {
  const noVerifier: TokenVerifier = { verify: () => Promise.reject(new Error('no tokens in this test')) };
  let dir: string;
  let server: ServerType;
  let url: string;
  let topicId: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'crux-read-limits-'));
    const site = join(dir, 'site');
    mkdirSync(site, { recursive: true });
    writeFileSync(
      join(site, 'index.html'),
      '<!doctype html><html><head><title>Crux</title></head><body><div id="root"></div></body></html>',
    );
    const store = createStore(openDatabase(join(dir, 'crux.sqlite')));
    const { app, ctx, limits } = createApp({
      store,
      verifier: noVerifier,
      log: () => {},
      rateLimits: { ...DEFAULT_RATE_LIMITS, userReads: { burst: 1, perMinute: 1 } },
    });
    const author = { uid: 'uid-ada', name: 'Ada', email: null };
    await rememberUser(ctx, author);
    topicId = (await createTopic(ctx, author, { title: 'Is tea better than coffee?', categories: ['Other'] })).id;
    mountSite(app, site, limitedFirstPage(ctx, limits));
    let port = 0;
    ({ server, port } = await new Promise<{ server: ServerType; port: number }>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve({ server: s, port: info.port }));
    }));
    url = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => {
      if ('closeAllConnections' in server) server.closeAllConnections();
      server.close(() => resolve());
    });
    rmSync(dir, { recursive: true, force: true });
  });

  it('carries the topic until the allowance is spent, then is the plain shell (still a page, no data read)', async () => {
    const first = await fetch(`${url}/topics/${topicId}`);
    expect(first.status).toBe(200);
    expect(await first.text()).toContain('Is tea better than coffee?');
    const second = await fetch(`${url}/topics/${topicId}`);
    expect(second.status).toBe(200);
    expect(second.headers.get('retry-after')).toBeNull();
    const html = await second.text();
    expect(html).toContain('<div id="root">');
    expect(html).not.toContain('crux-first-page');
    // Home is not a topic page: not counted.
    expect(await (await fetch(`${url}/`)).text()).toContain('crux-first-page');
  });
});
