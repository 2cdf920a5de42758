// Notifications and the header score in real Chromium: user B replies to A's
// topic and to A's response; A's badge rises to 2 without a reload. Cy holds first place, so when B
// upvotes A's topic and response A's header moves from "0 pts · #2" to "2 pts · #1" live, and the
// leaderboard it links to agrees with GET /api/users/leaderboard. A click marks one read and opens
// the topic scrolled to the reply (and says so once the reply is deleted); Mark All as Read clears
// the badge; Logout clears score and badge. The header fits one row at 960 px with Discord /
// Support from configuration, and the page (and the open burger menu) passes axe in light and dark.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { LeaderboardEntry } from '../../shared/types';
import { apiClient } from '../fixtures/api';
import { createTestUser, type TestUser } from '../fixtures/auth';
import { ensureBuild, launchBrowser, newPage, screenshot, startServer, type RunningServer } from './harness';
import { logOut, signInThroughModal } from './flows';
import { axeViolations } from './axe';

let server: RunningServer;
let browser: Browser;
let ada: TestUser;
let bob: TestUser;
let cy: TestUser;

const DISCORD = 'https://discord.gg/crux-test';
const SUPPORT = 'mailto:support@crux.example';

beforeAll(async () => {
  await ensureBuild();
  [server, browser, ada, bob, cy] = await Promise.all([
    startServer({ env: { DISCORD_URL: DISCORD, SUPPORT_URL: SUPPORT } }),
    launchBrowser(),
    createTestUser('Ada Notes'),
    createTestUser('Bob Notes'),
    createTestUser('Cy Notes'),
  ]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.stop();
});

const as = (user: TestUser) => apiClient(server.url, () => user.token);
const bell = (page: Page) => page.locator('header').getByRole('link', { name: /^Notifications/ });

/** What the header shows for a score with points (components/NotificationBell: scoreText). */
const scoreText = (score: { points: number; rank: number }) => `${score.points} ${score.points === 1 ? 'pt' : 'pts'} · #${score.rank}`;

/** Long enough for a loaded CI machine; the live path itself is well under the 2 s. */
const LIVE = { timeout: 20_000 };

describe('notifications', () => {
  it('badge and score rise live; click marks read and opens the topic; Mark All as Read; Logout clears', { timeout: 180_000 }, async () => {
    // Cy leads with 1 point; Ada, with none yet, is second.
    const cyTopic = await as(cy).post('/topics', { title: 'Is first place worth chasing?', categories: ['Science'] });
    expect(cyTopic.status, cyTopic.text).toBe(201);
    const cyUpvote = await as(bob).post('/upvotes', { target_type: 'topic', target_id: (cyTopic.body as { id: string }).id });
    expect([200, 201], cyUpvote.text).toContain(cyUpvote.status);
    const topicRes = await as(ada).post('/topics', { title: 'Do notifications bring people back?', categories: ['Science'] });
    expect(topicRes.status, topicRes.text).toBe(201);
    const topicId = (topicRes.body as { id: string }).id;
    const rootRes = await as(ada).post('/responses', { topic_id: topicId, type: 'for', content: 'They remind people a reply is waiting.' });
    expect(rootRes.status, rootRes.text).toBe(201);
    const rootId = (rootRes.body as { id: string }).id;

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await newPage(context);
    await page.goto(server.url + '/');
    await signInThroughModal(page, ada);
    await bell(page).waitFor();
    expect(await bell(page).getAttribute('aria-label')).toBe('Notifications');
    const before = (await as(ada).get<{ points: number; rank: number }>(`/users/${ada.uid}/score`)).body;
    expect(before).toMatchObject({ points: 0, rank: 2 });
    // The server counts her second, but the leaderboard lists only users with points: no rank yet.
    await expect.poll(() => page.getByTestId('header-score').textContent(), LIVE).toBe('0 pts');
    expect(await page.getByTestId('header-score').getAttribute('aria-label')).toBe('0 points: leaderboard');
    // Everything below happens in this one document: a reload would drop the mark.
    await page.evaluate(() => Object.assign(window, { __sameDocument: true }));
    const sameDocument = () => page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);

    // Discord and Support come from DISCORD_URL / SUPPORT_URL and open safely.
    const discord = page.getByRole('link', { name: /^Discord/ });
    await discord.waitFor();
    expect(await discord.getAttribute('href')).toBe(DISCORD);
    expect(await discord.getAttribute('target')).toBe('_blank');
    expect(await discord.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await page.getByRole('link', { name: /^Support/ }).getAttribute('href')).toBe(SUPPORT);

    // B replies to A's topic and to A's response: no reload on A's side.
    const bobApi = as(bob);
    expect((await bobApi.post('/responses', { topic_id: topicId, type: 'against', content: 'Most people mute them.' })).status).toBe(201);
    const replyRes = await bobApi.post('/responses', {
      topic_id: topicId,
      parent_response_id: rootId,
      type: 'against',
      content: 'Only when they are relevant.',
    });
    expect(replyRes.status, replyRes.text).toBe(201);
    const replyId = (replyRes.body as { id: string }).id;
    await page.locator('header').getByRole('link', { name: 'Notifications, 2 unread' }).waitFor(LIVE);
    expect(await page.getByTestId('unread-badge').textContent()).toBe('2');
    expect(await sameDocument()).toBe(true);

    // B upvotes A's topic and response: A passes Cy, and her header says so without a reload.
    for (const [target_type, target_id] of [
      ['topic', topicId],
      ['response', rootId],
    ]) {
      const upvote = await bobApi.post('/upvotes', { target_type, target_id });
      expect([200, 201], upvote.text).toContain(upvote.status);
    }
    const after = (await as(ada).get<{ points: number; rank: number }>(`/users/${ada.uid}/score`)).body;
    expect(after).toMatchObject({ points: 2, rank: 1 });
    await expect.poll(() => page.getByTestId('header-score').textContent(), LIVE).toBe(scoreText(after));
    expect(await page.getByTestId('header-score').getAttribute('aria-label')).toBe('2 points, rank 1: leaderboard');
    expect(await sameDocument()).toBe(true);

    // The score links to the leaderboard, which agrees with GET /api/users/leaderboard.
    await page.getByTestId('header-score').click();
    await page.getByRole('heading', { level: 1, name: 'Leaderboard' }).waitFor();
    const board = (await as(ada).get<LeaderboardEntry[]>('/users/leaderboard')).body;
    expect(board.slice(0, 2).map((e) => [e.display_name, e.points, e.rank])).toEqual([
      ['Ada Notes', 2, 1],
      ['Cy Notes', 1, 2],
    ]);
    const rows = () =>
      page
        .locator('table.leaderboard tbody tr:not([aria-hidden])')
        .evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent)));
    await expect
      .poll(async () => (await rows()).map((cells) => cells.slice(0, 3)), LIVE)
      .toEqual(board.map((e) => [String(e.rank), e.uid === ada.uid ? `${e.display_name} (you)` : e.display_name, String(e.points)]));
    expect(await page.locator('table.leaderboard tr[aria-current="true"] td').first().textContent()).toBe('1');
    expect(await sameDocument()).toBe(true);

    // The header fits one row at 960 px (no burger), and the burger takes over below.
    await page.setViewportSize({ width: 960, height: 800 });
    await screenshot(page, 'header-signed-in-960');
    expect(await page.getByRole('button', { name: 'Menu' }).isVisible()).toBe(false);
    expect(await page.locator('.site-header-inner').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    const logout = await page.getByRole('button', { name: 'Logout' }).boundingBox();
    expect(logout!.x + logout!.width).toBeLessThanOrEqual(960);
    expect(logout!.height).toBeLessThan(40);
    // The name is not squeezed to an ellipsis.
    expect(await page.getByTestId('header-user').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await page.setViewportSize({ width: 959, height: 800 });
    await expect.poll(() => page.getByRole('button', { name: 'Menu' }).isVisible()).toBe(true);
    await page.setViewportSize({ width: 1280, height: 800 });

    // The notifications page: both items unread, newest first, with the SPEC texts.
    await bell(page).click();
    await page.getByRole('heading', { level: 1, name: 'Your Notifications' }).waitFor();
    const items = page.locator('.notification-item');
    await expect.poll(() => items.count()).toBe(2);
    const texts = await items.allTextContents();
    expect(texts.some((t) => t.includes('Bob Notes replied to your topic: "Do notifications bring people back?"'))).toBe(true);
    expect(texts.some((t) => t.includes('Bob Notes replied to your comment: "They remind people a reply is waiting."'))).toBe(true);
    expect(await page.locator('.notification-item.is-unread').count()).toBe(2);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'notifications');

    // A click marks it read and opens the topic at the reply, its thread expanded.
    await page.getByRole('button', { name: /replied to your comment/ }).click();
    await page.waitForURL(`${server.url}/topics/${topicId}#response-${replyId}`);
    const reply = page.locator(`#response-${replyId}`);
    await reply.waitFor();
    await expect.poll(() => reply.evaluate((el) => el.classList.contains('is-highlighted'))).toBe(true);
    await expect
      .poll(() =>
        reply.evaluate((el) => {
          const box = el.getBoundingClientRect();
          return box.top >= 0 && box.bottom <= window.innerHeight;
        }),
      )
      .toBe(true);
    await page.locator('header').getByRole('link', { name: 'Notifications, 1 unread' }).waitFor();

    // Bob deletes that reply: A's notification stays and says so, live, instead of leading nowhere.
    expect((await bobApi.del(`/responses/${replyId}`)).status).toBe(204);
    await bell(page).click();
    const aboutReply = page.locator('.notification-item', { hasText: 'replied to your comment' });
    await aboutReply.getByText('This reply has since been deleted.').waitFor(LIVE);
    await aboutReply.getByRole('button').click();
    await page.waitForURL(`${server.url}/topics/${topicId}`);
    await page.getByRole('heading', { name: 'Responses' }).waitFor();
    // An old link to the deleted reply says it is not there.
    await page.goto(`${server.url}/topics/${topicId}#response-${replyId}`);
    await page.getByText('The reply this link points to is not here: it may have been deleted').waitFor(LIVE);

    await bell(page).click();
    await expect.poll(() => page.locator('.notification-item.is-unread').count()).toBe(1);
    await page.getByRole('button', { name: 'Mark All as Read' }).click();
    await expect.poll(() => page.locator('.notification-item.is-unread').count()).toBe(0);
    await page.locator('header').getByRole('link', { name: 'Notifications', exact: true }).waitFor();
    expect(await page.getByTestId('unread-badge').count()).toBe(0);

    // The reads reached the server.
    await expect
      .poll(
        async () => (await as(ada).get<{ is_read: boolean }[]>(`/notifications/user/${ada.uid}`)).body.filter((n) => !n.is_read).length,
        LIVE,
      )
      .toBe(0);

    // Logout clears score and badge.
    await logOut(page);
    expect(await page.getByTestId('header-score').count()).toBe(0);
    expect(await bell(page).count()).toBe(0);
    await page.goto(server.url + '/notifications');
    await page.getByText('You need to be logged in to see notifications.').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it(
    'has no axe violations on the notifications page and the open burger menu, light and dark, at 390 px',
    { timeout: 120_000 },
    async () => {
      for (const colorScheme of ['light', 'dark'] as const) {
        const context = await browser.newContext({ colorScheme, viewport: { width: 390, height: 844 } });
        const { page } = await newPage(context);
        await page.goto(server.url + '/');
        await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
        await signInThroughModal(page, ada);
        await page.goto(server.url + '/notifications');
        await page.locator('.notification-item').first().waitFor();
        expect(await axeViolations(page), colorScheme).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        await screenshot(page, `notifications-${colorScheme}`);
        // The burger menu, open, signed in.
        await page.getByRole('button', { name: 'Menu' }).click();
        await page.getByRole('button', { name: 'Logout' }).waitFor();
        // "Settings" and the "Logout" button start where the links above them do.
        const textLeft = (name: string, role: 'link' | 'button') =>
          page
            .getByRole('navigation', { name: 'Main menu' })
            .getByRole(role, { name, exact: true })
            .evaluate((el) => {
              const range = document.createRange();
              range.selectNodeContents(el);
              return Math.round(range.getBoundingClientRect().left);
            });
        const linkLeft = await textLeft('About', 'link');
        expect(await textLeft('Settings', 'link'), 'Settings').toBe(linkLeft);
        expect(await textLeft('Logout', 'button'), 'Logout').toBe(linkLeft);
        expect(await axeViolations(page), `menu ${colorScheme}`).toEqual([]);
        await screenshot(page, `menu-signed-in-${colorScheme}`);
        await context.close();
      }
    },
  );
});
