// In real Chromium against the real server, on a 390×844 phone: the strongest
// case on each side renders from the device's copy, moves when a vote arrives, and renders again
// offline after a reload; keyboard and axe (light and dark) are clean; offline, the composer's
// "This was already said" hint appears for a near-copy of a response and not for an unrelated text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiClient } from '../fixtures/api';
import { createTestUser, type TestUser } from '../fixtures/auth';
import { axeViolations } from './axe';
import { ensureBuild, launchBrowser, newPage, screenshot, startServer, type RunningServer } from './harness';
import { waitForTopicOnDevice } from './flows';

let server: RunningServer;
let browser: Browser;
let ada: TestUser;
let bob: TestUser;
let cy: TestUser;
let dan: TestUser;
let eve: TestUser;
const SYNCED = { timeout: 20_000 };
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

beforeAll(async () => {
  await ensureBuild();
  [server, browser, ada, bob, cy, dan, eve] = await Promise.all([
    startServer(),
    launchBrowser(),
    createTestUser('Ada Author'),
    createTestUser('Bob Agrees'),
    createTestUser('Cy Disagrees'),
    createTestUser('Dan Agrees'),
    createTestUser('Eve Disagrees'),
  ]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.stop();
});

const as = (user: TestUser) => apiClient(server.url, () => user.token);

async function respond(topicId: string, type: 'for' | 'against' | 'neutral', content: string): Promise<string> {
  const res = await as(ada).post('/responses', { topic_id: topicId, type, content, parent_response_id: null });
  expect(res.status, res.text).toBe(201);
  return (res.body as { id: string }).id;
}

async function upvote(user: TestUser, responseId: string) {
  expect((await as(user).post('/upvotes', { target_type: 'response', target_id: responseId })).status).toBeLessThan(300);
}

const TITLE = 'Should cities make public transport free?';
const FREQUENT = 'Buses every five minutes bring riders back far more than any fare cut does.';
const POORER = 'Free fares help poorer families most, because a ticket is a big share of a small budget.';
const FUNDING = 'Fares fund a large share of operating costs, and without them service frequency is the first thing cut.';
const TOURISTS = 'Visitors would ride for free too, and the city pays for tourists who pay no local taxes.';
const QUESTION = 'What do the drivers’ unions think about this proposal?';

const panel = (page: Page) => page.getByRole('region', { name: 'Strongest case on each side' });
const sideTexts = (page: Page, name: string) => panel(page).getByRole('list', { name }).getByRole('link').allTextContents();

describe('the strongest case and "already said"', () => {
  it(
    'renders the best of each side, moves live, survives an offline reload, and hints at a repeated point',
    { timeout: 180_000 },
    async () => {
      const created = await as(ada).post('/topics', { title: TITLE, categories: ['Politics'] });
      expect(created.status, created.text).toBe(201);
      const topicId = (created.body as { id: string }).id;
      // Two on each side; stances first, so each upvote counts on its voter's side.
      for (const [user, stance] of [
        [bob, 'agree'],
        [dan, 'agree'],
        [cy, 'disagree'],
        [eve, 'disagree'],
      ] as const)
        expect((await as(user).put(`/topics/${topicId}/stance`, { stance })).status).toBe(200);
      const frequent = await respond(topicId, 'for', FREQUENT);
      const poorer = await respond(topicId, 'for', POORER);
      const funding = await respond(topicId, 'against', FUNDING);
      const tourists = await respond(topicId, 'against', TOURISTS);
      const question = await respond(topicId, 'neutral', QUESTION);
      // Both agree-ers and one disagree-er approve FREQUENT; one agree-er POORER; both disagree-ers FUNDING.
      for (const [user, id] of [
        [bob, frequent],
        [dan, frequent],
        [cy, frequent],
        [bob, poorer],
        [cy, funding],
        [eve, funding],
        // Everyone likes the question, but it argues for no side.
        [bob, question],
        [cy, question],
        [dan, question],
        [eve, question],
      ] as const)
        await upvote(user, id);

      const context = await browser.newContext(PHONE);
      const { page, errors } = await newPage(context);
      await page.goto(`${server.url}/topics/${topicId}`);
      await page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
      await panel(page).waitFor({ timeout: 20_000 });
      await expect.poll(() => sideTexts(page, 'Best arguments for'), SYNCED).toEqual([FREQUENT, POORER]);
      expect(await sideTexts(page, 'Best arguments against')).toEqual([FUNDING]);

      // Live: a vote elsewhere reaches this device and the list moves.
      await upvote(eve, tourists);
      await expect.poll(() => sideTexts(page, 'Best arguments against'), SYNCED).toEqual([FUNDING, TOURISTS]);

      // Phone layout: the two sides one above the other, nothing wider than the screen.
      const layout = await page.evaluate(() => {
        const [forSide, againstSide] = [...document.querySelectorAll('.strongest-case-side')].map((el) => el.getBoundingClientRect());
        return { stacked: forSide!.bottom <= againstSide!.top, width: document.documentElement.scrollWidth };
      });
      expect(layout).toEqual({ stacked: true, width: 390 });
      await screenshot(page, 'strongest-case-phone');

      // Keyboard: the heading's button folds it and opens it again; the links are in the tab order.
      const toggle = panel(page).getByRole('button', { name: 'Strongest case on each side' });
      await toggle.focus();
      await page.keyboard.press('Enter');
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      expect(await panel(page).getByRole('list', { name: 'Best arguments for' }).count()).toBe(0);
      await page.keyboard.press('Space');
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(FREQUENT);
      // A link opens its response in the thread.
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator(`#response-${frequent}`).getAttribute('class')).toContain('is-highlighted');

      expect(await axeViolations(page)).toEqual([]);
      await page.emulateMedia({ colorScheme: 'dark' });
      expect(await axeViolations(page)).toEqual([]);
      await page.emulateMedia({ colorScheme: 'light' });

      // Offline, after a reload: the same lists, from the device's copy.
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      await waitForTopicOnDevice(page, topicId);
      await context.setOffline(true);
      await page.reload();
      await page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
      await expect.poll(() => sideTexts(page, 'Best arguments for'), SYNCED).toEqual([FREQUENT, POORER]);
      expect(await sideTexts(page, 'Best arguments against')).toEqual([FUNDING, TOURISTS]);

      // "This was already said", offline: nothing for an unrelated point...
      const form = page.getByRole('form', { name: 'Add a response' });
      const box = form.getByLabel('Your response');
      const hint = form.getByRole('region', { name: 'This was already said' });
      await box.fill('Night buses matter more to shift workers than whatever the daytime ticket costs.');
      await page.waitForTimeout(1_500); // past the pause (600 ms): a hint would have shown
      expect(await hint.count()).toBe(0);
      // ...and the response a near-copy repeats, with its two ways out.
      await box.fill('Without fares, which fund a big share of the operating costs, service frequency gets cut first.');
      await hint.waitFor({ timeout: 10_000 });
      const item = hint.getByRole('listitem').first();
      expect(await item.getAttribute('data-response-id')).toBe(funding);
      await item.getByRole('button', { name: 'Upvote it instead' }).waitFor();
      await item.getByRole('button', { name: 'Reply to it' }).waitFor();
      await screenshot(page, 'already-said-phone');
      expect(await axeViolations(page)).toEqual([]);
      await page.emulateMedia({ colorScheme: 'dark' });
      expect(await axeViolations(page)).toEqual([]);
      await page.emulateMedia({ colorScheme: 'light' });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);

      // "Reply to it": the point moves into that response's reply box, where the keyboard lands.
      const moved = await box.inputValue();
      await item.getByRole('button', { name: 'Reply to it' }).click();
      const replyBox = page.locator(`#response-${funding}`).getByRole('form', { name: 'Reply' }).getByLabel('Your response');
      await expect.poll(() => replyBox.inputValue()).toBe(moved);
      await expect.poll(() => replyBox.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await box.inputValue()).toBe('');

      await context.setOffline(false);
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});
