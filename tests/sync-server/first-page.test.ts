// First load: a first visit's page carries its first screen as a JSON data block (the
// topics of `/` and `/c/{category}`, a topic and its first roots on `/topics/{id}`), as the REST API
// answers a signed-out visitor, escaped so no user text can end the element, and compressed; pages
// without a first screen (or a missing topic) get the plain shell. The real app on the lane's engine
// (SQLite, or PostgreSQL in server-pg).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_SCREEN_ROOTS, VOTE_VALUES } from '../../shared/constants.js';
import type { FirstPageData, Response as CruxResponse, Topic } from '../../shared/types.js';
import { createApp } from '../../sync-server/src/app.js';
import type { TokenVerifier } from '../../sync-server/src/auth/verifier.js';
import { createResponse } from '../../sync-server/src/domain/responses.js';
import { recordStance } from '../../sync-server/src/domain/stances.js';
import { createTopic } from '../../sync-server/src/domain/topics.js';
import { castVote } from '../../sync-server/src/domain/votes.js';
import { rememberUser } from '../../sync-server/src/domain/users.js';
import { firstPageFor } from '../../sync-server/src/routes/first-page.js';
import { mountSite } from '../../sync-server/src/routes/site-files.js';
import { openTestStore, type TestStore } from '../fixtures/test-db.js';

const INDEX_HTML =
  '<!doctype html><html><head><title>Crux</title><script type="module" src="/assets/index-AbC123xy.js"></script></head><body><div id="root"></div></body></html>';
const noVerifier: TokenVerifier = { verify: () => Promise.reject(new Error('no tokens in this test')) };
const ada = { uid: 'uid-ada', name: 'Ada', email: null };
const bob = { uid: 'uid-bob', name: 'Bob', email: null };
const cy = { uid: 'uid-cy', name: 'Cy', email: null };

/** The data block of a page, or null when it has none. */
function dataIn(html: string): FirstPageData | null {
  const match = /<script type="application\/json" id="crux-first-page">(.*?)<\/script>/s.exec(html);
  return match ? (JSON.parse(match[1]!) as FirstPageData) : null;
}

