// Offline in real Chromium: the service worker serves the app, topics and replies
// created offline get the client's id, render at once, survive an offline reload
// and reach the server with the same id once the browser is back online.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiClient } from '../fixtures/api';
import { createTestUser, type TestUser } from '../fixtures/auth';
import { CHROME_ARGS, ensureBuild, launchBrowser, newPage, screenshot, startServer, type RunningServer } from './harness';
import { createTopicThroughSearchBox, postInComposer, responseItem, signInThroughModal, waitForTopicOnDevice } from './flows';

let server: RunningServer;
let browser: Browser;
let erin: TestUser;

beforeAll(async () => {
  await ensureBuild();
  [server, browser, erin] = await Promise.all([startServer(), launchBrowser(), createTestUser('Erin Offline')]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.stop();
});

describe('offline', () => {
  it('creates a topic and a response offline, then syncs them with the same ids', { timeout: 90_000 }, async () => {
    const api = apiClient(server.url, () => erin.token);
    const context = await browser.newContext();
    const { page } = await newPage(context);
    await page.goto(server.url + '/');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await signInThroughModal(page, erin);

    await context.setOffline(true);
    const topicId = await createTopicThroughSearchBox(page, 'Written on a plane: is flying ethical?', 'Philosophy');
    expect(topicId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/); // the client's UUIDv7
    await postInComposer(page, 'Add a response', 'Only with carbon offsets that work.');
    await page
      .getByTestId('sync-status')
      .filter({ hasText: /Offline · \d+ to sync/ })
      .waitFor();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Written on a plane: is flying ethical?' }).waitFor();
    await responseItem(page, 'Only with carbon offsets that work.').waitFor();
    // A vote made offline shows at once and is sent later.
    await page.locator('.topic-actions .vote-button').click();
    await page.locator('.topic-actions [data-testid="score"]').filter({ hasText: /^1$/ }).waitFor();
    await screenshot(page, 'offline-topic');
    expect((await api.get(`/topics/${topicId}`)).status).toBe(404);

    await context.setOffline(false);
    await expect
      .poll(async () => (await api.get(`/topics/${topicId}`)).body, { timeout: 20_000 })
      .toMatchObject({
        id: topicId,
        title: 'Written on a plane: is flying ethical?',
        creator_uid: erin.uid,
        score: 1,
        user_has_upvoted: true,
      });
    await expect
      .poll(async () => ((await api.get(`/responses?topic_id=${topicId}`)).body as { content: string }[]).map((r) => r.content), {
        timeout: 20_000,
      })
      .toEqual(['Only with carbon offsets that work.']);
    await page.getByTestId('sync-status').waitFor({ state: 'detached', timeout: 20_000 });
    await context.close();
  });

  it('shows a write the server refused and lets the user discard it', { timeout: 90_000 }, async () => {
    const frank = await createTestUser('Frank Author');
    const frankApi = apiClient(server.url, () => frank.token);
    const topic = (await frankApi.post('/topics', { title: 'Will this topic vanish?', categories: ['Other'] })).body as { id: string };
    const context = await browser.newContext();
    const { page } = await newPage(context);
    await page.goto(server.url + '/');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await signInThroughModal(page, erin);
    await page.goto(`${server.url}/topics/${topic.id}`);
    await page.getByText('No responses yet.').waitFor();
    await waitForTopicOnDevice(page, topic.id);

    await context.setOffline(true);
    await postInComposer(page, 'Add a response', 'An answer that will never land.');
    expect((await frankApi.del(`/topics/${topic.id}`)).status).toBe(204);
    await context.setOffline(false);

    const issue = page.getByRole('region', { name: 'Changes that could not be saved' });
    await issue.getByText(/could not be saved/).waitFor({ timeout: 20_000 });
    await screenshot(page, 'sync-issue');
    await issue.getByRole('button', { name: 'Discard' }).click();
    // Discard asks first: the text is not on the server.
    await page.getByRole('dialog', { name: 'Discard this change?' }).getByRole('button', { name: 'Discard' }).click();
    await issue.waitFor({ state: 'detached' });
    await context.close();
  });

  it('opens an installed app signed in and with its topics while offline (cold start)', { timeout: 90_000 }, async () => {
    const api = apiClient(server.url, () => erin.token);
    const topic = (await api.post('/topics', { title: 'Read on the train: are libraries obsolete?', categories: ['Culture'] })).body as {
      id: string;
    };
    const profile = mkdtempSync(join(tmpdir(), 'crux-profile-'));
    const options = { executablePath: process.env.CHROME_BIN ?? '/usr/bin/chromium', headless: true, args: CHROME_ARGS };
    try {
      const first = await chromium.launchPersistentContext(profile, options);
      const page = first.pages()[0] ?? (await first.newPage());
      await page.goto(`${server.url}/`);
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      await signInThroughModal(page, erin);
      await page.getByRole('link', { name: 'Read on the train: are libraries obsolete?' }).click();
      await page.getByText('No responses yet.').waitFor();
      await first.close();

      const second = await chromium.launchPersistentContext(profile, { ...options, offline: true });
      const again = second.pages()[0] ?? (await second.newPage());
      await again.goto(`${server.url}/topics/${topic.id}`);
      await again.getByRole('heading', { level: 1, name: 'Read on the train: are libraries obsolete?' }).waitFor();
      await again.getByTestId('header-user').filter({ hasText: 'Erin Offline' }).waitFor();
      await again.getByText('No responses yet.').waitFor();
      await screenshot(again, 'offline-cold-start');
      await second.close();
    } finally {
      rmSync(profile, { recursive: true, force: true });
    }
  });
});
