// First load, in real Chromium over the built PWA: `/` paints from the entry without
// fetching the other pages' chunks, the dev-only RxDB chunks (dev-mode, schema validation) are
// neither built nor precached, every route still opens (in-app and by address), and after one
// visit every route opens offline: the service worker precaches the lazy chunks too.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuild, launchBrowser, newPage, startServer, type RunningServer } from './harness';

let server: RunningServer;
let browser: Browser;
let topic: { id: string; title: string };

const DIST = join(process.cwd(), 'dist');
const DEV_ONLY = /dev-mode|validate-z-schema|validate-ajv/;

/** Every route of the app with what shows it has rendered. */
const ROUTES = (topicId: string, topicTitle: string): [string, (page: Page) => Promise<void>][] => [
  ['/', (page) => page.getByTestId('topic-row').first().waitFor()],
  [`/topics/${topicId}`, (page) => page.getByRole('heading', { level: 1, name: topicTitle }).waitFor()],
  ['/leaderboard', (page) => page.getByRole('heading', { level: 1, name: 'Leaderboard' }).waitFor()],
  ['/sources', (page) => page.getByRole('heading', { level: 1, name: 'Sources' }).waitFor()],
  ['/about', (page) => page.getByRole('heading', { level: 1, name: 'About Crux' }).waitFor()],
  ['/notifications', (page) => page.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor()],
  ['/terms', (page) => page.getByRole('heading', { level: 1, name: 'Terms and Conditions' }).waitFor()],
  ['/privacy', (page) => page.getByRole('heading', { level: 1, name: 'Privacy Policy' }).waitFor()],
];

beforeAll(async () => {
  await ensureBuild();
  [server, browser] = await Promise.all([startServer({ seedDemo: true }), launchBrowser()]);
  const topics = (await (await fetch(`${server.url}/api/topics?sort=new`)).json()) as { id: string; title: string }[];
  topic = topics[0]!;
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.stop();
});

