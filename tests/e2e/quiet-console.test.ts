// A quiet console in Chromium on the production build: a walk through the main screens (topic list, a
// topic with its Strongest case, Opinion groups and Debate map open, and signed in Follow and the
// @mention list too, the leaderboard, a missing user's page, a real user's page), signed out and then
// signed in, leaves the console without a single error and without RxDB's "Open Core" notice. The
// missing user's page says so without a failed request (the browser logs every 404 as an error).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleMessage, Page } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { createTestUser, type TestUser } from '../fixtures/auth';
import { ensureBuild, launchBrowser, startServer, type RunningServer } from './harness';
import { signInThroughModal } from './flows';

let server: RunningServer;
let browser: Browser;
let ida: TestUser;

beforeAll(async () => {
  await ensureBuild();
  [server, browser, ida] = await Promise.all([startServer({ seedDemo: true }), launchBrowser(), createTestUser('Ida Quiet')]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.stop();
});

/**
 * Every console line of the page (any level), uncaught errors and answers of 400 or more. (Requests
 * a navigation cancels are not failures the browser logs, so they are not recorded.)
 */
function recordConsole(page: Page) {
  const lines: string[] = [];
  page.on('console', (m: ConsoleMessage) => lines.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => lines.push(`pageerror: ${e.message}`));
  page.on('response', (r) => {
    if (r.status() >= 400) lines.push(`http ${r.status()}: ${r.url()}`);
  });
  return lines;
}

async function walk(page: Page, signedIn: boolean) {
  await page.goto(server.url + '/');
  const firstRow = page.getByTestId('topic-row').first();
  await firstRow.waitFor();
  // The data layer opens and writes (the notice came with the first writes).
  await page.waitForFunction(async () => (await indexedDB.databases()).some((db) => /topics/.test(db.name ?? '')), undefined, {
    timeout: 30_000,
  });

  await firstRow.getByRole('link').first().click();
  await page.waitForURL(/\/topics\/[^/]+$/);
  await page.getByTestId('response').first().waitFor();
  const author = page.getByTestId('response').first().locator('.response-meta a').first();
  const authorPath = await author.getAttribute('href');
  // The topic page's later controls make requests of their own: the Opinion groups and Debate map
  // panels, the Strongest case; signed in, Follow and the composer's @mention suggestions too.
  await page.getByRole('region', { name: 'Strongest case on each side' }).waitFor();
  for (const name of ['Opinion groups', 'Debate map']) {
    await page.getByRole('button', { name, exact: true }).click();
    await page.getByRole('region', { name }).waitFor();
  }
  if (signedIn) {
    const follow = page.getByTestId('follow-button');
    await expect.poll(() => follow.isEnabled()).toBe(true);
    await follow.click();
    await expect.poll(() => follow.getAttribute('aria-pressed')).toBe('true');
    await follow.click();
    await expect.poll(() => follow.getAttribute('aria-pressed')).toBe('false');
    const box = page.getByRole('form', { name: 'Add a response' }).getByRole('textbox', { name: 'Your response' });
    await box.click();
    await page.keyboard.type('As @Ba');
    await page.getByRole('listbox', { name: 'People to mention' }).waitFor();
    await page.keyboard.press('Escape');
    await box.fill('');
  }

  await page.goto(server.url + '/leaderboard');
  await page.getByRole('heading', { level: 1, name: /Leaderboard/ }).waitFor();

  await page.goto(server.url + '/users/nobody');
  await page.getByRole('heading', { level: 1, name: 'User not found.' }).waitFor();

  expect(authorPath).toMatch(/^\/users\//);
  await page.goto(server.url + authorPath!);
  await page.getByRole('heading', { level: 1 }).filter({ hasNotText: 'User not found.' }).waitFor();
  // Let late writes and replication settle before reading the console.
  await page.waitForTimeout(1500);
}

describe('a quiet production console', () => {
  it('walking the main screens logs no error and no RxDB Open Core notice, signed out and signed in', { timeout: 150_000 }, async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(25_000);
    const lines = recordConsole(page);

    await walk(page, false);
    await page.goto(server.url + '/');
    await signInThroughModal(page, ida);
    await walk(page, true);

    const shown = lines.join('\n');
    expect(
      lines.filter((line) => /^(error|pageerror|http \d+)/.test(line)),
      shown,
    ).toEqual([]);
    expect(
      lines.filter((line) => /Open Core/.test(line)),
      shown,
    ).toEqual([]);
    await context.close();
  });
});
