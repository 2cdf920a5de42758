// A phone keeps what its screens showed, not the site: in real Chromium it browses the list online
// (two pages), opens a topic, then goes offline. The list then shows the topics saved on this device
// and says how many; the topic opened before reads offline; a topic never shown is not there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiClient } from '../fixtures/api';
import { createTestUser, type TestUser } from '../fixtures/auth';
import { ensureBuild, launchBrowser, newPage, screenshot, startServer, type RunningServer } from './harness';

let server: RunningServer;
let browser: Browser;
let dana: TestUser;
const TOPICS = 45;

beforeAll(async () => {
  await ensureBuild();
  [server, browser, dana] = await Promise.all([startServer(), launchBrowser(), createTestUser('Dana Seeder')]);
  const api = apiClient(server.url, () => dana.token);
  for (let i = 1; i <= TOPICS; i++) {
    const res = await api.post('/topics', { title: `Kept question number ${String(i).padStart(2, '0')}`, categories: ['Science'] });
    expect(res.status).toBe(201);
  }
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.stop();
});

const rows = (page: Page) => page.locator('[data-testid="topic-row"]');
const rowTitles = (page: Page) => page.locator('[data-testid="topic-row"] .topic-row-title').allTextContents();

describe('what a phone keeps', () => {
  it('browses online, goes offline, and sees the topics it was shown with a note', { timeout: 120_000 }, async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const { page } = await newPage(context);
    await page.goto(server.url + '/');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await rows(page).nth(19).waitFor();
    // Online the list is the server's: no note.
    expect(await page.getByText(/saved on this device/).count()).toBe(0);
    await page.getByTestId('list-sentinel').scrollIntoViewIfNeeded();
    await rows(page).nth(39).waitFor();
    const seen = await rowTitles(page);
    expect(new Set(seen).size).toBe(40);
    // Open one topic, then back to the list.
    const opened = seen[5]!;
    await page.locator('[data-testid="topic-row"] .topic-row-title', { hasText: opened }).click();
    await page.getByRole('heading', { level: 1, name: opened }).waitFor();

    await context.setOffline(true);
    await page.goto(server.url + '/');
    await page.getByText('Showing the 40 topics saved on this device').waitFor({ timeout: 20_000 });
    await screenshot(page, 'offline-saved-on-device');
    await rows(page).nth(19).waitFor();
    await page.getByTestId('list-sentinel').scrollIntoViewIfNeeded();
    await rows(page).nth(39).waitFor();
    const offline = await rowTitles(page);
    expect(new Set(offline)).toEqual(new Set(seen));
    // Never shown online: not on the device.
    const never = Array.from({ length: TOPICS }, (_, i) => `Kept question number ${String(i + 1).padStart(2, '0')}`).filter(
      (title) => !seen.includes(title),
    );
    expect(never).toHaveLength(TOPICS - 40);
    for (const title of never) expect(offline).not.toContain(title);
    // The topic opened before reads offline.
    await page.locator('[data-testid="topic-row"] .topic-row-title', { hasText: opened }).click();
    await page.getByRole('heading', { level: 1, name: opened }).waitFor();
    await context.close();
  });
});
