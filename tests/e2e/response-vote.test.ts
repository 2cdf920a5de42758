// A response's vote in real Chromium on a phone viewport: "Your vote" with ▲ Agree (the upvote),
// ▼ Disagree and Pass, apart from the Reply buttons, each a labelled 44 px target; a disagree is
// saved, reaches the server, and is still chosen after a reload.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { apiClient } from '../fixtures/api';
import { createTestUser, type TestUser } from '../fixtures/auth';
import { makeResponse, makeTopic } from '../fixtures/builders';
import { ensureBuild, launchBrowser, newPage, startServer, type RunningServer } from './harness';
import { responseItem, signInThroughModal } from './flows';

let server: RunningServer;
let browser: Browser;
let ada: TestUser;
let bob: TestUser;
const SYNCED = { timeout: 15_000, interval: 200 };

beforeAll(async () => {
  await ensureBuild();
  [server, browser, ada, bob] = await Promise.all([
    startServer(),
    launchBrowser(),
    createTestUser('Ada Voter'),
    createTestUser('Bob Writer'),
  ]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.stop();
});

describe('a response vote', () => {
  it('offers agree, disagree and pass as one labelled control, and a disagree persists', { timeout: 120_000 }, async () => {
    const bobApi = apiClient(server.url, bob.token);
    const topic = await makeTopic(bobApi, { title: 'Should parks stay open at night?' });
    const response = await makeResponse(bobApi, { topic_id: topic.id, content: 'Lit parks are safer parks.' });
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    const { page, errors } = await newPage(context);
    await page.goto(`${server.url}/`);
    await page.getByRole('button', { name: 'Menu' }).tap();
    await signInThroughModal(page, ada);
    await page.goto(`${server.url}/topics/${topic.id}`);

    const row = responseItem(page, 'Lit parks are safer parks.').locator('> article');
    const vote = row.getByRole('group', { name: 'Your vote on response: Lit parks are safer parks.' });
    await vote.waitFor();
    expect(await vote.textContent()).toMatch(/Your vote.*Agree.*Disagree.*Pass/);
    const agree = vote.getByRole('button', { name: 'Upvote response: Lit parks are safer parks.' });
    const disagree = vote.getByRole('button', { name: 'Vote disagree with response: Lit parks are safer parks.' });
    const pass = vote.getByRole('button', { name: 'Vote pass on response: Lit parks are safer parks. (read, no opinion)' });
    for (const button of [agree, disagree, pass]) {
      const box = (await button.boundingBox())!;
      expect(box.height).toBeGreaterThanOrEqual(44);
      expect(box.width).toBeGreaterThanOrEqual(44);
      expect(await button.getAttribute('aria-pressed')).toBe('false');
    }
    // The Reply buttons are another control: their names stay the reply types.
    expect(await row.getByRole('group', { name: 'Reply' }).getByRole('button', { name: 'Disagree', exact: true }).count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    await disagree.tap();
    await expect.poll(() => disagree.getAttribute('aria-pressed')).toBe('true');
    const api = apiClient(server.url, ada.token);
    await expect
      .poll(async () => (await api.get(`/responses/${response.id}`)).body, SYNCED)
      .toMatchObject({ user_has_downvoted: true, user_has_upvoted: false, score: 0 });

    // Keyboard: Pass replaces the disagree.
    await pass.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => pass.getAttribute('aria-pressed')).toBe('true');
    expect(await disagree.getAttribute('aria-pressed')).toBe('false');
    await disagree.tap();
    await expect.poll(async () => (await api.get(`/responses/${response.id}`)).body, SYNCED).toMatchObject({ user_has_downvoted: true });

    await page.reload();
    const again = responseItem(page, 'Lit parks are safer parks.')
      .locator('> article')
      .getByRole('button', { name: 'Vote disagree with response: Lit parks are safer parks.' });
    await expect.poll(() => again.getAttribute('aria-pressed'), SYNCED).toBe('true');
    expect(errors, 'console errors').toEqual([]);
    await context.close();
  });
});