describe('first load', () => {
  it('builds no dev-only chunk and precaches every chunk production loads (and nothing else)', () => {
    const assets = readdirSync(join(DIST, 'assets'));
    expect(assets.filter((name) => DEV_ONLY.test(name))).toEqual([]);
    const sw = readFileSync(join(DIST, 'sw.js'), 'utf8');
    const precached = [...sw.matchAll(/"url":"([^"]+)"/g)].map((m) => m[1]!);
    expect(precached.filter((url) => DEV_ONLY.test(url))).toEqual([]);
    expect(precached.filter((url) => /\.(?:br|gz)$/.test(url))).toEqual([]);
    for (const chunk of assets.filter((name) => /\.(?:js|css)$/.test(name))) expect(precached).toContain(`assets/${chunk}`);
    // The build wrote a .br and a .gz beside every script.
    for (const chunk of assets.filter((name) => name.endsWith('.js'))) {
      expect(assets).toContain(`${chunk}.br`);
      expect(assets).toContain(`${chunk}.gz`);
    }
  });

  it('/ paints from the entry: no other page chunk, compressed and immutable scripts', { timeout: 60_000 }, async () => {
    const context = await browser.newContext();
    const { page, errors } = await newPage(context);
    const scripts: { url: string; encoding: string | undefined; cacheControl: string | undefined }[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      const headers = response.headers();
      scripts.push({
        url: new URL(response.url()).pathname,
        encoding: headers['content-encoding'],
        cacheControl: headers['cache-control'],
      });
    });
    const document = await page.goto(server.url + '/');
    expect(document!.headers()['cache-control']).toBe('no-cache');
    await page.getByTestId('topic-row').first().waitFor();
    const names = scripts.map((s) => s.url);
    for (const lazy of ['TopicPage', 'LeaderboardPage', 'SourcesPage', 'AboutPage', 'NotificationsPage', 'Composer']) {
      expect(names.filter((name) => name.includes(lazy))).toEqual([]);
    }
    // No zod on the first screen: it builds every schema as its module runs, over a second of a phone's
    // main thread. The write checks load it on the first write (app/src/data/request-schemas.ts).
    const withZod = names
      .filter((name) => name.startsWith('/assets/'))
      .filter((name) => readFileSync(join(DIST, name), 'utf8').includes('$ZodType'));
    expect(withZod).toEqual([]);
    // The marker is real: the build has it, in the chunk the first write loads.
    expect(
      readdirSync(join(DIST, 'assets')).some(
        (name) => name.endsWith('.js') && readFileSync(join(DIST, 'assets', name), 'utf8').includes('$ZodType'),
      ),
    ).toBe(true);
    const assets = scripts.filter((s) => s.url.startsWith('/assets/'));
    expect(assets.length).toBeGreaterThan(0);
    for (const script of assets) {
      expect(script.encoding).toBe('br');
      expect(script.cacheControl).toBe('public, max-age=31536000, immutable');
    }
    // The topic page's chunk comes when the topic is opened.
    await page.getByTestId('topic-row').filter({ hasText: topic.title }).getByRole('link', { name: topic.title }).click();
    await page.getByRole('heading', { level: 1, name: topic.title }).waitFor();
    expect(scripts.some((s) => s.url.includes('TopicPage'))).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a first visit shows the rows its page came with before the data layer has loaded', { timeout: 90_000 }, async () => {
    // No service worker: it installs during the first page and claims it (clientsClaim), and a chunk it
    // answers from its precache never reaches page.route, so the hold below would not hold. A first
    // visit has no worker in front of it anyway.
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const { page } = await newPage(context);
    // The data layer's chunk (RxDB, Dexie, the replication) is held back: what shows came with the page.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/data-[^/]+\.js$/, async (route) => {
      await released;
      // The first page's request went away with its navigation; only the topic page's is still waiting.
      await route.continue().catch(() => undefined);
    });
    const api = (await (await fetch(`${server.url}/api/topics?sort=hot`)).json()) as { title: string }[];
    await page.goto(server.url + '/');
    await page.getByTestId('topic-row').first().waitFor();
    expect(await page.getByTestId('topic-row').getByRole('link').first().textContent()).toBe(api[0]!.title);
    expect(await page.getByTestId('topic-row').count()).toBe(api.length);

    const roots = (await (await fetch(`${server.url}/api/responses?topic_id=${topic.id}&limit=25`)).json()) as { content: string }[];
    await page.goto(`${server.url}/topics/${topic.id}`);
    await page.getByRole('heading', { level: 1, name: topic.title }).waitFor();
    if (roots.length > 0) await page.getByText(roots[0]!.content, { exact: true }).first().waitFor();

    // Once the data layer is there, the local store takes over: the page goes on working.
    const dataLayer = page.waitForResponse(/\/assets\/data-[^/]+\.js$/);
    release();
    expect((await dataLayer).ok()).toBe(true);
    // The topic's responses land in IndexedDB from the first pull.
    await page.waitForFunction(async () => (await indexedDB.databases()).some((db) => /responses/.test(db.name ?? '')), undefined, {
      timeout: 30_000,
    });
    await page.getByRole('heading', { level: 1, name: topic.title }).waitFor();
    await context.close();
  });

  it(
    "a first visit's topic page paints its title before its chunk is asked for, and nothing moves as the page arrives",
    { timeout: 90_000 },
    async () => {
      const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 390, height: 844 } });
      const { page } = await newPage(context);
      await page.addInitScript(() => {
        const shifts: number[] = [];
        (window as unknown as { cruxShifts: number[] }).cruxShifts = shifts;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
            if (!entry.hadRecentInput) shifts.push(entry.value);
          }
        }).observe({ type: 'layout-shift', buffered: true });
      });
      // A debate with responses (its page has a strongest case); its chunk is held back: what shows
      // came with the entry and the page's data.
      const topics = (await (await fetch(`${server.url}/api/topics?sort=hot`)).json()) as {
        id: string;
        title: string;
        responses_count: number;
      }[];
      const debate = topics.find((t) => t.responses_count > 0)!;
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let asked = false;
      await page.route(/\/assets\/TopicPage-[^/]+\.js$/, async (route) => {
        asked = true;
        await released;
        await route.continue().catch(() => undefined);
      });
      await page.goto(`${server.url}/topics/${debate.id}`);
      await page.getByRole('heading', { level: 1, name: debate.title }).waitFor();
      expect(await page.locator('main[aria-busy="true"] .topic-header h1').textContent()).toBe(debate.title);
      // Asked for only after that paint, and not shown yet.
      await expect.poll(() => asked, { timeout: 10_000 }).toBe(true);
      expect(await page.getByTestId('strongest-case').count()).toBe(0);
      release();
      // The page, with the strongest case drawn with it from the server's ranking.
      await page.locator('main#main:not([aria-busy])').waitFor();
      expect(await page.getByTestId('strongest-case').count()).toBe(1);
      // The data layer opens and pulls; the page stays where it is.
      await page.waitForFunction(async () => (await indexedDB.databases()).some((db) => /responses/.test(db.name ?? '')), undefined, {
        timeout: 30_000,
      });
      await page.waitForTimeout(1_000);
      expect(await page.evaluate(() => (window as unknown as { cruxShifts: number[] }).cruxShifts)).toEqual([]);
      await context.close();
    },
  );

  it('a revisit by address paints the topic from the page the service worker kept, online and offline', { timeout: 90_000 }, async () => {
    const context = await browser.newContext();
    const { page, errors } = await newPage(context);
    await page.goto(server.url + '/');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    const roots = (await (await fetch(`${server.url}/api/responses?topic_id=${topic.id}&limit=25`)).json()) as { content: string }[];
    expect(roots.length).toBeGreaterThan(0);
    // Through the worker: the server's page (its first screen in it) is answered and kept.
    await page.goto(`${server.url}/topics/${topic.id}`);
    await page.getByRole('heading', { level: 1, name: topic.title }).waitFor();
    const kept = () =>
      page.evaluate(async (path) => {
        for (const name of await caches.keys()) {
          if (!name.startsWith('crux-topic-pages-')) continue;
          const response = await (await caches.open(name)).match(path);
          if (response) return (await response.text()).includes('id="crux-first-page"');
        }
        return false;
      }, `/topics/${topic.id}`);
    await expect.poll(kept, { timeout: 10_000 }).toBe(true);
    // One cache of kept pages: this build's.
    expect(await page.evaluate(async () => (await caches.keys()).filter((n) => n.startsWith('crux-topic-pages-')).length)).toBe(1);

    // Offline, a new tab by address: the kept page carries the title and the first rows.
    await context.setOffline(true);
    const tab = await context.newPage();
    await tab.goto(`${server.url}/topics/${topic.id}`);
    expect(await tab.evaluate(() => document.getElementById('crux-first-page') !== null)).toBe(true);
    await tab.getByRole('heading', { level: 1, name: topic.title }).waitFor();
    await tab.getByText(roots[0]!.content, { exact: true }).first().waitFor();
    // A topic page never visited offline: the shell, which says what it can.
    await tab.goto(`${server.url}/topics/no-such-topic-here`);
    expect(await tab.evaluate(() => document.getElementById('crux-first-page'))).toBeNull();
    await tab.locator('header.site-header').waitFor();
    expect(errors.filter((e) => !/Failed to load resource|Failed to fetch/.test(e))).toEqual([]);
    await context.close();
  });

  it(
    'a kept topic page carries its first screen in its HTML: the rows paint with no script, where the app then renders them, and only for the data they came from',
    { timeout: 120_000 },
    async () => {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const { page, errors } = await newPage(context);
      await page.goto(server.url + '/');
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      const path = `/topics/${topic.id}`;
      const roots = (await (await fetch(`${server.url}/api/responses?topic_id=${topic.id}&limit=25`)).json()) as { content: string }[];
      /** Cache entries of kept pages: the pages, and the first screens kept beside them. */
      const keptEntries = () =>
        page.evaluate(async () => {
          const urls: string[] = [];
          for (const name of await caches.keys()) {
            if (name.startsWith('crux-topic-pages-')) urls.push(...(await (await caches.open(name)).keys()).map((r) => r.url));
          }
          return {
            pages: urls.filter((u) => !u.includes('crux-first-screen=')).length,
            screens: urls.filter((u) => u.includes('crux-first-screen=')).length,
          };
        });
      // The first visit through the worker gets the shell and keeps the page; the next renders from
      // the kept page and keeps that first render beside it.
      await page.goto(server.url + path);
      await page.getByRole('heading', { level: 1, name: topic.title }).waitFor();
      await expect.poll(async () => (await keptEntries()).pages, { timeout: 10_000 }).toBe(1);
      expect((await keptEntries()).screens).toBe(0);
      await page.goto(server.url + path);
      await page.getByRole('heading', { level: 1, name: topic.title }).waitFor();
      await expect.poll(async () => (await keptEntries()).screens, { timeout: 10_000 }).toBe(1);

      // Offline, with scripts off in the tab: the title and the first rows are in the page itself.
      await context.setOffline(true);
      const noScript = async () => {
        const tab = await context.newPage();
        await (await context.newCDPSession(tab)).send('Emulation.setScriptExecutionDisabled', { value: true });
        await tab.goto(server.url + path);
        return tab;
      };
      const bare = await noScript();
      await bare.getByRole('heading', { level: 1, name: topic.title }).waitFor();
      await bare.getByText(roots[0]!.content, { exact: true }).first().waitFor();
      const rows = bare.locator('ul.response-list[aria-label="Responses"] > li[data-testid="response"]');
      expect(await rows.count()).toBeGreaterThan(0);
      const keptTop = (await rows.first().boundingBox())!.y;
      await bare.close();

      // With scripts: the app's first render replaces those rows with its own, in the same place.
      const app = await context.newPage();
      await app.addInitScript(() => {
        const w = window as unknown as { __rowTops: number[] };
        w.__rowTops = [];
        let last: Element | null = null;
        new MutationObserver(() => {
          const row = document.querySelector('ul.response-list > li[data-testid="response"]');
          if (!row || row === last) return;
          last = row;
          w.__rowTops.push(row.getBoundingClientRect().top);
        }).observe(document, { childList: true, subtree: true });
      });
      await app.goto(server.url + path);
      await expect.poll(() => app.evaluate(() => (window as unknown as { __rowTops: number[] }).__rowTops.length)).toBeGreaterThan(1);
      const appTop = await app.evaluate(() => (window as unknown as { __rowTops: number[] }).__rowTops[1]!);
      expect(Math.abs(appTop - keptTop)).toBeLessThan(1);

      // A kept page whose data is not the one its screen was rendered from (refreshed, or changed
      // by a moderation) gets no screen: only what the page's own data says is ever shown.
      await app.evaluate(async (address) => {
        for (const name of await caches.keys()) {
          if (!name.startsWith('crux-topic-pages-')) continue;
          const cache = await caches.open(name);
          const kept = await cache.match(address);
          if (kept)
            await cache.put(
              address,
              new Response((await kept.text()).replace('"title":"', '"title":"Changed: '), { headers: kept.headers }),
            );
        }
      }, path);
      await app.close();
      const changed = await noScript();
      expect(await changed.evaluate(() => document.getElementById('crux-first-page') !== null)).toBe(true);
      expect(await changed.locator('#root > *').count()).toBe(0);
      await changed.close();
      expect(errors.filter((e) => !/Failed to load resource|Failed to fetch/.test(e))).toEqual([]);
      await context.close();
    },
  );

  it('every route opens in-app and by address', { timeout: 90_000 }, async () => {
    const context = await browser.newContext();
    const { page, errors } = await newPage(context);
    await page.goto(server.url + '/');
    await page.getByTestId('topic-row').first().waitFor();
    // In-app: the menu's links and a topic row.
    for (const [name, heading] of [
      ['About', 'About Crux'],
      ['Sources', 'Sources'],
      ['Terms', 'Terms and Conditions'],
    ] as const) {
      const burger = page.getByRole('button', { name: 'Menu' });
      if (await burger.isVisible()) await burger.click();
      await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name }).click();
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    }
    await page.getByRole('link', { name: 'Crux home' }).click();
    await page.getByRole('link', { name: topic.title }).click();
    await page.getByRole('heading', { level: 1, name: topic.title }).waitFor();
    // By address: each route's chunk loads on its own.
    for (const [path, rendered] of ROUTES(topic.id, topic.title)) {
      await page.goto(server.url + path);
      await rendered(page);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('after one visit of / every route opens offline (the lazy chunks are precached)', { timeout: 90_000 }, async () => {
    const context = await browser.newContext();
    const { page, errors } = await newPage(context);
    await page.goto(server.url + '/');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await page.getByTestId('topic-row').first().waitFor();
    // The topic's responses are kept once it was opened; the other pages need nothing from the server.
    await page.getByRole('link', { name: topic.title }).click();
    await page.getByRole('heading', { level: 1, name: topic.title }).waitFor();
    await context.setOffline(true);
    for (const [path, rendered] of ROUTES(topic.id, topic.title)) {
      await page.goto(server.url + path);
      await rendered(page);
    }
    expect(errors.filter((e) => !/Failed to load resource|Failed to fetch/.test(e))).toEqual([]);
    await context.close();
  });
});
