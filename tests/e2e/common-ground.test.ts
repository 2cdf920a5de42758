// In real Chromium against the real server: where people stand, common ground, Δ credits
// and the debate map. (a) two users with opposite stances upvote the same response: it rises to the
// top of the Common ground order and, once both sides approve it enough, shows the badge; (b) a
// stance changed and a Δ given offline land once: the author's points and the topic's "changed
// their mind" count move exactly once, the balance bars read the device offline (after a reload too),
// and the persuasion points show on the leaderboard and the author's page; (c) offline, the debate map opens a response nested 4 levels deep.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { PERSUASION_POINTS_PER_DELTA } from '../../shared/constants';
import { STANDING_MIN_AGE_DAYS } from '../../shared/rules/standing';
import type { TopicStances, UserProfile } from '../../shared/types';
import { apiClient } from '../fixtures/api';
import { createTestUser, type TestUser } from '../fixtures/auth';
import { ensureBuild, launchBrowser, newPage, screenshot, startServer, type RunningServer } from './harness';
import { responseItem, signInThroughModal } from './flows';

let server: RunningServer;
let browser: Browser;
let ada: TestUser;
let bob: TestUser;
let cy: TestUser;
let dan: TestUser;
let eve: TestUser;
/** Writes are local first: the server sees them once replication has pushed. */
const SYNCED = { timeout: 20_000, interval: 250 };

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

async function topicBy(user: TestUser, title: string): Promise<string> {
  const res = await as(user).post('/topics', { title, categories: ['Society'] });
  expect(res.status, res.text).toBe(201);
  return (res.body as { id: string }).id;
}

async function responseBy(user: TestUser, topicId: string, content: string, parentId: string | null = null): Promise<string> {
  const res = await as(user).post('/responses', { topic_id: topicId, type: 'for', content, parent_response_id: parentId });
  expect(res.status, res.text).toBe(201);
  return (res.body as { id: string }).id;
}

/**
 * Gives a user standing (shared/rules/standing.ts), so their Δ earns its author points: 5 points
 * (upvotes by the others on their topic and response) and an account first seen days ago (the
 * server's SQLite file, written directly: no call makes an account older).
 */