describe("the first screen in a first visit's page", () => {
  let dir: string;
  let testStore: TestStore;
  let request: (path: string, headers?: Record<string, string>) => Promise<globalThis.Response>;
  let tea: Topic;
  let roots: CruxResponse[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'crux-first-page-'));
    const site = join(dir, 'site');
    mkdirSync(site, { recursive: true });
    writeFileSync(join(site, 'index.html'), INDEX_HTML);
    testStore = await openTestStore();
    const { app, ctx } = createApp({ store: testStore.store, verifier: noVerifier, log: () => {} });
    await rememberUser(ctx, ada);
    tea = await createTopic(ctx, ada, { title: 'Is tea better than coffee? </script><script>alert(1)</script>', categories: ['Other'] });
    await createTopic(ctx, ada, { title: 'Should cities ban cars?', categories: ['Politics'] });
    roots = [];
    for (let i = 0; i < FIRST_SCREEN_ROOTS + 3; i++) {
      roots.push(
        await createResponse(ctx, ada, { topic_id: tea.id, type: i % 2 ? 'for' : 'against', content: `Root ${i} <!-- not a comment -->` }),
      );
    }
    await createResponse(ctx, ada, { parent_response_id: roots[0]!.id, type: 'neutral', content: 'A reply, not a root' });
    // Stances: Ada agrees; Bob disagreed first and now is unsure (a mind changed); Cy agrees (below).
    await rememberUser(ctx, bob);
    await recordStance(ctx, ada.uid, tea.id, { stance: 'agree' });
    await recordStance(ctx, bob.uid, tea.id, { stance: 'disagree' });
    await recordStance(ctx, bob.uid, tea.id, { stance: 'unsure' });
    // Cy agrees and upvotes one argument for: the strongest case has one line.
    await rememberUser(ctx, cy);
    await recordStance(ctx, cy.uid, tea.id, { stance: 'agree' });
    await castVote(ctx, cy, 'response', roots[1]!.id, VOTE_VALUES.agree);
    mountSite(app, site, (path) => firstPageFor(ctx, path));
    request = (path, headers = {}) => Promise.resolve(app.request(path, { headers }));
  });

  afterAll(async () => {
    await testStore?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('/ carries the first page of hot topics, as GET /api/topics answers a visitor', async () => {
    const res = await request('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(/^text\/html/);
    expect(res.headers.get('Cache-Control')).toBe('no-cache');
    const html = await res.text();
    const api = (await (await request('/api/topics?sort=hot')).json()) as Topic[];
    expect(dataIn(html)).toEqual({ topics: { sort: 'hot', category: null, items: api } });
    // The page is the shell with the block before </head>; no user text ends the element.
    expect(html.startsWith('<!doctype html><html><head><title>Crux</title>')).toBe(true);
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    expect(html).not.toContain('<script>alert');
  });

  it('/c/{category} carries that category only; an unknown category gets the plain shell', async () => {
    const politics = dataIn(await (await request('/c/Politics')).text());
    expect(politics?.topics?.category).toBe('Politics');
    expect(politics?.topics?.items.map((t) => t.title)).toEqual(['Should cities ban cars?']);
    expect(await (await request('/c/Nonsense')).text()).toBe(INDEX_HTML);
  });

  it('/topics/{id} carries the topic and its first screen of roots, as the REST API answers them', async () => {
    const data = dataIn(await (await request(`/topics/${tea.id}`)).text());
    expect(data?.topic).toEqual(await (await request(`/api/topics/${tea.id}`)).json());
    const page = (await (await request(`/api/responses?topic_id=${tea.id}&limit=${FIRST_SCREEN_ROOTS}`)).json()) as CruxResponse[];
    expect(data?.responses).toEqual(page);
    expect(data?.responses).toHaveLength(FIRST_SCREEN_ROOTS);
    expect(data?.responses?.every((r) => r.parent_response_id === null)).toBe(true);
    // The stance bar's counts, as GET /api/topics/{id}/stances answers them (not the responses' count by type).
    const { responses: _byType, ...stances } = (await (await request(`/api/topics/${tea.id}/stances`)).json()) as Record<string, unknown>;
    expect(data?.stances).toEqual(stances);
    expect(data?.stances).toEqual({ topic_id: tea.id, agree: 2, disagree: 0, unsure: 1, minds_changed: 1 });
  });

  it('/topics/{id} carries the strongest case as the server ranks it, and no script to fetch before its head paints', async () => {
    const html = await (await request(`/topics/${tea.id}`)).text();
    expect(dataIn(html)?.strongest).toEqual({
      for: [
        {
          id: roots[1]!.id,
          content: roots[1]!.content,
          username: 'Ada',
          upvotes_agree: 1,
          upvotes_disagree: 0,
          downvotes_agree: 0,
          downvotes_disagree: 0,
        },
      ],
      against: [],
    });
    // The page's chunk is asked for after the head has painted (app/src/main.tsx), never beside the entry.
    expect(html).not.toContain('modulepreload');
  });

  it('a missing topic and pages without a first screen get the plain shell', async () => {
    for (const path of ['/topics/no-such-topic', '/about', '/leaderboard', '/notifications']) {
      const res = await request(path);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(INDEX_HTML);
    }
  });

  it('is compressed for a browser that accepts it', async () => {
    const res = await request('/', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(res.headers.get('Content-Encoding')).toBe('br');
    expect(res.headers.get('Vary')).toContain('Accept-Encoding');
    const html = brotliDecompressSync(Buffer.from(await res.arrayBuffer())).toString('utf8');
    expect(dataIn(html)?.topics?.items).toHaveLength(2);
  });
});
