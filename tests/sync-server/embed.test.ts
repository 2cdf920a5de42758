// A topic on another site: the read-only embed page (balance, strongest case, first responses, links that
// open Crux in a new tab) read as a browser without JavaScript reads it (jsdom), its framing policy from
// the configuration, the sizing script, oEmbed, the share card's PNG, a response's own card, and the
// ETags that answer a repeated crawl with a 304. A removed topic shows nothing of its text.
// The real app on the lane's engine (SQLite, or PostgreSQL in server-pg).
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Response as CruxResponse, Topic } from '../../shared/types.js';
import { createApp } from '../../sync-server/src/app.js';
import type { TokenVerifier } from '../../sync-server/src/auth/verifier.js';
import { moderate } from '../../sync-server/src/domain/moderation.js';
import { createResponse } from '../../sync-server/src/domain/responses.js';
import { recordStance } from '../../sync-server/src/domain/stances.js';
import { createTopic } from '../../sync-server/src/domain/topics.js';
import { rememberUser } from '../../sync-server/src/domain/users.js';
import { setVote } from '../../sync-server/src/domain/votes.js';
import { readEmbedFrameAncestors } from '../../sync-server/src/routes/embed.js';
import { firstPageFor } from '../../sync-server/src/routes/first-page.js';
import { mountSite } from '../../sync-server/src/routes/site-files.js';
import { openTestStore, type TestStore } from '../fixtures/test-db.js';

const INDEX_HTML = '<!doctype html><html><head><title>Crux</title></head><body><div id="root"></div></body></html>';
const noVerifier: TokenVerifier = { verify: () => Promise.reject(new Error('no tokens in this test')) };
const ada = { uid: 'uid-ada', name: 'Ada', email: null };
const bob = { uid: 'uid-bob', name: 'Bob', email: null };
const cy = { uid: 'uid-cy', name: 'Cy', email: null };
const dee = { uid: 'uid-dee', name: 'Dee', email: null };
const admin = { uid: 'uid-admin', name: 'Admin', email: null, role: 'admin' as const };
const PUBLIC_URL = 'https://crux.example';
const ANCESTORS = 'https://blog.example https://news.example';
const TITLE = 'Is tea <b>better</b> than coffee?';

const parse = (html: string) => new JSDOM(html).window.document;

