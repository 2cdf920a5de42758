// In Chromium, on a 390×844 phone and a 1280×800 desktop: the debate map fits its panel
// (nothing overflows the frame or the page), reads without hovering (labels beside the nodes), has
// a legend, gives every node a hit area of at least 44 × 44 px, and a node still opens its
// response in the thread; axe clean with the map open, light and dark.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContextOptions } from 'playwright-core';
import type { Response, Topic } from '../../shared/types';
import { apiClient } from '../fixtures/api';
import { createTestUser, type TestUser } from '../fixtures/auth';
import { ensureBuild, launchBrowser, newPage, screenshot, startServer, type RunningServer } from './harness';
import { responseItem } from './flows';
import { axeViolations } from './axe';

let server: RunningServer;
let browser: Browser;
let ada: TestUser;
let topicId: string;

const DEEP = 'A reply two levels down that says rather more than a label can hold on a phone';

beforeAll(async () => {
  await ensureBuild();
  [server, browser, ada] = await Promise.all([startServer(), launchBrowser(), createTestUser('Ada Maps')]);
  const api = apiClient(server.url, () => ada.token);
  const topic = (await api.post<Topic>('/topics', { title: 'Should cities ban cars from their centres?', categories: ['Other'] })).body;
  topicId = topic.id;
  const post = async (body: Record<string, unknown>) => (await api.post<Response>('/responses', body)).body;
  const a = await post({ topic_id: topicId, type: 'for', content: 'Streets without cars are safer for children walking to school.' });
  const b = await post({ topic_id: topicId, type: 'against', content: 'Deliveries and trades still need to reach every door.' });
  await post({ topic_id: topicId, type: 'neutral', content: 'It depends on how good the buses are.' });
  const c = await post({ parent_response_id: a.id, type: 'against', content: 'Children can be taught road safety instead.' });
  await post({ parent_response_id: a.id, type: 'for', content: 'Fewer cars also means cleaner air.' });
  await post({ parent_response_id: b.id, type: 'neutral', content: 'Cargo bikes can do many deliveries.' });
  await post({ parent_response_id: c.id, type: 'for', content: DEEP });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.stop();
});

const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };

describe('the debate map reads', () => {
  it.each([
    ['phone', PHONE, 390],
    ['desktop', DESKTOP, 1280],
  ] as const)(
    'on a %s: fits its panel, labelled, with a legend and thumb-sized nodes',
    { timeout: 120_000 },
    async (name, options, width) => {
      const context = await browser.newContext(options);
      const { page, errors } = await newPage(context);
      await page.goto(`${server.url}/topics/${topicId}`);
      await responseItem(page, 'Streets without cars are safer for children walking to school.').waitFor();
      await page.getByRole('button', { name: 'Debate map', exact: true }).click();
      const panel = page.getByRole('region', { name: 'Debate map' });
      const picture = panel.getByRole('group', { name: 'Debate map: 7 responses' });
      await picture.waitFor();

      // Fits: the picture inside its frame (nothing to scroll at 100%), the page no wider than the screen.
      const fit = await page.evaluate(() => {
        const frame = document.querySelector<HTMLElement>('.debate-map-frame')!;
        const svg = frame.querySelector('svg')!.getBoundingClientRect();
        const box = frame.getBoundingClientRect();
        return {
          svgWidth: svg.width,
          svgHeight: svg.height,
          frameWidth: frame.clientWidth,
          frameHeight: frame.clientHeight,
          scrollWidth: frame.scrollWidth,
          scrollHeight: frame.scrollHeight,
          inside: svg.left >= box.left && svg.right <= box.right && svg.top >= box.top && svg.bottom <= box.bottom,
          pageWidth: document.documentElement.scrollWidth,
        };
      });
      expect(fit.inside, JSON.stringify(fit)).toBe(true);
      expect(fit.scrollWidth, JSON.stringify(fit)).toBeLessThanOrEqual(fit.frameWidth);
      expect(fit.scrollHeight, JSON.stringify(fit)).toBeLessThanOrEqual(fit.frameHeight);
      expect(fit.pageWidth).toBeLessThanOrEqual(width);
      // It fills the frame: one of its sides meets the frame's (the fit), within a few px.
      expect(Math.min(fit.frameWidth - fit.svgWidth, fit.frameHeight - fit.svgHeight)).toBeLessThanOrEqual(3);

      await screenshot(page, `debate-map-${name}`);
      // Labels beside the nodes, shown without hovering, each a readable size on screen.
      const labels = picture.locator('.debate-map-label');
      expect(await labels.count()).toBe(7);
      for (const label of await labels.all()) {
        expect(await label.isVisible()).toBe(true);
        expect((await label.boundingBox())!.height).toBeGreaterThanOrEqual(10);
      }
      // Each the start of its response's text: longer on a desktop, shorter on a phone.
      const texts = await labels.allTextContents();
      const contents = [
        'Streets without cars are safer for children walking to school.',
        'Deliveries and trades still need to reach every door.',
        'It depends on how good the buses are.',
        'Children can be taught road safety instead.',
        'Fewer cars also means cleaner air.',
        'Cargo bikes can do many deliveries.',
        DEEP,
      ];
      for (const text of texts) {
        const start = text.replace(/…$/, '');
        expect(start.length, text).toBeGreaterThanOrEqual(name === 'desktop' ? 20 : 8);
        expect(
          contents.some((content) => content.startsWith(start)),
          text,
        ).toBe(true);
      }

      // A legend: the three reply types' colours, and what size and Δ mean.
      const legend = panel.getByRole('list', { name: 'Map legend' });
      expect(await legend.isVisible()).toBe(true);
      for (const text of ['Agree', 'Disagree', 'Discuss', 'Bigger circle: higher score']) {
        expect(await legend.getByRole('listitem').filter({ hasText: text }).first().isVisible(), text).toBe(true);
      }

      // Every node's hit area is at least 44 × 44 px on screen.
      const nodes = picture.getByRole('button');
      expect(await nodes.count()).toBe(7);
      for (const node of await nodes.all()) {
        const hit = (await node.locator('.debate-map-hit').boundingBox())!;
        expect(Math.round(hit.width), name).toBeGreaterThanOrEqual(44);
        expect(Math.round(hit.height), name).toBeGreaterThanOrEqual(44);
      }

      await screenshot(page, `debate-map-${name}`);
      expect(await axeViolations(page), `${name}, map open, light`).toEqual([]);
      await page.emulateMedia({ colorScheme: 'dark' });
      expect(await axeViolations(page), `${name}, map open, dark`).toEqual([]);
      await page.emulateMedia({ colorScheme: 'light' });

      // A tap or click on a node opens its response in the thread, two levels down.
      const node = picture.getByRole('button', { name: new RegExp(`^Open response: Agrees: ${DEEP.slice(0, 30)}`) });
      await node.scrollIntoViewIfNeeded();
      const hit = (await node.locator('.debate-map-hit').boundingBox())!;
      // At the hit area's edge, outside the drawn circle: the larger target is what takes it.
      const x = hit.x + hit.width / 2;
      const y = hit.y + 3;
      if (options.hasTouch) await page.touchscreen.tap(x, y);
      else await page.mouse.click(x, y);
      const deep = responseItem(page, DEEP);
      await deep.waitFor();
      await expect.poll(() => deep.getAttribute('class')).toContain('is-highlighted');

      expect(errors).toEqual([]);
      await context.close();
    },
  );
});
