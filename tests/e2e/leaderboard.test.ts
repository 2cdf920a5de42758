// The leaderboard in real Chromium: it agrees with GET /api/users/leaderboard, marks the
// signed-in user's row, reads offline after a reload with the copy's age, and links to user pages;
// a user page's figures and labels line up, and another user's Block and Report are alike, in one row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { LeaderboardEntry } from '../../shared/types';
import { apiClient } from '../fixtures/api';
import { createTestUser, type TestUser } from '../fixtures/auth';
import { ensureBuild, launchBrowser, newPage, screenshot, startServer, type RunningServer } from './harness';
import { AXE_SCREENS, axeViolations } from './axe';
import { signInThroughModal } from './flows';

let server: RunningServer;
let browser: Browser;
let ada: TestUser;
let bob: TestUser;
let cleo: TestUser;

beforeAll(async () => {
  await ensureBuild();
  [server, browser, ada, bob, cleo] = await Promise.all([
    startServer(),
    launchBrowser(),
    createTestUser('Ada Board'),
    createTestUser('Bob Board'),
    createTestUser('Cleo Board'),
  ]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.stop();
});

const as = (user: TestUser) => apiClient(server.url, () => user.token);

async function topicBy(user: TestUser, title: string): Promise<string> {
  const res = await as(user).post('/topics', { title, categories: ['Science'] });
  expect(res.status, res.text).toBe(201);
  return (res.body as { id: string }).id;
}

async function upvote(voter: TestUser, topicId: string) {
  const res = await as(voter).post('/upvotes', { target_type: 'topic', target_id: topicId });
  expect([200, 201], res.text).toContain(res.status);
}

const tableRows = (page: Page) =>
  page
    .locator('table.leaderboard tbody tr:not([aria-hidden])')
    .evaluateAll((rows) => rows.map((row) => Array.from(row.querySelectorAll('td')).map((cell) => cell.textContent)));

describe('leaderboard', () => {
  // The server counts a rank for everyone ("#1" on an empty leaderboard, "#4" for a new
  // user below three with points), but the leaderboard lists only users with points: none is shown.
  it("no rank until there are points: an empty leaderboard, a new user's header, table and page", { timeout: 120_000 }, async () => {
    const dan = await createTestUser('Dan Nopoints');
    // A topic nobody has upvoted yet: Dan is a known user with 0 points.
    await topicBy(dan, 'Does a new user have a rank?');
    expect((await as(dan).get<{ points: number; rank: number }>(`/users/${dan.uid}/score`)).body).toMatchObject({ points: 0, rank: 1 });
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const { page, errors } = await newPage(context);
    await page.goto(server.url + '/');
    await signInThroughModal(page, dan);
    await expect.poll(() => page.getByTestId('header-score').textContent(), { timeout: 20_000 }).toBe('0 pts');
    expect(await page.getByTestId('header-score').getAttribute('aria-label')).toBe('0 points: leaderboard');
    await page.goto(server.url + '/leaderboard');
    await page.getByText('The leaderboard is currently empty.').waitFor();
    expect(await page.locator('table.leaderboard').count()).toBe(0);
    await page.goto(`${server.url}/users/${dan.uid}`);
    await page.getByRole('heading', { level: 1, name: 'Dan Nopoints' }).waitFor();
    const rank = page.locator('.user-score > div').filter({ has: page.getByRole('term').getByText('Rank', { exact: true }) });
    expect(await rank.getByRole('definition').textContent()).toBe('None yet');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('agrees with the API, marks my row, and reads offline with its age', { timeout: 120_000 }, async () => {
    // Bob 2 points (rank 1), Ada and Cleo 1 point each (both rank 2: competition ranking).
    const [bobTopic, adaTopic, cleoTopic] = await Promise.all([
      topicBy(bob, 'Should the leaderboard exist?'),
      topicBy(ada, 'Are points a good incentive?'),
      topicBy(cleo, 'What counts as a good argument?'),
    ]);
    await upvote(ada, bobTopic);
    await upvote(cleo, bobTopic);
    await upvote(bob, adaTopic);
    await upvote(ada, cleoTopic);
    const board = (await as(ada).get<LeaderboardEntry[]>('/users/leaderboard')).body;
    expect(board.map((e) => [e.display_name, e.points, e.rank])).toEqual([
      ['Bob Board', 2, 1],
      [board[1]!.display_name, 1, 2],
      [board[2]!.display_name, 1, 2],
    ]);

    const context = await browser.newContext();
    const { page, errors } = await newPage(context);
    await page.goto(server.url + '/');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await signInThroughModal(page, ada);
    await page.goto(server.url + '/leaderboard');
    await page.getByRole('heading', { level: 1, name: 'Leaderboard' }).waitFor();
    await page.locator('table.leaderboard').waitFor();

    // The last column is persuasion points: nobody here was credited with Δ.
    const expected = board.map((e) => [
      String(e.rank),
      e.uid === ada.uid ? `${e.display_name} (you)` : e.display_name,
      String(e.points),
      '0',
    ]);
    await expect.poll(() => tableRows(page), { timeout: 10_000 }).toEqual(expected);
    const mine = page.locator('table.leaderboard tr[aria-current="true"]');
    expect(await mine.count()).toBe(1);
    expect(await mine.locator('td').allTextContents()).toEqual(['2', 'Ada Board (you)', '1', '0']);
    expect(await page.getByText(/^Updated /).textContent()).toBe('Updated just now');
    await screenshot(page, 'leaderboard');

    // Offline, a reload still shows the last copy, with its age.
    await context.setOffline(true);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Leaderboard' }).waitFor();
    await page.getByText('Last copy on this device. Updated just now').waitFor();
    // Firebase restores the session after the first paint: the row is marked once it has.
    await page.locator('table.leaderboard tr[aria-current="true"]').filter({ hasText: 'Ada Board' }).waitFor();
    expect(await tableRows(page)).toEqual(expected);
    await context.setOffline(false);

    // A name leads to the user's page: name, points, rank and their topics.
    await page.getByRole('link', { name: 'Bob Board' }).click();
    await page.getByRole('heading', { level: 1, name: 'Bob Board' }).waitFor();
    await page.getByRole('link', { name: 'Should the leaderboard exist?' }).waitFor();
    expect(page.url()).toBe(`${server.url}/users/${bob.uid}`);
    expect(errors).toEqual([]);
    await context.close();
  });

  // At 390 px, and at 1280 px for the desktop's Persuasion "?" and the user page's "None yet".
  it('has no axe violations on the leaderboard and a user page, light and dark, at 390 and 1280 px', { timeout: 300_000 }, async () => {
    for (const { colorScheme, viewport } of AXE_SCREENS) {
      const width = viewport.width;
      const context = await browser.newContext({ colorScheme, viewport });
      const { page } = await newPage(context);
      await page.goto(server.url + '/');
      await signInThroughModal(page, ada);
      await page.goto(server.url + '/leaderboard');
      await page.locator('table.leaderboard tr[aria-current="true"]').waitFor();
      // With the Persuasion explanation open (readable by touch, not only as a tooltip).
      const explain = page.getByRole('button', { name: 'What is Persuasion?' });
      await explain.click();
      expect(await explain.getAttribute('aria-expanded')).toBe('true');
      const where = `${colorScheme} ${width}`;
      expect(await axeViolations(page), `leaderboard ${where}`).toEqual([]);
      // The table fits the screen: no sideways scrolling.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      if (width === 390) await screenshot(page, `leaderboard-${colorScheme}`);
      await page.goto(`${server.url}/users/${ada.uid}`);
      await page.getByRole('heading', { level: 1, name: 'Ada Board' }).waitFor();
      // The figures on one line and their labels on the next, whatever a label holds.
      const score = await page.evaluate(() =>
        [...document.querySelectorAll('.user-score > div')].map((column) => {
          const figure = column.querySelector('dd')!.getBoundingClientRect();
          const label = column.querySelector('dt')!.getBoundingClientRect();
          return { figureTop: figure.top, labelMiddle: label.top + label.height / 2 };
        }),
      );
      expect(score, `score columns ${where}`).toHaveLength(3);
      for (const column of score) {
        expect(Math.abs(column.figureTop - score[0]!.figureTop), `figures ${where}`).toBeLessThanOrEqual(1);
        expect(Math.abs(column.labelMiddle - score[0]!.labelMiddle), `labels ${where}`).toBeLessThanOrEqual(1);
      }
      await page.getByRole('button', { name: 'What are persuasion points?' }).click();
      expect(await axeViolations(page), `user page ${where}`).toEqual([]);
      // Another user's page: Block and Report, alike, side by side in one row.
      await page.goto(`${server.url}/users/${bob.uid}`);
      const actions = page.getByRole('group', { name: 'Actions' });
      await actions.getByRole('button', { name: 'Report user Bob Board' }).waitFor();
      const boxes = await actions.getByRole('button').evaluateAll((buttons) =>
        buttons.map((b) => {
          const box = b.getBoundingClientRect();
          return { text: b.textContent, top: box.top, height: box.height, className: b.className.replace(/ (block|report)-button$/, '') };
        }),
      );
      expect(
        boxes.map((b) => b.text),
        `user actions ${where}`,
      ).toEqual(['Block', 'Report']);
      expect(boxes[1]!.top, `one row ${where}`).toBe(boxes[0]!.top);
      expect(boxes[1]!.height, `alike ${where}`).toBe(boxes[0]!.height);
      expect(boxes[1]!.className, `alike ${where}`).toBe(boxes[0]!.className);
      await page.goto(`${server.url}/users/nobody-here`);
      await page.getByRole('heading', { level: 1, name: 'User not found.' }).waitFor();
      expect(await axeViolations(page), `user not found ${where}`).toEqual([]);
      if (width === 390) await screenshot(page, `user-not-found-${colorScheme}`);
      await context.close();
    }
  });

  it('a user without points is not ranked beside users with points', { timeout: 120_000 }, async () => {
    const eve = await createTestUser('Eve Nopoints');
    await topicBy(eve, 'Is a user without points ranked?');
    const score = (await as(eve).get<{ points: number; rank: number }>(`/users/${eve.uid}/score`)).body;
    expect(score.points).toBe(0);
    expect(score.rank).toBeGreaterThan(1);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, errors } = await newPage(context);
    await page.goto(server.url + '/');
    await signInThroughModal(page, eve);
    await expect.poll(() => page.getByTestId('header-score').textContent(), { timeout: 20_000 }).toBe('0 pts');
    await page.goto(server.url + '/leaderboard');
    await page.locator('table.leaderboard').waitFor();
    const board = (await as(eve).get<LeaderboardEntry[]>('/users/leaderboard')).body;
    expect(board.length).toBeGreaterThan(0);
    // Only the listed users, none of them marked as hers, and no own row below them.
    await expect.poll(() => tableRows(page), { timeout: 10_000 }).toHaveLength(board.length);
    expect(await page.locator('table.leaderboard tr[aria-current="true"]').count()).toBe(0);
    expect(await page.locator('table.leaderboard .leaderboard-own').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