async function giveStanding(user: TestUser): Promise<void> {
  const topicId = await topicBy(user, 'Should every street have a bench?');
  const responseId = await responseBy(user, topicId, 'Benches make streets a place to stay.');
  for (const voter of [ada, bob, dan, eve]) {
    if (voter === user) continue;
    expect((await as(voter).post('/upvotes', { target_type: 'topic', target_id: topicId })).status).toBeLessThan(300);
    expect((await as(voter).post('/upvotes', { target_type: 'response', target_id: responseId })).status).toBeLessThan(300);
  }
  const db = new Database(join(server.dataDir, 'crux.sqlite'), { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const longAgo = new Date(Date.now() - (STANDING_MIN_AGE_DAYS + 1) * 24 * 60 * 60 * 1000).toISOString();
    db.prepare('UPDATE users SET created_at = ? WHERE uid = ?').run(longAgo, user.uid);
  } finally {
    db.close();
  }
}

const stancesOf = async (topicId: string) => (await as(ada).get<TopicStances>(`/topics/${topicId}/stances`)).body;
const profileOf = async (user: TestUser) => (await as(ada).get<UserProfile>(`/users/${user.uid}`)).body;

async function openTopicSignedIn(
  user: TestUser,
  topicId: string,
  title: string,
): Promise<{ page: Page; errors: string[]; close(): Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const { page, errors } = await newPage(context);
  await page.goto(server.url + '/');
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await signInThroughModal(page, user);
  await page.goto(`${server.url}/topics/${topicId}`);
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
  return { page, errors, close: () => context.close() };
}

// A radio group: not buttons like the reply's Agree / Disagree.
const stanceGroup = (page: Page) => page.getByRole('radiogroup', { name: 'Where do you stand?' });
const contents = (page: Page) =>
  page.locator('ul[aria-label="Responses"] > li > article [data-testid="response-content"]').allTextContents();

describe('common ground, Δ and the debate map', () => {
  it(
    '(a) a response both sides upvote rises in the Common ground order (online and offline) and earns the badge',
    { timeout: 150_000 },
    async () => {
      const title = 'Should towns close streets to cars on Sundays?';
      const topicId = await topicBy(ada, title);
      const oneSided = await responseBy(ada, topicId, 'Car-free Sundays are simply better.');
      await responseBy(ada, topicId, 'Try it in one street first and measure.');
      // Two more participants, one on each side, recorded through REST: the sides have 2 people each.
      expect((await as(dan).put(`/topics/${topicId}/stance`, { stance: 'agree' })).status).toBe(200);
      expect((await as(eve).put(`/topics/${topicId}/stance`, { stance: 'disagree' })).status).toBe(200);
      // One side only approves the first response: popular, but no common ground.
      expect((await as(dan).post('/upvotes', { target_type: 'response', target_id: oneSided })).status).toBeLessThan(300);

      const bobTab = await openTopicSignedIn(bob, topicId, title);
      const cyTab = await openTopicSignedIn(cy, topicId, title);
      await stanceGroup(bobTab.page).getByRole('radio', { name: 'I agree' }).click();
      await stanceGroup(cyTab.page).getByRole('radio', { name: 'I disagree' }).click();
      expect(await stanceGroup(bobTab.page).getByRole('radio', { name: 'I agree' }).getAttribute('aria-checked')).toBe('true');
      // A first stance, sent, leaves nothing to say under the question: no blank line reserved.
      await expect.poll(() => bobTab.page.getByTestId('stance-mine').evaluate((el) => el.getBoundingClientRect().height), SYNCED).toBe(0);
      // A vote counts by the voter's stance when it lands: the stances reach the server first.
      await expect.poll(() => stancesOf(topicId), SYNCED).toMatchObject({ agree: 2, disagree: 2, unsure: 0, minds_changed: 0 });
      await bobTab.page.getByRole('img', { name: 'Stances: 2 agree, 2 disagree, 0 unsure' }).waitFor({ timeout: 20_000 });

      for (const { page } of [bobTab, cyTab])
        await page.getByRole('button', { name: 'Upvote response: Try it in one street first and measure.' }).click();
      await expect
        .poll(
          async () =>
            ((await as(ada).get(`/topics/${topicId}/common-ground`)).body as { upvotes_agree: number; upvotes_disagree: number }[])[0],
          SYNCED,
        )
        .toMatchObject({ upvotes_agree: 1, upvotes_disagree: 1 });

      const page = bobTab.page;
      // Default order: oldest first.
      await expect.poll(() => contents(page)).toEqual(['Car-free Sundays are simply better.', 'Try it in one street first and measure.']);
      await page.getByRole('group', { name: 'Order responses' }).getByRole('button', { name: 'Common ground' }).click();
      expect(await page.getByRole('button', { name: 'Common ground', exact: true }).getAttribute('aria-pressed')).toBe('true');
      await expect
        .poll(() => contents(page), { timeout: 10_000 })
        .toEqual(['Try it in one street first and measure.', 'Car-free Sundays are simply better.']);

      // The other two of each side approve it too: 2 of 2 on both sides is the badge's threshold.
      for (const user of [dan, eve]) {
        const bridge = ((await as(user).get(`/topics/${topicId}/common-ground`)).body as { response_id: string }[])[0]!.response_id;
        expect((await as(user).post('/upvotes', { target_type: 'response', target_id: bridge })).status).toBeLessThan(300);
      }
      const badge = responseItem(page, 'Try it in one street first and measure.').locator('> article [data-testid="common-ground-badge"]');
      await badge.waitFor({ timeout: 20_000 });
      expect(await badge.getAttribute('title')).toMatch(/both sides/);
      expect(await responseItem(page, 'Car-free Sundays are simply better.').locator('[data-testid="common-ground-badge"]').count()).toBe(
        0,
      );
      await screenshot(page, 'common-ground');
      // The order and the badge come from the device's copy: offline, both orders still work.
      await page.context().setOffline(true);
      await page.getByRole('group', { name: 'Order responses' }).getByRole('button', { name: 'Default' }).click();
      await expect.poll(() => contents(page)).toEqual(['Car-free Sundays are simply better.', 'Try it in one street first and measure.']);
      await page.getByRole('group', { name: 'Order responses' }).getByRole('button', { name: 'Common ground' }).click();
      await expect.poll(() => contents(page)).toEqual(['Try it in one street first and measure.', 'Car-free Sundays are simply better.']);
      expect(await badge.count()).toBe(1);
      await page.context().setOffline(false);
      expect([...bobTab.errors, ...cyTab.errors]).toEqual([]);
      await bobTab.close();
      await cyTab.close();
    },
  );

  it('(b) a change of stance and a Δ made offline land once: points and "changed their mind" move once', { timeout: 150_000 }, async () => {
    const title = 'Is remote work better for teams?';
    const topicId = await topicBy(ada, title);
    const persuasive = 'Teams that write things down work well apart.';
    await responseBy(bob, topicId, persuasive);
    const before = await profileOf(bob);
    expect(before.persuasion_points).toBe(0);
    // Cy's Δ earns Bob points only if Cy has standing (docs/COMMON-GROUND.md).
    await giveStanding(cy);

    const tab = await openTopicSignedIn(cy, topicId, title);
    const { page } = tab;
    await responseItem(page, persuasive).waitFor();
    await stanceGroup(page).getByRole('radio', { name: 'I agree' }).click();
    await expect.poll(() => stancesOf(topicId), SYNCED).toMatchObject({ agree: 1, minds_changed: 0 });
    // And the device has the server's totals back (the topic row, pulled after the stance landed)
    // before it goes offline: the offline reload below reads them from there.
    await page.getByRole('img', { name: 'Stances: 1 agree, 0 disagree, 0 unsure' }).waitFor({ timeout: 20_000 });
    // Only a changed stance can credit a response.
    expect(await responseItem(page, persuasive).getByRole('button', { name: 'This changed my view' }).count()).toBe(0);

    await page.context().setOffline(true);
    await stanceGroup(page).getByRole('radio', { name: 'I disagree' }).click();
    await page.getByText('You first said Agree; now Disagree.').waitFor();
    const credit = responseItem(page, persuasive).locator('> article').getByRole('button', { name: 'This changed my view' });
    await credit.click();
    await expect.poll(() => credit.getAttribute('aria-pressed')).toBe('true');
    await page.waitForTimeout(1_000);
    // Nothing reached the server while offline.
    expect(await stancesOf(topicId)).toMatchObject({ agree: 1, disagree: 0, minds_changed: 0 });
    expect((await profileOf(bob)).persuasion_points).toBe(0);
    await screenshot(page, 'delta-offline');
    // The bars read the device offline, after a reload too: the responses' balance is counted there;
    // the stance totals are the server's and move once the change lands (README, docs/SYNC.md).
    const stanceBar = (agree: number, disagree: number) =>
      page.getByRole('img', { name: `Stances: ${agree} agree, ${disagree} disagree, 0 unsure` });
    const responseBar = page.getByRole('img', { name: 'Responses: 1 agree, 0 disagree, 0 discuss' });
    await page.reload();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await page.getByText('You first said Agree; now Disagree.').waitFor();
    await responseBar.waitFor();
    await stanceBar(1, 0).waitFor();
    await page.getByTestId('minds-changed').filter({ hasText: '0 changed their mind here' }).waitFor();

    await page.context().setOffline(false);
    await expect.poll(() => stancesOf(topicId), SYNCED).toMatchObject({ agree: 0, disagree: 1, minds_changed: 1 });
    await expect
      .poll(() => profileOf(bob), SYNCED)
      .toMatchObject({ persuasion_points: PERSUASION_POINTS_PER_DELTA, points: before.points + PERSUASION_POINTS_PER_DELTA });
    // The page shows the same, from the synced data.
    await page.getByTestId('minds-changed').filter({ hasText: '1 changed their mind here' }).waitFor({ timeout: 20_000 });
    await stanceBar(0, 1).waitFor({ timeout: 20_000 });
    await responseBar.waitFor();
    await responseItem(page, persuasive)
      .locator('> article [data-testid="delta-count"]')
      .filter({ hasText: 'Δ 1' })
      .waitFor({ timeout: 20_000 });

    // Exactly once: a reload and another round of sync change nothing.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await page.getByText('You first said Agree; now Disagree.').waitFor();
    expect(await credit.getAttribute('aria-pressed')).toBe('true');
    await page.waitForTimeout(2_000);
    expect(await stancesOf(topicId)).toMatchObject({ agree: 0, disagree: 1, minds_changed: 1 });
    expect(await profileOf(bob)).toMatchObject({
      persuasion_points: PERSUASION_POINTS_PER_DELTA,
      points: before.points + PERSUASION_POINTS_PER_DELTA,
    });

    // The persuasion points in the browser: Bob's column on the leaderboard and his user page.
    await page.goto(`${server.url}/leaderboard`);
    const bobRow = page.locator('table.leaderboard tbody tr').filter({ has: page.getByRole('link', { name: 'Bob Agrees', exact: true }) });
    await expect
      .poll(() => bobRow.locator('td').allTextContents(), { timeout: 20_000 })
      .toEqual([
        expect.any(String),
        'Bob Agrees',
        String(before.points + PERSUASION_POINTS_PER_DELTA),
        String(PERSUASION_POINTS_PER_DELTA),
      ]);
    await bobRow.getByRole('link', { name: 'Bob Agrees', exact: true }).click();
    await page
      .getByTestId('persuasion-points')
      .filter({ hasText: String(PERSUASION_POINTS_PER_DELTA) })
      .waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('persuasion-points').textContent()).toBe(String(PERSUASION_POINTS_PER_DELTA));
    expect(tab.errors).toEqual([]);
    await tab.close();
  });

  it('(c) offline, the debate map opens a response nested 4 levels deep and scrolls to it', { timeout: 120_000 }, async () => {
    const title = 'Should schools start later in the morning?';
    const topicId = await topicBy(ada, title);
    // Enough roots that the deep thread starts below the fold.
    for (let i = 1; i <= 10; i++) await responseBy(ada, topicId, `Root point ${i}: ${'sleep matters for teenagers. '.repeat(6)}`);
    let parent: string | null = null;
    for (const content of ['Level one: buses.', 'Level two: sports.', 'Level three: parents.', 'Level four: the deep answer.'])
      parent = await responseBy(bob, topicId, content, parent);

    const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    const { page, errors } = await newPage(context);
    await page.goto(`${server.url}/topics/${topicId}`);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await page.getByText('Level one: buses.').waitFor({ state: 'attached' });
    // Not open yet: the deep answer is not on screen.
    expect(await page.getByTestId('response-content').filter({ hasText: 'Level four: the deep answer.' }).count()).toBe(0);
    // The map (its code loaded on first open) and the tree come from the device: offline is enough
    // once the device holds them, which the responses bar shows by counting them (the first screen's
    // bar says "Loading..." until then). Measured: the page is controlled by its service worker only
    // 20–40 ms before or after the responses' pull, so that alone does not say they arrived.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await page
      .getByTestId('response-balance')
      .filter({ hasText: /[1-9]\d* (agree|disagree|discuss)/, hasNotText: /Loading|Not on this device yet/ })
      .waitFor({ timeout: 20_000 });
    await context.setOffline(true);

    const toggle = page.getByRole('button', { name: 'Debate map', exact: true });
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    const map = page.getByRole('region', { name: 'Debate map' });
    await map.getByRole('group', { name: 'Debate map: 14 responses' }).waitFor();
    await screenshot(page, 'debate-map');
    await map.getByRole('button', { name: /^Open response: Agrees: Level four: the deep answer\./ }).click();

    const deep = responseItem(page, 'Level four: the deep answer.');
    await deep.waitFor();
    await expect.poll(() => deep.getAttribute('class')).toContain('is-highlighted');
    await expect.poll(() => deep.evaluate((el) => el === document.activeElement)).toBe(true);
    // Scrolled into view (smooth scrolling settles within a second).
    await expect
      .poll(
        () =>
          deep.evaluate((el) => {
            const box = el.getBoundingClientRect();
            return box.top >= 0 && box.bottom <= window.innerHeight;
          }),
        { timeout: 5_000 },
      )
      .toBe(true);

    // The Outline is the same tree as links.
    await map.getByRole('button', { name: 'Outline' }).click();
    await map
      .getByRole('navigation', { name: 'Outline of the debate' })
      .getByRole('link', { name: /Level three: parents\./ })
      .waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