describe('embedding a topic', () => {
  let dir: string;
  let testStore: TestStore;
  let request: (path: string, headers?: Record<string, string>) => Promise<globalThis.Response>;
  let tea: Topic;
  let removed: Topic;
  let forTea: CruxResponse;
  let againstTea: CruxResponse;
  let reply: CruxResponse;
  let ctx: ReturnType<typeof createApp>['ctx'];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'crux-embed-'));
    const site = join(dir, 'site');
    mkdirSync(site, { recursive: true });
    writeFileSync(join(site, 'index.html'), INDEX_HTML);
    testStore = await openTestStore();
    const created = createApp({
      store: testStore.store,
      verifier: noVerifier,
      log: () => {},
      publicUrl: PUBLIC_URL,
      embedFrameAncestors: ANCESTORS,
    });
    const { app } = created;
    ctx = created.ctx;
    for (const user of [ada, bob, cy, dee, admin]) await rememberUser(ctx, user);
    tea = await createTopic(ctx, ada, { title: TITLE, categories: ['Other'] });
    forTea = await createResponse(ctx, ada, { topic_id: tea.id, type: 'for', content: 'Tea has less caffeine, so you sleep better.' });
    againstTea = await createResponse(ctx, bob, { topic_id: tea.id, type: 'against', content: 'Coffee wakes you up <script>x</script>.' });
    reply = await createResponse(ctx, cy, {
      topic_id: tea.id,
      type: 'against',
      parent_response_id: forTea.id,
      content: 'Decaf exists, so caffeine is no argument.',
    });
    await recordStance(ctx, ada.uid, tea.id, { stance: 'agree' });
    await recordStance(ctx, cy.uid, tea.id, { stance: 'agree' });
    await recordStance(ctx, bob.uid, tea.id, { stance: 'disagree' });
    await recordStance(ctx, dee.uid, tea.id, { stance: 'disagree' });
    // Approved by their own side: each is its side's strongest case.
    await setVote(ctx, cy, 'response', forTea.id, true);
    await setVote(ctx, dee, 'response', againstTea.id, true);
    removed = await createTopic(ctx, ada, { title: 'A removed topic with secret words', categories: ['Other'] });
    await moderate(ctx, admin, { action: 'remove', target_type: 'topic', target_id: removed.id, reason: 'Spam.' });
    mountSite(app, site, (path) => firstPageFor(ctx, path), PUBLIC_URL);
    request = (path, headers = {}) => Promise.resolve(app.request(path, { headers }));
  });

  afterAll(async () => {
    await testStore?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("the embed page shows the balance, each side's strongest case and the first responses, escaped, with links that open Crux in a new tab", async () => {
    const res = await request(`/embed/topics/${tea.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(/^text\/html/);
    const document = parse(await res.text());
    expect(document.querySelector('h1')?.textContent?.trim()).toBe(TITLE);
    expect(document.querySelector('.counts')?.textContent?.replace(/\s+/g, ' ').trim()).toBe(
      '2 agree · 2 disagree · 0 unsure · 3 responses',
    );
    expect(document.querySelector('svg.bar')?.getAttribute('aria-label')).toBe('2 agree, 0 unsure, 2 disagree');
    expect(document.querySelector('#case-for')?.closest('section')?.textContent).toContain('Tea has less caffeine');
    expect(document.querySelector('#case-against')?.closest('section')?.textContent).toContain('Coffee wakes you up <script>x</script>.');
    const first = [...document.querySelectorAll('#first-responses + ul li')].map((li) => li.textContent?.replace(/\s+/g, ' ').trim());
    expect(first).toEqual([
      'For Tea has less caffeine, so you sleep better. — Ada',
      'Against Coffee wakes you up <script>x</script>. — Bob',
    ]);
    // Participants' markup stayed text: the one script is the page's own.
    expect(document.querySelectorAll('script')).toHaveLength(1);
    expect(document.querySelectorAll('b')).toHaveLength(0);
    const links = Object.fromEntries([...document.querySelectorAll('footer a')].map((a) => [a.textContent, a]));
    for (const name of ['Join the debate on Crux', 'Sign in']) {
      expect(links[name]?.getAttribute('href')).toBe(`${PUBLIC_URL}/topics/${tea.id}`);
      expect(links[name]?.getAttribute('target')).toBe('_blank');
      expect(links[name]?.getAttribute('rel')).toBe('noopener');
    }
  });

  it("shows a formatted response's first words without their Markdown marks", async () => {
    const milk = await createTopic(ctx, ada, { title: 'Milk first?', categories: ['Other'] });
    await createResponse(ctx, ada, {
      topic_id: milk.id,
      type: 'for',
      content: '**Milk** first, as *the study* says: [read it](https://example.org/study) and `pour`.\n\n> quoted',
    });
    const document = parse(await (await request(`/embed/topics/${milk.id}`)).text());
    const first = [...document.querySelectorAll('#first-responses + ul li')].map((li) => li.textContent?.replace(/\s+/g, ' ').trim());
    expect(first).toEqual(['For Milk first, as the study says: read it and pour. quoted — Ada']);
    const item = document.querySelector('#first-responses + ul li')!;
    expect(item.querySelectorAll('strong, em, code, blockquote')).toHaveLength(0);
    expect(item.innerHTML).not.toMatch(/\*\*|\]\(|`/);
  });

  it('reads EMBED_FRAME_ANCESTORS as one space-separated source list; unset or blank: any site', () => {
    expect(readEmbedFrameAncestors({})).toBe('*');
    expect(readEmbedFrameAncestors({ EMBED_FRAME_ANCESTORS: '   ' })).toBe('*');
    expect(readEmbedFrameAncestors({ EMBED_FRAME_ANCESTORS: 'https://blog.example' })).toBe('https://blog.example');
    // Commas, semicolons and line breaks separate like spaces: nothing can start another directive.
    expect(readEmbedFrameAncestors({ EMBED_FRAME_ANCESTORS: ' https://a.example,https://b.example;\n  https://c.example ' })).toBe(
      'https://a.example https://b.example https://c.example',
    );
    expect(readEmbedFrameAncestors({ EMBED_FRAME_ANCESTORS: "'self'; script-src *" })).not.toContain(';');
    expect(readEmbedFrameAncestors({ EMBED_FRAME_ANCESTORS: "'none'" })).toBe("'none'");
  });

  it('the embed page may be framed by the configured sites only; every other page by none', async () => {
    const embed = await request(`/embed/topics/${tea.id}`);
    const policy = embed.headers.get('Content-Security-Policy') ?? '';
    expect(policy).toContain(`frame-ancestors ${ANCESTORS}`);
    expect(policy).toContain("default-src 'none'");
    expect(embed.headers.get('X-Frame-Options')).toBeNull();
    // Its inline style and script run under that policy: their hashes are the ones it allows.
    const document = parse(await embed.text());
    const hash = (source: string) => `'sha256-${createHash('sha256').update(source).digest('base64')}'`;
    expect(policy).toContain(`style-src ${hash(document.querySelector('style')!.textContent)}`);
    expect(policy).toContain(`script-src ${hash(document.querySelector('script')!.textContent)}`);
    const page = await request(`/topics/${tea.id}`);
    expect(page.headers.get('Content-Security-Policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('X-Frame-Options')).toBe('DENY');
  });

  it('a removed or unknown topic is not embeddable, and shows nothing of its text', async () => {
    for (const id of [removed.id, 'no-such-topic']) {
      const page = await request(`/embed/topics/${id}`);
      expect(page.status).toBe(404);
      expect(await page.text()).not.toContain('secret');
      const oembed = await request(`/api/oembed?url=${encodeURIComponent(`${PUBLIC_URL}/topics/${id}`)}`);
      expect(oembed.status).toBe(404);
      expect(await oembed.json()).toEqual({ error: 'Topic not found.', code: 'not-found' });
      expect((await request(`/api/topics/${id}/card.png`)).status).toBe(404);
    }
  });

  it('the embed page and its image answer a repeated crawl with a 304, cached briefly', async () => {
    for (const path of [`/embed/topics/${tea.id}`, `/api/topics/${tea.id}/card.png`, '/embed.js']) {
      const first = await request(path);
      expect(first.status).toBe(200);
      expect(first.headers.get('Cache-Control')).toBe('public, max-age=300, stale-while-revalidate=86400');
      const etag = first.headers.get('ETag')!;
      expect(etag).toMatch(/^"/);
      const again = await request(path, { 'If-None-Match': etag });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
    }
    // The topic's own page (the app's shell, revalidated every time) too.
    const page = await request(`/topics/${tea.id}`);
    expect(page.headers.get('Cache-Control')).toBe('no-cache');
    expect((await request(`/topics/${tea.id}`, { 'If-None-Match': page.headers.get('ETag')! })).status).toBe(304);
  });

  it("the share card's image is a 1200×630 PNG", async () => {
    const res = await request(`/api/topics/${tea.id}/card.png`);
    expect(res.headers.get('Content-Type')).toBe('image/png');
    const png = Buffer.from(await res.arrayBuffer());
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(png.toString('ascii', 12, 16)).toBe('IHDR');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
    // Its pixels inflate to one filter byte and 1200 RGB pixels a row.
    const idat = png.indexOf('IDAT');
    const pixels = inflateSync(png.subarray(idat + 4, idat + 4 + png.readUInt32BE(idat - 4)));
    expect(pixels.length).toBe(630 * (1 + 1200 * 3));
  });

  it('oEmbed gives a rich answer with the iframe; refuses a bad address, an XML request and a bad size', async () => {
    const url = `${PUBLIC_URL}/topics/${tea.id}`;
    const res = await request(`/api/oembed?url=${encodeURIComponent(url)}&format=json&maxwidth=400`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ version: '1.0', type: 'rich', provider_name: 'Crux', title: TITLE, width: 400, height: 480 });
    expect(body.thumbnail_url).toBe(`${PUBLIC_URL}/api/topics/${tea.id}/card.png`);
    const frame = parse(`<body>${body.html as string}</body>`).querySelector('iframe');
    expect(frame?.getAttribute('src')).toBe(`${PUBLIC_URL}/embed/topics/${tea.id}`);
    expect(frame?.getAttribute('data-crux-frame')).toBe(tea.id);

    // A response's address embeds its topic.
    const ofResponse = await request(`/api/oembed?url=${encodeURIComponent(`${url}/responses/${reply.id}`)}`);
    expect(((await ofResponse.json()) as { title: string }).title).toBe(TITLE);

    const bad = await request(`/api/oembed?url=${encodeURIComponent('https://crux.example/about')}`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'url must be the address of a topic on Crux.', code: 'invalid-argument' });
    expect((await request('/api/oembed')).status).toBe(400);
    const xml = await request(`/api/oembed?url=${encodeURIComponent(url)}&format=xml`);
    expect(xml.status).toBe(501);
    expect(((await xml.json()) as { code: string }).code).toBe('not-implemented');
    expect((await request(`/api/oembed?url=${encodeURIComponent(url)}&maxwidth=-3`)).status).toBe(400);
  });

  it("a topic's page names its oEmbed and its balance image; a response's own address carries that response's card", async () => {
    const topicPage = parse(await (await request(`/topics/${tea.id}`)).text());
    const alternate = topicPage.querySelector('link[type="application/json+oembed"]');
    expect(alternate?.getAttribute('href')).toBe(
      `${PUBLIC_URL}/api/oembed?url=${encodeURIComponent(`${PUBLIC_URL}/topics/${tea.id}`)}&format=json`,
    );
    const meta = (document: Document, key: string) =>
      document.querySelector(`meta[property="${key}"], meta[name="${key}"]`)?.getAttribute('content');
    expect(meta(topicPage, 'og:image')).toBe(`${PUBLIC_URL}/api/topics/${tea.id}/card.png`);
    expect(meta(topicPage, 'og:image:width')).toBe('1200');
    expect(meta(topicPage, 'twitter:card')).toBe('summary_large_image');

    // A reply against a response for the question argues against it.
    const path = `/topics/${tea.id}/responses/${reply.id}`;
    const res = await request(path);
    expect(res.status).toBe(200);
    const page = parse(await res.text());
    expect(meta(page, 'og:title')).toBe(TITLE);
    expect(meta(page, 'og:url')).toBe(`${PUBLIC_URL}${path}`);
    expect(meta(page, 'og:description')).toBe(
      'Cy · Argues against: “Decaf exists, so caffeine is no argument.” · 2 agree · 2 disagree · 0 unsure · 3 responses',
    );
    expect(meta(page, 'og:image')).toBe(`${PUBLIC_URL}/api/topics/${tea.id}/card.png`);
    const root = parse(await (await request(`/topics/${tea.id}/responses/${forTea.id}`)).text());
    expect(meta(root, 'og:description')).toMatch(/^Ada · Argues for: “Tea has less caffeine/);
    // A response of no such id: the topic's own card.
    const unknown = parse(await (await request(`/topics/${tea.id}/responses/nope`)).text());
    expect(meta(unknown, 'og:description')).toMatch(/^2 agree/);
  });

  it('embed.js names this origin and sizes only frames of it', async () => {
    const res = await request('/embed.js');
    expect(res.headers.get('Content-Type')).toBe('text/javascript; charset=utf-8');
    const script = await res.text();
    expect(script).toContain(`var ORIGIN="${PUBLIC_URL}"`);
    expect(script).toContain('e.origin!==ORIGIN');
  });
});
