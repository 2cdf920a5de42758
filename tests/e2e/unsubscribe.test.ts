// In real Chromium: /unsubscribe toggles the weekly summary preference online and
// offline (the offline change lands once when the browser is back online), and a mail's one-click
// link (/unsubscribe?token=…) confirms the unsubscribe with the server without signing in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { signUnsubscribeToken } from '../../sync-server/src/mail/token';
import { apiClient } from '../fixtures/api';
import { createTestUser, type TestUser } from '../fixtures/auth';
import { signInThroughModal } from './flows';
import { ensureBuild, launchBrowser, newPage, screenshot, startServer, type RunningServer } from './harness';

const KEY = 'e2e-mail-signing-key-0123456789abcdef0123456789';
let server: RunningServer;
let browser: Browser;
let ada: TestUser;

beforeAll(async () => {
  await ensureBuild();
  [server, browser, ada] = await Promise.all([
    startServer({ env: { MAIL_SIGNING_KEY: KEY, MAIL_SCHEDULER: 'off' } }),
    launchBrowser(),
    createTestUser('Ada Subscriptions'),
  ]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.stop();
});

const serverPreference = async () =>
  (await apiClient(server.url, () => ada.token).get<{ receive_weekly_summary: boolean }>('/users/preferences')).body.receive_weekly_summary;

describe('/unsubscribe', () => {
  it('toggles the preference online and offline, and confirms a mail link', { timeout: 150_000 }, async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await newPage(context);
    await page.goto(server.url + '/unsubscribe');
    await page.getByRole('heading', { level: 1, name: 'Email Subscriptions' }).waitFor();
    await page.getByText('You must be logged in to manage your preferences.').waitFor();

    await page.goto(server.url + '/');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await signInThroughModal(page, ada);
    await page.goto(server.url + '/unsubscribe');
    await page.getByText('You are subscribed to the weekly summary e-mails.').waitFor({ timeout: 20_000 });

    // Online: the change reaches the server.
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await page.getByText('Your preferences have been updated.').waitFor();
    await page.getByText('You are unsubscribed from the weekly summary e-mails.').waitFor();
    await expect.poll(serverPreference, { timeout: 20_000 }).toBe(false);
    await screenshot(page, 'unsubscribe-online');

    // Offline: the screen changes at once; the server hears of it once back online.
    await context.setOffline(true);
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page.getByText('You are subscribed to the weekly summary e-mails.').waitFor();
    await page.getByText('Your preferences have been updated.').waitFor();
    expect(await serverPreference()).toBe(false);
    await context.setOffline(false);
    await expect.poll(serverPreference, { timeout: 30_000 }).toBe(true);

    // A mail's one-click link, opened in another tab: confirmed by the server, and the signed-in
    // screen follows through replication.
    const link = await context.newPage();
    await link.goto(`${server.url}/unsubscribe?token=${encodeURIComponent(signUnsubscribeToken(Buffer.from(KEY), ada.uid, new Date()))}`);
    await link.getByText('You have been unsubscribed from the weekly summary e-mails.').waitFor({ timeout: 20_000 });
    await screenshot(link, 'unsubscribe-link');
    expect(await serverPreference()).toBe(false);
    await page.getByText('You are unsubscribed from the weekly summary e-mails.').waitFor({ timeout: 20_000 });

    // A tampered link is refused with the failure text.
    await link.goto(`${server.url}/unsubscribe?token=u1.bm9ib2R5.9999999999.AAAA`);
    await link.getByText('Failed to update your preferences.').waitFor({ timeout: 20_000 });
    expect(errors.filter((e) => !/status of 400|status of 410/.test(e))).toEqual([]);
    await context.close();
  });
});
