// The topic pages and the leaderboard answered the fast way
// (sync-server/src/http/fast-reads.ts) are the answers the app's middleware gives: the same status,
// body and headers (security headers, content type, Vary, a signed-in caller's no-store) for every
// query and token, a bad query's 400 and a bad token's 401 included; a write is seen at once; every
// request is still counted and gets its own request id.
import { serve, type ServerType } from '@hono/node-server';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ID } from '../../scripts/auth-emulator.js';
import { createApp } from '../../sync-server/src/app.js';
import { createFirebaseVerifier } from '../../sync-server/src/auth/verifier.js';
import { parseQuery, withFastReads } from '../../sync-server/src/http/fast-reads.js';
import { readRateLimits } from '../../sync-server/src/http/rate-limit.js';
import { metrics } from '../../sync-server/src/observe/metrics.js';
import type { Topic } from '../../shared/types.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { makeTopic, upvote } from '../fixtures/builders.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

/** Headers that differ between any two answers (or between two servers' connections). */
const PER_ANSWER = new Set(['date', 'x-request-id', 'connection', 'keep-alive']);

interface Answer {
  status: number;
  text: string;
  headers: Record<string, string>;
  requestId: string | null;
}

async function answer(url: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(url, init);
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (!PER_ANSWER.has(name)) headers[name] = value;
  });
  return { status: res.status, text: await res.text(), headers, requestId: res.headers.get('x-request-id') };
}

/** A request sent as written (no URL normalised by the client), answered as `answer` reads it. */
function rawAnswer(base: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        const kept: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) if (!PER_ANSWER.has(name)) kept[name] = String(value);
        resolve({ status: res.statusCode!, text, headers: kept, requestId: (res.headers['x-request-id'] as string | undefined) ?? null });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

type Listening = { server: ServerType; url: string };
/** An app on a loopback port, with its fast reads in front as serve.ts has them. */
function listen(made: ReturnType<typeof createApp>): Promise<Listening> {
  return new Promise((resolve) => {
    const s = serve({ fetch: made.app.fetch, port: 0, hostname: '127.0.0.1', createServer: withFastReads(() => made.fastNode) }, (info) =>
      resolve({ server: s, url: `http://127.0.0.1:${info.port}` }),
    );
  });
}
function close({ server }: Listening): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    if ('closeAllConnections' in server) server.closeAllConnections();
  });
}

async function countOf(route: string, status = '200'): Promise<number> {
  const { values } = await metrics.requests.get();
  return values.find((v) => v.labels.method === 'GET' && v.labels.route === route && v.labels.status === status)?.value ?? 0;
}

