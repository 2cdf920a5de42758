// Sources, static pages and not-found in real Chromium: the sources filter and links (to the
// source, opened safely, and to the citing response), About/Terms/Privacy offline after one
// visit, an unknown route, and /robots.txt and /sitemap.xml served as what they are.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser } from 'playwright-core';
import { apiClient } from '../fixtures/api';
import { createTestUser, type TestUser } from '../fixtures/auth';
import { makeResponse, makeTopic } from '../fixtures/builders';
import { ensureBuild, launchBrowser, newPage, screenshot, startServer, type RunningServer } from './harness';
import { AXE_SCREENS, axeViolations } from './axe';

let server: RunningServer;
let browser: Browser;
let ada: TestUser;

beforeAll(async () => {
  await ensureBuild();
  [server, browser, ada] = await Promise.all([startServer(), launchBrowser(), createTestUser('Ada Pages')]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.stop();
});

describe('pages', () => {
  it('/sources filters and links to the source and to the citing response', { timeout: 60_000 }, async () => {
    const api = apiClient(server.url, () => ada.token);
    const topic = await makeTopic(api, { title: 'Is wind power reliable?' });
    const response = await makeResponse(api, {
      topic_id: topic.id,
      content: 'Capacity factors say yes.',
      sources: [
        { url: 'https://windeurope.example/stats', name: 'WindEurope statistics', description: 'Capacity factors by country' },
        { url: 'https://solar.example/report', name: 'Solar outlook' },
      ],
    });
    const context = await browser.newContext();
    const { page, errors } = await newPage(context);
    await page.goto(server.url + '/sources');
    await page.getByRole('heading', { level: 1, name: 'Sources' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Solar outlook' }).waitFor();
    await page.getByRole('searchbox', { name: 'Filter sources' }).fill('capacity');
    await page.getByRole('heading', { level: 2, name: 'Solar outlook' }).waitFor({ state: 'detached' });
    const item = page.locator('.sources-item').filter({ hasText: 'WindEurope statistics' });
    await item.waitFor();
    const external = item.getByRole('link', { name: /windeurope\.example/ });
    expect(await external.getAttribute('target')).toBe('_blank');
    expect(await external.getAttribute('rel')).toBe('noopener noreferrer');
    await page.getByRole('searchbox', { name: 'Filter sources' }).fill('no such source anywhere');
    await page.getByText('No sources match "no such source anywhere".').waitFor();
    await page.getByRole('searchbox', { name: 'Filter sources' }).fill('windeurope');
    await item.getByRole('link', { name: 'Is wind power reliable?' }).click();
    await page.waitForURL(`**/topics/${topic.id}#response-${response.id}`);
    await page.getByRole('heading', { level: 1, name: 'Is wind power reliable?' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a source cited by many responses pages through all of them', { timeout: 60_000 }, async () => {
    const api = apiClient(server.url, () => ada.token);
    const topic = await makeTopic(api, { title: 'Are heat pumps worth it?' });
    for (let n = 1; n <= 7; n++) {
      await makeResponse(api, {
        topic_id: topic.id,
        content: `Point ${n} from the field study.`,
        sources: [{ url: 'https://heatpumps.example/field-study', name: 'Heat pump field study' }],
      });
    }
    const context = await browser.newContext();
    const { page, errors } = await newPage(context);
    await page.goto(server.url + '/sources');
    await page.getByRole('searchbox', { name: 'Filter sources' }).fill('heat pump field');
    const item = page.locator('.sources-item').filter({ hasText: 'Heat pump field study' });
    await item.getByText('Cited in 7 responses:').waitFor();
    const citing = item.getByRole('link', { name: 'Are heat pumps worth it?' });
    expect(await citing.count()).toBeLessThan(7);
    await item.getByRole('button', { name: /^Show \d+ more responses?$/ }).click();
    await expect.poll(() => citing.count()).toBe(7);
    expect(await item.getByRole('button', { name: /^Show \d+ more/ }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  // At 390 px and (axe on changed screens on desktops too: About's "How Crux works",
  // Privacy's Support sentence) at 1280 px.
  it(
    'has no axe violations on sources, About, Terms, Privacy and not-found, light and dark, at 390 and 1280 px',
    { timeout: 150_000 },
    async () => {
      for (const { colorScheme, viewport } of AXE_SCREENS) {
        const width = viewport.width;
        const context = await browser.newContext({ colorScheme, viewport });
        const { page } = await newPage(context);
        for (const [path, heading] of [
          ['/sources', 'Sources'],
          ['/about', /About/],
          ['/terms', /Terms/],
          ['/privacy', /Privacy/],
          ['/no/such/page', /not found/i],
        ] as const) {
          await page.goto(server.url + path);
          await page.getByRole('heading', { level: 1, name: heading }).waitFor();
          if (path === '/sources') await page.locator('.sources-item').first().waitFor();
          expect(await axeViolations(page), `${path} ${colorScheme} ${width}`).toEqual([]);
          expect(await page.evaluate(() => document.documentElement.scrollWidth), `${path} ${colorScheme} ${width}`).toBeLessThanOrEqual(
            width,
          );
          if (path === '/sources' && width === 390) await screenshot(page, `sources-${colorScheme}`);
        }
        await context.close();
      }
    },
  );

  it('About, Terms and Privacy render offline after one visit', { timeout: 60_000 }, async () => {
    const context = await browser.newContext();
    const { page } = await newPage(context);
    const pages = [
      ['/about', 'About Crux', 'What it is for'],
      ['/terms', 'Terms and Conditions', 'people under 16 are not intended users'],
      ['/privacy', 'Privacy Policy', 'Requests are answered within one month.'],
    ] as const;
    await page.goto(server.url + '/');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    for (const [path, heading] of pages) {
      await page.goto(server.url + path);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    }
    await context.setOffline(true);
    for (const [path, heading, text] of pages) {
      await page.goto(server.url + path);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await page.getByText(text).first().waitFor();
      if (path !== '/about') await page.getByText('Last updated: July 19, 2025').waitFor();
    }
    await context.close();
  });

  it('an unknown route has a heading and a way home', { timeout: 30_000 }, async () => {
    const context = await browser.newContext();
    const { page } = await newPage(context);
    await page.goto(server.url + '/no/such/page');
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    await page
      .getByRole('main')
      .getByRole('link', { name: /Back to Topics/ })
      .click();
    await page.waitForURL(server.url + '/');
    await context.close();
  });

  it('/robots.txt and /sitemap.xml are text/plain and application/xml, even with the service worker', { timeout: 30_000 }, async () => {
    const context = await browser.newContext();
    const { page } = await newPage(context);
    await page.goto(server.url + '/');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    const robots = await page.goto(server.url + '/robots.txt');
    expect(robots?.headers()['content-type']).toMatch(/^text\/plain/);
    expect(await robots?.text()).toContain('User-agent: *');
    const sitemap = await page.goto(server.url + '/sitemap.xml');
    expect(sitemap?.headers()['content-type']).toMatch(/^application\/xml/);
    expect(await sitemap?.text()).toContain('<urlset');
    await context.close();
  });
});
