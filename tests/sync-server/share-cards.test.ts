// Share cards: a link to a topic pasted into a chat shows its title, its balance of stances, its count
// of responses and the first words of its first response, read from the page's HTML as a crawler reads
// it (no JavaScript run: the server's answer parsed by jsdom). User text cannot leave its attribute.
// The real app on the lane's engine (SQLite, or PostgreSQL in server-pg).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Topic } from '../../shared/types.js';
import { createApp } from '../../sync-server/src/app.js';
import type { TokenVerifier } from '../../sync-server/src/auth/verifier.js';
import { createResponse } from '../../sync-server/src/domain/responses.js';
import { recordStance } from '../../sync-server/src/domain/stances.js';
import { createTopic } from '../../sync-server/src/domain/topics.js';
import { rememberUser } from '../../sync-server/src/domain/users.js';
import { firstPageFor } from '../../sync-server/src/routes/first-page.js';
import { mountSite } from '../../sync-server/src/routes/site-files.js';
import { openTestStore, type TestStore } from '../fixtures/test-db.js';

const INDEX_HTML =
  '<!doctype html><html><head><title>Crux</title><meta name="description" content="Crux"></head><body><div id="root"></div></body></html>';
const noVerifier: TokenVerifier = { verify: () => Promise.reject(new Error('no tokens in this test')) };
const ada = { uid: 'uid-ada', name: 'Ada', email: null };
const bob = { uid: 'uid-bob', name: 'Bob', email: null };
const PUBLIC_URL = 'https://crux.example';
const TITLE = 'Is "tea" better than coffee? <img src=x onerror=alert(1)> & more';

/** The page's head as a crawler reads it: its meta tags by property or name, and its title. */
function cardOf(html: string): { title: string; tags: Record<string, string>; scripts: number } {
  const { document } = new JSDOM(html).window;
  const tags: Record<string, string> = {};
  for (const meta of document.querySelectorAll('meta')) {
    const key = meta.getAttribute('property') ?? meta.getAttribute('name');
    if (key) tags[key] = meta.getAttribute('content') ?? '';
  }
  return { title: document.title, tags, scripts: document.querySelectorAll('script:not([type="application/json"]), img').length };
}

describe('share cards', () => {
  let dir: string;
  let testStore: TestStore;
  let request: (path: string) => Promise<globalThis.Response>;
  let tea: Topic;
  let bare: Topic;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'crux-share-cards-'));
    const site = join(dir, 'site');
    mkdirSync(site, { recursive: true });
    writeFileSync(join(site, 'index.html'), INDEX_HTML);
    testStore = await openTestStore();
    const { app, ctx } = createApp({ store: testStore.store, verifier: noVerifier, log: () => {} });
    await rememberUser(ctx, ada);
    await rememberUser(ctx, bob);
    tea = await createTopic(ctx, ada, { title: TITLE, categories: ['Other'] });
    await createResponse(ctx, ada, {
      topic_id: tea.id,
      type: 'for',
      content: `Tea has  **less** caffeine,\nso you [sleep better](https://example.org/sleep). ${'And it is calmer. '.repeat(20)}`,
    });
    await createResponse(ctx, bob, { topic_id: tea.id, type: 'against', content: 'Coffee tastes better.' });
    await recordStance(ctx, ada.uid, tea.id, { stance: 'agree' });
    await recordStance(ctx, bob.uid, tea.id, { stance: 'disagree' });
    bare = await createTopic(ctx, ada, { title: 'A topic with no responses yet', categories: ['Other'] });
    mountSite(app, site, (path) => firstPageFor(ctx, path), PUBLIC_URL);
    request = (path) => Promise.resolve(app.request(path));
  });

  afterAll(async () => {
    await testStore?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("a topic's page carries its title, balance, responses and first words, escaped, with its address and an image", async () => {
    const res = await request(`/topics/${tea.id}`);
    expect(res.status).toBe(200);
    const { title, tags, scripts } = cardOf(await res.text());
    expect(title).toBe(`${TITLE} – Crux`);
    expect(tags['og:title']).toBe(TITLE);
    expect(tags['twitter:title']).toBe(TITLE);
    expect(tags['og:type']).toBe('article');
    expect(tags['og:site_name']).toBe('Crux');
    expect(tags['og:url']).toBe(`${PUBLIC_URL}/topics/${tea.id}`);
    // Its balance drawn as a wide picture (tests/sync-server/embed.test.ts reads it).
    expect(tags['og:image']).toBe(`${PUBLIC_URL}/api/topics/${tea.id}/card.png`);
    expect(tags['og:image:width']).toBe('1200');
    expect(tags['og:image:height']).toBe('630');
    expect(tags['twitter:card']).toBe('summary_large_image');
    const description = tags['og:description']!;
    expect(description.startsWith('1 agree · 1 disagree · 0 unsure · 2 responses. “Tea has less caffeine, so you sleep better.')).toBe(
      true,
    );
    // The words as they read: no Markdown marks, no link address.
    expect(description).not.toMatch(/\*\*|\]\(|example\.org/);
    // The first words only: the card stays short, with an ellipsis.
    expect(description.length).toBeLessThan(220);
    expect(description.endsWith('…”')).toBe(true);
    expect(tags['twitter:description']).toBe(description);
    // The title's markup stayed text: no element came out of it.
    expect(scripts).toBe(0);
  });

  it('a topic with no responses says so; other pages carry the site card; no first screen, no card', async () => {
    const { tags } = cardOf(await (await request(`/topics/${bare.id}`)).text());
    expect(tags['og:title']).toBe('A topic with no responses yet');
    expect(tags['og:description']).toBe('0 agree · 0 disagree · 0 unsure · 0 responses');

    const home = cardOf(await (await request('/')).text());
    expect(home.title).toBe('Crux');
    expect(home.tags['og:type']).toBe('website');
    expect(home.tags['og:url']).toBe(`${PUBLIC_URL}/`);
    expect(home.tags['og:description']).toBe('Structured debates that find the crux of every disagreement.');
    expect(home.tags['og:image']).toBe(`${PUBLIC_URL}/icon-512.png`);

    // A missing topic: the plain shell (the app says so), without a card for a page that does not exist.
    expect(await (await request('/topics/00000000-0000-7000-8000-000000000000')).text()).toBe(INDEX_HTML);
  });
});