describe('the fast reads', () => {
  let server: TestServer;
  let full: { server: ServerType; url: string };
  let ada: TestUser;
  let bob: TestUser;
  const as = (user?: TestUser) => apiClient(server.url, user?.token);

  beforeAll(async () => {
    server = await startTestServer();
    // The same store behind an app that answers everything the middleware's way.
    const { app } = createApp({ store: server.store, verifier: createFirebaseVerifier(PROJECT_ID), fastReads: false, log: () => {} });
    full = await new Promise((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
        resolve({ server: s, url: `http://127.0.0.1:${info.port}` }),
      );
    });
    [ada, bob] = await Promise.all([createTestUser('Ada Fast'), createTestUser('Bob Fast')]);
    for (const [i, title] of ['Solar energy subsidies', 'Energy prices and wages', 'Four day week'].entries()) {
      const topic = await makeTopic(as(i === 1 ? bob : ada), { title, categories: [i === 2 ? 'Economics' : 'Science'] });
      if (i === 0) await upvote(as(bob), 'topic', topic.id);
    }
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => {
      full.server.close(() => resolve());
      if ('closeAllConnections' in full.server) full.server.closeAllConnections();
    });
    await server.stop();
  });

  it('answers every query as the middleware does: status, body and headers', async () => {
    const paths = [
      '/api/topics',
      '/api/topics?sort=hot',
      '/api/topics?sort=new&limit=2',
      '/api/topics?sort=top&offset=1',
      '/api/topics?category=Science',
      '/api/topics?search=energy',
      '/api/topics?search=solar+energy&sort=new',
      '/api/topics?search=%C3%A9nergie',
      '/api/topics?search=',
      '/api/topics?sort=sideways',
      '/api/topics?limit=0',
      '/api/topics?colour=red',
      '/api/topics?sort=hot&sort=new',
      '/api/topics?search=%E0%A4%A',
      '/api/users/leaderboard',
      '/api/users/leaderboard?include=persuasion',
      '/api/users/leaderboard?include=everything',
    ];
    for (const path of paths) {
      const fast = await answer(server.url + path);
      const slow = await answer(full.url + path);
      expect({ path, ...fast, requestId: null }).toEqual({ path, ...slow, requestId: null });
      expect(fast.headers['content-security-policy'], path).toContain("frame-ancestors 'none'");
      expect(fast.requestId, path).toMatch(/^[0-9a-f-]{36}$/);
    }
    // A client that takes compressed answers, and one sending a (harmless) empty body length.
    const inits: RequestInit[] = [{ headers: { 'accept-encoding': 'br, gzip' } }, { headers: { 'content-length': '0' } }];
    for (const init of inits) {
      for (const path of ['/api/topics?sort=hot', '/api/users/leaderboard']) {
        expect(await answer(server.url + path, init)).toMatchObject({
          ...(await answer(full.url + path, init)),
          requestId: expect.any(String),
        });
      }
    }
  });

  it('answers a signed-in caller as the middleware does, and leaves a token that does not verify to it', async () => {
    const tokens = [bob.token, 'not-a-token', `${bob.token}x`];
    for (const token of tokens) {
      for (const path of ['/api/topics?sort=hot', '/api/topics?search=energy', '/api/users/leaderboard?include=persuasion']) {
        for (const authorization of [`Bearer ${token}`, `bearer  ${token} `, token]) {
          const init = { headers: { authorization } };
          const fast = await answer(server.url + path, init);
          expect({ path, authorization, ...fast, requestId: null }).toEqual({
            path,
            authorization,
            ...(await answer(full.url + path, init)),
            requestId: null,
          });
          expect(fast.headers['cache-control'], path).toBe('no-store');
        }
      }
    }
  });

  describe('as production runs: the account state cached, no read limits', () => {
    // The test server reads the account on every request (statusCacheMs 0) and takes read limits
    // (a search then goes the full way): here neither, as `npm start` with RATE_LIMITS=off.
    let fast: Listening;
    let slow: Listening;
    beforeAll(async () => {
      const deps = {
        store: server.store,
        verifier: createFirebaseVerifier(PROJECT_ID),
        rateLimits: readRateLimits({ RATE_LIMITS: 'off' }),
        log: () => {},
      };
      fast = await listen(createApp(deps));
      slow = await listen(createApp({ ...deps, fastReads: false }));
    });
    afterAll(async () => {
      await close(fast);
      await close(slow);
    });

    it('answers a known token at once as the middleware does', async () => {
      for (const path of ['/api/topics?sort=hot', '/api/topics?search=energy', '/api/users/leaderboard?include=persuasion']) {
        const init = { headers: { authorization: `Bearer ${bob.token}` } };
        const expected = { path, ...(await answer(slow.url + path, init)), requestId: null };
        // The first verifies and reads; the next ones are answered from what that left.
        for (let i = 0; i < 3; i++) expect({ path, ...(await answer(fast.url + path, init)), requestId: null }).toEqual(expected);
      }
      const page = await answer(`${fast.url}/api/topics?sort=hot`, { headers: { authorization: `Bearer ${bob.token}` } });
      expect((JSON.parse(page.text) as Topic[]).find((t) => t.title === 'Solar energy subsidies')?.user_has_upvoted).toBe(true);
    });

    it('answers a request target as written, odd ones included, as the middleware does', async () => {
      const paths = [
        '/api/topics?sort=hot',
        '/api/topics?search="energy"',
        "/api/topics?search='energy'",
        '/api/topics?sort=hot#fragment',
        // Kept first for the search "energy#prices", which the fragment is not.
        '/api/topics?search=energy%23prices',
        '/api/topics?search=energy#prices',
        '/api/topics?search=solar<energy>',
        '/api/./topics?sort=hot',
        '/api/users/../topics',
        '/api/topics/?sort=hot',
        '/api/topics?search=%C3%A9nergie',
        '/api/users/leaderboard?',
        '/api/users/leaderboard?include=persuasion&',
      ];
      for (const path of paths) {
        const expected = { path, ...(await rawAnswer(slow.url, path)), requestId: null };
        for (let i = 0; i < 2; i++) expect({ path, ...(await rawAnswer(fast.url, path)), requestId: null }).toEqual(expected);
      }
      // A Host header @hono/node-server refuses, and ones it takes.
      for (const host of ['bad host', 'example.org:8080', '[::1]:3000']) {
        const expected = { host, ...(await rawAnswer(slow.url, '/api/topics?sort=hot', { host })), requestId: null };
        expect({ host, ...(await rawAnswer(fast.url, '/api/topics?sort=hot', { host })), requestId: null }).toEqual(expected);
      }
    });
  });

  it('a signed-in caller still gets their own page, never cached by anyone', async () => {
    const fast = await answer(`${server.url}/api/topics?sort=hot`, { headers: { authorization: `Bearer ${bob.token}` } });
    expect(fast.status).toBe(200);
    expect(fast.headers['cache-control']).toBe('no-store');
    const solar = (JSON.parse(fast.text) as Topic[]).find((t) => t.title === 'Solar energy subsidies');
    expect(solar?.user_has_upvoted).toBe(true);
    const signedOut = JSON.parse((await answer(`${server.url}/api/topics?sort=hot`)).text) as Topic[];
    expect(signedOut.find((t) => t.title === 'Solar energy subsidies')?.user_has_upvoted).toBe(false);
  });

  it('sees a write at once, and counts every request under its route pattern', async () => {
    const newest = async () => (JSON.parse((await answer(`${server.url}/api/topics?sort=new&limit=1`)).text) as Topic[])[0]?.title;
    const countedBefore = await countOf('/api/topics');
    const first = await newest();
    const topic = await makeTopic(as(ada), { title: 'Energy storage at home' });
    expect(await newest()).toBe('Energy storage at home');
    expect(first).not.toBe('Energy storage at home');
    const searched = async () => (JSON.parse((await answer(`${server.url}/api/topics?search=storage`)).text) as Topic[]).map((t) => t.id);
    expect(await searched()).toEqual([topic.id]);
    expect((await as(ada).del(`/topics/${topic.id}`)).status).toBe(204);
    expect(await newest()).toBe(first);
    expect(await searched()).toEqual([]);
    expect((await countOf('/api/topics')) - countedBefore).toBe(5);

    const board = await countOf('/api/users/leaderboard');
    const ids = new Set<string | null>();
    for (let i = 0; i < 3; i++) ids.add((await answer(`${server.url}/api/users/leaderboard`)).requestId);
    expect(ids.size).toBe(3);
    expect((await countOf('/api/users/leaderboard')) - board).toBe(3);
  });

  it("answers a topic's own address as the middleware does, and sees each change at once", async () => {
    const topic = await makeTopic(as(ada), { title: 'Kept answers of one topic' });
    const paths = [
      `/api/topics/${topic.id}`,
      `/api/topics/${topic.id}?colour=red`,
      `/api/topics/${topic.id}/stances`,
      '/api/topics/categories',
      '/api/topics/no-such-topic',
      '/api/topics/odd%20id',
    ];
    // Twice each: the second signed-out read of a topic is its kept answer.
    for (const path of [...paths, ...paths]) {
      const fast = await answer(server.url + path);
      const slow = await answer(full.url + path);
      expect({ path, ...fast, requestId: null }).toEqual({ path, ...slow, requestId: null });
    }
    const read = async (user?: TestUser) => {
      const headers: Record<string, string> = user ? { authorization: `Bearer ${user.token}` } : {};
      const got = await answer(`${server.url}/api/topics/${topic.id}`, { headers });
      return {
        status: got.status,
        cache: got.headers['cache-control'],
        topic: got.status === 200 ? (JSON.parse(got.text) as Topic) : null,
      };
    };
    const counted = await countOf('/api/topics/:id');
    expect((await read()).topic).toMatchObject({ score: 0, user_has_upvoted: false });
    await upvote(as(bob), 'topic', topic.id);
    // Signed out: the new score at once; signed in: the reader's own vote, never kept by a cache.
    expect((await read()).topic).toMatchObject({ score: 1, user_has_upvoted: false });
    expect(await read(bob)).toMatchObject({ cache: 'no-store', topic: { score: 1, user_has_upvoted: true } });
    expect((await read(ada)).topic).toMatchObject({ score: 1, user_has_upvoted: false });
    expect((await as(ada).del(`/topics/${topic.id}`)).status).toBe(204);
    expect(await read()).toMatchObject({ status: 404, topic: null });
    expect((await countOf('/api/topics/:id')) - counted).toBe(4);
  });

  it('reads a query as the app does, or leaves it to the app', () => {
    expect(parseQuery('')).toEqual({});
    expect(parseQuery('sort=hot&search=solar+energy')).toEqual({ sort: 'hot', search: 'solar energy' });
    expect(parseQuery('search=%C3%A9t%C3%A9')).toEqual({ search: 'été' });
    for (const odd of ['sort=hot&sort=new', 'search=%E0%A4%A', 'flag', 'sort=hot&', '=x']) expect(parseQuery(odd), odd).toBeUndefined();
  });
});
