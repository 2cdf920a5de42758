// In Chromium: the server groups a topic's voters in the background (two planted camps
// of 12), the summary replicates with the topic, and the topic page's "Opinion groups" panel shows
// each group's size, what sets it apart and the common ground between the groups; offline after a reload too,
// by keyboard, axe-clean in light and dark, and within a phone's width.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { parseOpinionGroups } from '../../shared/rules/opinion-groups';
import { SYNC_PROTOCOL_VERSION, type PullResponse, type TopicDoc } from '../../shared/sync-protocol';
import { apiClient } from '../fixtures/api';
import { createTestUser, type TestUser } from '../fixtures/auth';
import { ensureBuild, launchBrowser, newPage, screenshot, startServer, type RunningServer } from './harness';
import { axeViolations } from './axe';
import { smallTargets } from './targets';

let server: RunningServer;
let browser: Browser;
let authors: TestUser[];
let voters: TestUser[];

beforeAll(async () => {
  await ensureBuild();
  // One second between two computations of a topic (production: 180): the job runs while the test waits.
  [server, browser, authors, voters] = await Promise.all([
    startServer({ env: { OPINION_GROUPS_GAP_SECONDS: '1' } }),
    launchBrowser(),
    Promise.all([createTestUser('Ann Author'), createTestUser('Ben Author')]),
    Promise.all(Array.from({ length: 24 }, (_, i) => createTestUser(`Voter ${i}`))),
  ]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.stop();
});

const as = (user: TestUser) => apiClient(server.url, () => user.token);
const SYNCED = { timeout: 30_000, interval: 500 };
const post = async (user: TestUser, path: string, body: unknown) => {
  const res = await as(user).post<{ id: string }>(path, body);
  expect(res.status, res.text).toBeLessThan(300);
  return res.body;
};
const panel = (page: Page) => page.getByRole('region', { name: 'Opinion groups' });
const toggle = (page: Page) => page.getByRole('button', { name: 'Opinion groups' });

async function seedCamps() {
  const [ann, ben] = authors as [TestUser, TestUser];
  const topic = await post(ann, '/topics', { title: 'Should the town build a new stadium?', categories: ['Society'] });
  const say = (user: TestUser, type: string, content: string) => post(user, '/responses', { topic_id: topic.id, type, content });
  const campA = [
    await say(ann, 'for', 'Jobs during construction matter.'),
    await say(ann, 'for', 'Visitors spend money in town.'),
    await say(ben, 'for', 'A home team builds pride.'),
  ];
  const campB = [
    await say(ben, 'against', 'The debt outlives the stadium.'),
    await say(ben, 'against', 'Match days jam the roads.'),
    await say(ann, 'against', 'Schools need the money more.'),
  ];
  const shared = [await say(ann, 'neutral', 'Ask the town in a vote.'), await say(ben, 'neutral', 'Publish the full costs first.')];
  // Each voter reads all eight: agrees with their camp's and the shared ones, disagrees with the other
  // camp's (a participant needs 7 votes, as in Polis).
  for (const [i, voter] of voters.entries()) {
    const [own, other] = i < 12 ? [campA, campB] : [campB, campA];
    for (const r of [...own, ...shared]) await post(voter, '/upvotes', { target_type: 'response', target_id: r.id });
    for (const r of other) await post(voter, '/downvotes', { target_type: 'response', target_id: r.id });
  }
  return topic.id;
}

async function serverSummary(topicId: string) {
  const res = await apiClient(server.url).get<PullResponse<TopicDoc>>('/sync/topics/pull?limit=1000', {
    headers: { 'x-crux-sync': String(SYNC_PROTOCOL_VERSION) },
  });
  return parseOpinionGroups(res.body.documents.find((doc) => doc.id === topicId)?.opinion_groups);
}

/** The open panel shows both camps and their common ground (what most of each agree with, few disagree with). */
async function expectGroups(page: Page) {
  const region = panel(page);
  await region
    .getByText('The 24 people who voted here fall into 2 groups of people who vote alike on these responses.', { exact: false })
    .waitFor({ timeout: 20_000 });
  await region.getByRole('heading', { name: 'Group A · 12 people' }).waitFor();
  await region.getByRole('heading', { name: 'Group B · 12 people' }).waitFor();
  for (const text of [
    'Jobs during construction matter.',
    'The debt outlives the stadium.',
    'Ask the town in a vote.',
    'Publish the full costs first.',
  ])
    await region.getByRole('button', { name: text }).waitFor();
  await region.getByText('100% of this group agreed with it, 0% of the others').first().waitFor();
  await region.getByText('at least 100% of each group agreed with it').first().waitFor();
  // Sizes and shares only: no voter's name.
  expect(await region.innerText()).not.toMatch(/Voter \d/);
}

describe('opinion groups', () => {
  it('the panel shows the groups the server found, offline after a reload, by keyboard, on a phone', { timeout: 180_000 }, async () => {
    const topicId = await seedCamps();
    await expect.poll(async () => (await serverSummary(topicId))?.status, SYNCED).toBe('groups');

    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    const { page, errors } = await newPage(context);
    await page.goto(server.url + '/');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await page.goto(`${server.url}/topics/${topicId}`);
    await page.getByRole('heading', { level: 1, name: 'Should the town build a new stadium?' }).waitFor();
    await page.getByText('Publish the full costs first.').first().waitFor({ timeout: 20_000 });

    // By keyboard: the toggle opens the region it controls.
    await toggle(page).focus();
    await page.keyboard.press('Enter');
    expect(await toggle(page).getAttribute('aria-expanded')).toBe('true');
    await expectGroups(page);
    await screenshot(page, 'opinion-groups');
    expect(await axeViolations(page), 'groups, light').toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await axeViolations(page), 'groups, dark').toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });

    // A response in the panel leads to it in the thread.
    await panel(page).getByRole('button', { name: 'Match days jam the roads.' }).click();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest('[id^="response-"]')?.id ?? location.hash), SYNCED)
      .toBeTruthy();

    // Offline, after a reload: the summary and the texts come from the device.
    await context.setOffline(true);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Should the town build a new stadium?' }).waitFor();
    await toggle(page).click();
    await expectGroups(page);
    await screenshot(page, 'opinion-groups-offline');

    // A phone: the bar wraps and nothing is wider than the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await panel(page).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // Each response in it is a thumb's 44 px target of its own, axe-clean in both themes.
    expect(await smallTargets(page, '[data-testid="opinion-groups"]'), 'panel controls under 44 x 44 at 390 px').toEqual([]);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      expect(await axeViolations(page), `groups at 390 px, ${colorScheme}`).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await screenshot(page, 'opinion-groups-phone');
    await context.setOffline(false);
    expect(errors).toEqual([]);
    await context.close();
  });
});
