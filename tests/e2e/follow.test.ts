// Following a topic in real Chromium: Follow on a topic page turns to Following, a new
// root response by someone else reaches the follower's bell worded as such, the followed topic is on
// the follower's own page (and only there) after an offline reload, and Unfollow there takes it away;
// the notification settings offer the new kinds and "Follow the topics I create or reply to".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { FollowedTopic } from '../../shared/types';
import { apiClient } from '../fixtures/api';
import { createTestUser, type TestUser } from '../fixtures/auth';
import { axeViolations } from './axe';
import { signInThroughModal } from './flows';
import { ensureBuild, launchBrowser, newPage, screenshot, startServer, type RunningServer } from './harness';

let server: RunningServer;
let browser: Browser;
let ada: TestUser;
let bob: TestUser;
const SYNCED = { timeout: 25_000 };

beforeAll(async () => {
  await ensureBuild();
  [server, browser, ada, bob] = await Promise.all([
    startServer(),
    launchBrowser(),
    createTestUser('Ada Follower'),
    createTestUser('Bob Poster'),
  ]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.stop();
});

const as = (user: TestUser) => apiClient(server.url, () => user.token);

describe('following a topic in the browser', () => {
  it(
    'Follow → Following, a new root response rings the bell, the list on my page reads offline, Unfollow',
    { timeout: 150_000 },
    async () => {
      const topic = (await as(bob).post('/topics', { title: 'Should cities ban cars downtown?', categories: ['Politics'] })).body as {
        id: string;
        title: string;
      };
      const context = await browser.newContext();
      const { page } = await newPage(context);
      await page.goto(`${server.url}/`);
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      await signInThroughModal(page, ada);
      await page.goto(`${server.url}/topics/${topic.id}`);
      await page.getByRole('heading', { level: 1, name: topic.title }).waitFor();

      const follow = page.getByTestId('follow-button');
      await follow.waitFor();
      expect(await follow.textContent()).toBe('Follow');
      expect(await follow.getAttribute('aria-pressed')).toBe('false');
      await follow.click();
      await page.getByRole('button', { name: /Following/ }).waitFor();
      expect(await follow.getAttribute('aria-pressed')).toBe('true');
      await expect
        .poll(async () => (await as(ada).get<FollowedTopic[]>('/follows')).body.map((f) => f.topic_id), SYNCED)
        .toEqual([topic.id]);
      expect(await axeViolations(page)).toEqual([]);

      // Bob posts a new root response: Ada's bell counts it, worded as a followed topic.
      await as(bob).post('/responses', { topic_id: topic.id, type: 'for', content: 'Cleaner air for everyone.' });
      await page.goto(`${server.url}/notifications`);
      await page.getByText(`replied in a topic you follow: "${topic.title}"`).waitFor(SYNCED);
      await screenshot(page, 'follow-notification');

      // My page lists it (private), offline after a reload too.
      await page.goto(`${server.url}/users/${ada.uid}`);
      const mine = page.getByRole('region', { name: 'Topics you follow' });
      await mine.getByRole('link', { name: topic.title }).waitFor(SYNCED);
      await context.setOffline(true);
      await page.reload();
      await mine.getByRole('link', { name: topic.title }).waitFor(SYNCED);
      await screenshot(page, 'follow-my-page-offline');
      await context.setOffline(false);

      // Someone else's page shows no such list.
      const { page: other } = await newPage(await browser.newContext());
      await other.goto(`${server.url}/users/${ada.uid}`);
      await other.getByRole('heading', { level: 1 }).waitFor();
      expect(await other.getByRole('region', { name: 'Topics you follow' }).count()).toBe(0);

      // Unfollow from my page: gone here and, once synced, on the server.
      await page.getByRole('button', { name: `Unfollow ${topic.title}` }).click();
      await page.getByText('You do not follow any topic yet.', { exact: false }).waitFor(SYNCED);
      await expect.poll(async () => (await as(ada).get<FollowedTopic[]>('/follows')).body.length, SYNCED).toBe(0);
      await context.close();
    },
  );

  it('the notification settings offer mentions, followed topics and following what I join', { timeout: 90_000 }, async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const { page }: { page: Page } = await newPage(context);
    await page.goto(`${server.url}/`);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await signInThroughModal(page, ada);
    await page.goto(`${server.url}/settings`);
    for (const name of ['Mentions of me (@name)', 'New responses in topics I follow', 'Follow the topics I create or reply to'])
      await page.getByRole('checkbox', { name }).waitFor(SYNCED);
    const joinFollow = page.getByRole('checkbox', { name: 'Follow the topics I create or reply to' });
    await expect.poll(() => joinFollow.isEnabled(), SYNCED).toBe(true);
    expect(await joinFollow.isChecked()).toBe(true);
    await joinFollow.click();
    expect(await joinFollow.isChecked()).toBe(false);
    // Synced: Ada's next topic is not followed.
    await expect
      .poll(async () => {
        const created = (await as(ada).post('/topics', { title: `Not followed ${Date.now()}`, categories: ['Other'] })).body as {
          id: string;
        };
        return (await as(ada).get<FollowedTopic[]>('/follows')).body.some((f) => f.topic_id === created.id);
      }, SYNCED)
      .toBe(false);
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });
});
