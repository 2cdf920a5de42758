// Trust in real Chromium with persistent profiles: what is typed in the composer is never lost
// (drafts come back after a reload and a cold start, online and offline), never shown to the next
// person on the device, and a signed-out visitor's reply is posted once, after signing in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiClient } from '../fixtures/api';
import { createTestUser, type TestUser } from '../fixtures/auth';
import { CHROME_ARGS, ensureBuild, launchBrowser, newPage, screenshot, startServer, type RunningServer } from './harness';
import { logOut, signInThroughModal } from './flows';

let server: RunningServer;
let browser: Browser;
let ada: TestUser;
let bob: TestUser;

const CHROME = { executablePath: process.env.CHROME_BIN ?? '/usr/bin/chromium', headless: true, args: CHROME_ARGS };
/** Longer than the composer's save delay (400 ms): what a start-up might overwrite would have been. */
const PAST_SAVE_DELAY_MS = 1_200;

beforeAll(async () => {
  await ensureBuild();
  [server, browser, ada, bob] = await Promise.all([
    startServer(),
    launchBrowser(),
    createTestUser('Ada Drafts'),
    createTestUser('Bob Next'),
  ]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.stop();
});

async function newTopic(title: string): Promise<string> {
  const res = await apiClient(server.url, ada.token).post('/topics', { title, categories: ['Other'] });
  expect(res.status).toBe(201);
  return (res.body as { id: string }).id;
}

function rootBox(page: Page) {
  return page.getByRole('form', { name: 'Add a response' }).getByLabel('Your response');
}

/** What the person sees once the text is stored on the device: "Draft saved". */
async function draftSaved(page: Page) {
  await page.getByRole('form', { name: 'Add a response' }).getByText('Draft saved', { exact: true }).waitFor({ timeout: 20_000 });
}

async function withProfile(run: (profile: string) => Promise<void>): Promise<void> {
  const profile = mkdtempSync(join(tmpdir(), 'crux-trust-'));
  try {
    await run(profile);
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

async function firstPage(context: BrowserContext): Promise<Page> {
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('dialog', (d) => void d.accept());
  return page;
}

async function openTopic(page: Page, topicId: string, title: string) {
  await page.goto(`${server.url}/topics/${topicId}`);
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
}

describe('composer drafts and sign-in', () => {
  it('restores a draft after a reload, an offline reload and an offline cold start (#1)', { timeout: 120_000 }, async () => {
    const title = 'Drafts: do they survive a reload?';
    const topicId = await newTopic(title);
    await withProfile(async (profile) => {
      const first = await chromium.launchPersistentContext(profile, CHROME);
      const page = await firstPage(first);
      await page.goto(`${server.url}/`);
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      await signInThroughModal(page, ada);
      await openTopic(page, topicId, title);
      await rootBox(page).fill('Half a thought about reloads');
      await draftSaved(page);

      // Online reload: the draft is read once the user's database has opened.
      await page.reload();
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      await expect.poll(() => rootBox(page).inputValue(), { timeout: 10_000 }).toBe('Half a thought about reloads');

      // Typing on after the restore keeps the newer text, offline too.
      await rootBox(page).fill('Half a thought about reloads, and offline');
      await draftSaved(page);
      await first.setOffline(true);
      await page.reload();
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      await expect.poll(() => rootBox(page).inputValue(), { timeout: 10_000 }).toBe('Half a thought about reloads, and offline');
      // Nothing overwrote it while the page was starting: it is still there on the next start.
      await page.waitForTimeout(PAST_SAVE_DELAY_MS);
      await first.close();

      const second = await chromium.launchPersistentContext(profile, { ...CHROME, offline: true });
      const again = await firstPage(second);
      await again.goto(`${server.url}/topics/${topicId}`);
      await again.getByRole('heading', { level: 1, name: title }).waitFor();
      await expect.poll(() => rootBox(again).inputValue(), { timeout: 10_000 }).toBe('Half a thought about reloads, and offline');
      await screenshot(again, 'draft-cold-start');
      await second.close();
    });
  });

  it("clears the composer on logout and never shows one user's draft to the next (#4)", { timeout: 120_000 }, async () => {
    const title = 'Shared laptop: whose draft is this?';
    const topicId = await newTopic(title);
    await withProfile(async (profile) => {
      const context = await chromium.launchPersistentContext(profile, { ...CHROME, viewport: { width: 1200, height: 800 } });
      const page = await firstPage(context);
      await page.goto(`${server.url}/`);
      await signInThroughModal(page, ada);
      await openTopic(page, topicId, title);
      await rootBox(page).fill("Ada's private reply");
      await draftSaved(page);

      // Ada keeps her data on this device: her draft must stay hers, and out of Bob's sight.
      await logOut(page, { removeData: false });
      expect(await rootBox(page).inputValue()).toBe('');

      await signInThroughModal(page, bob);
      await page.waitForTimeout(PAST_SAVE_DELAY_MS);
      expect(await rootBox(page).inputValue()).toBe('');
      await page.reload();
      await page.getByTestId('header-user').filter({ hasText: 'Bob Next' }).waitFor();
      await page.waitForTimeout(PAST_SAVE_DELAY_MS);
      expect(await rootBox(page).inputValue()).toBe('');

      // Ada's draft was kept for Ada.
      await logOut(page, { removeData: false });
      await signInThroughModal(page, ada);
      await expect.poll(() => rootBox(page).inputValue(), { timeout: 10_000 }).toBe("Ada's private reply");
      await context.close();
    });
  });

  it('tells a signed-out visitor to sign in, keeps the reply through sign-in and posts it once (#9)', { timeout: 120_000 }, async () => {
    const title = 'Visitors: should they need an account to reply?';
    const topicId = await newTopic(title);
    const context = await browser.newContext();
    const { page, errors } = await newPage(context);
    await page.goto(`${server.url}/topics/${topicId}`);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    const form = page.getByRole('form', { name: 'Add a response' });
    // Said before a word is typed: as soon as the (one-line until used) box is chosen.
    await form.getByRole('textbox').first().focus();
    await form.getByText('Sign in to post a response').waitFor();
    await page.setViewportSize({ width: 375, height: 740 });
    await screenshot(page, 'composer-signed-out-phone');
    await page.setViewportSize({ width: 1280, height: 720 });

    await rootBox(page).fill('Typed before signing in.');
    await form.getByRole('button', { name: 'Post response' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign in to Crux' });
    await dialog.waitFor();
    expect(await rootBox(page).inputValue()).toBe('Typed before signing in.');
    await dialog.getByRole('button', { name: 'Sign in with email' }).click();
    await page.getByLabel('Email', { exact: true }).fill(ada.email);
    await page.getByLabel('Password', { exact: true }).fill(ada.password);
    await page.getByRole('dialog').getByRole('button', { name: 'Sign in', exact: true }).click();

    await page.getByTestId('response-content').filter({ hasText: 'Typed before signing in.' }).waitFor();
    await expect.poll(() => rootBox(page).inputValue()).toBe('');
    const api = apiClient(server.url, ada.token);
    await expect
      .poll(async () => ((await api.get(`/responses?topic_id=${topicId}`)).body as { content: string }[]).map((r) => r.content), {
        timeout: 20_000,
      })
      .toEqual(['Typed before signing in.']);
    await page.waitForTimeout(1_500);
    expect(((await api.get(`/responses?topic_id=${topicId}`)).body as unknown[]).length).toBe(1);
    expect(await page.getByTestId('response-content').filter({ hasText: 'Typed before signing in.' }).count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lets a new user dismiss the username modal with Escape and reach Logout (#10)', { timeout: 60_000 }, async () => {
    const nameless = await createTestUser(null);
    const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    const { page } = await newPage(context);
    await page.goto(`${server.url}/`);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('button', { name: 'Sign in with email' }).click();
    await page.getByLabel('Email', { exact: true }).fill(nameless.email);
    await page.getByLabel('Password', { exact: true }).fill(nameless.password);
    await page.getByRole('dialog').getByRole('button', { name: 'Sign in', exact: true }).click();
    const welcome = page.getByRole('dialog', { name: 'Welcome! Please set your username.' });
    await welcome.waitFor();
    await page.keyboard.press('Escape');
    await welcome.waitFor({ state: 'detached' });
    // The header offers it again instead of the raw e-mail address; focus comes back to it.
    const setUsername = page.locator('header').getByRole('button', { name: 'Set username' });
    await expect.poll(() => setUsername.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await page.locator('header').getByText(nameless.email).count()).toBe(0);
    await page.keyboard.press('Enter');
    await welcome.waitFor();
    await expect.poll(() => page.getByLabel('Username', { exact: true }).evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Escape');
    await welcome.waitFor({ state: 'detached' });
    await logOut(page);
    await context.close();
  });
});
