// The topic list in real Chromium: infinite scroll to the second page, sorts,
// category filter and its empty text, search with Searching... / no match, and
// creating from the search box; checked against the REST API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiClient } from '../fixtures/api';
import { createTestUser, type TestUser } from '../fixtures/auth';
import { ensureBuild, launchBrowser, newPage, screenshot, startServer, type RunningServer } from './harness';
import { logOut } from './flows';

let server: RunningServer;
let browser: Browser;
let bob: TestUser;
let carol: TestUser;

beforeAll(async () => {
  await ensureBuild();
  [server, browser, bob, carol] = await Promise.all([
    startServer(),
    launchBrowser(),
    createTestUser('Bob Lister'),
    createTestUser('Carol Voter'),
  ]);
  const api = apiClient(server.url, () => bob.token);
  // 25 topics: more than one page of 20. Created one by one so "new" has a clear order.
  for (let i = 1; i <= 25; i++) {
    const category = i % 5 === 0 ? 'Science' : 'Politics';
    const res = await api.post('/topics', { title: `Seeded question number ${String(i).padStart(2, '0')}`, categories: [category] });
    expect(res.status).toBe(201);
  }
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.stop();
});

const rowTitles = (page: Page) => page.locator('[data-testid="topic-row"] .topic-row-title').allTextContents();

describe('topic list', () => {
  it('pages by 20 on scroll, sorts, filters and searches', { timeout: 120_000 }, async () => {
    const api = apiClient(server.url, () => carol.token);
    const all = (await api.get('/topics?sort=new&limit=100')).body as { id: string; title: string }[];
    expect(all).toHaveLength(25);
    // Carol upvotes number 03 so it tops "top".
    const third = all.find((t) => t.title.endsWith('03'))!;
    expect((await api.post('/upvotes', { target_type: 'topic', target_id: third.id, target_creator_uid: bob.uid })).status).toBeLessThan(
      300,
    );

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page } = await newPage(context);
    // The list pages the server was asked for, in order (sort, limit, offset).
    const asked: URLSearchParams[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/sync/topics/page') asked.push(url.searchParams);
    });
    await page.goto(server.url + '/');
    await page.locator('[data-testid="topic-row"]').nth(19).waitFor();
    expect(await page.locator('[data-testid="topic-row"]').count()).toBe(20);
    await screenshot(page, 'list-first-page');
    await page.getByTestId('list-sentinel').scrollIntoViewIfNeeded();
    await page.locator('[data-testid="topic-row"]').nth(24).waitFor();
    expect(new Set(await rowTitles(page)).size).toBe(25);

    // New: newest first, exactly the API's order (scrolled to the top, the sentinel out of view).
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByRole('button', { name: 'New', exact: true }).click();
    await expect.poll(async () => (await rowTitles(page)).slice(0, 20)).toEqual(all.slice(0, 20).map((t) => t.title));
    // Paging restarted with the sort change: New's first page was asked for alone, not the two pages
    // Hot had grown to (whether a second page follows depends only on where the sentinel is).
    const firstNew = asked.find((params) => params.get('sort') === 'new')!;
    expect([firstNew.get('limit'), firstNew.get('offset')]).toEqual(['20', '0']);
    // Top: the upvoted one first, with its score.
    await page.getByRole('button', { name: 'Top', exact: true }).click();
    await expect.poll(async () => (await rowTitles(page))[0]).toBe('Seeded question number 03');
    expect(await page.locator('[data-testid="topic-row"]').first().getByTestId('score').textContent()).toBe('1');

    // Category filter: All Topics first; Science has 5; Health none.
    const filter = page.getByLabel('Filter by category');
    expect(await filter.locator('option').first().textContent()).toBe('All Topics');
    await filter.selectOption('Science');
    await page.waitForURL(server.url + '/c/Science');
    await expect.poll(async () => (await rowTitles(page)).length).toBe(5);
    const science = (await api.get('/topics?category=Science&limit=100')).body as { title: string }[];
    expect((await rowTitles(page)).sort()).toEqual(science.map((t) => t.title).sort());
    await filter.selectOption('Health');
    await page.getByText('No topics found for category "Health".').waitFor();
    await filter.selectOption('');
    await page.waitForURL(server.url + '/');

    // Search (signed out): create entry says login required; no match text; matches replace the list.
    const box = page.getByLabel('Search or create a topic');
    await box.fill('zzqx nothing like this');
    await page.getByRole('button', { name: 'Create topic "zzqx nothing like this" (login required)' }).waitFor();
    await page.getByText('No matching topics found.').waitFor();
    await box.fill('number 17');
    await expect.poll(async () => rowTitles(page)).toEqual(['Seeded question number 17']);
    await page.getByRole('button', { name: 'Create topic "number 17" (login required)' }).click();
    await page.getByText('You must be logged in to create a topic.').waitFor();
    // ... and offers the sign-in; closed, it creates nothing later.
    const offered = page.getByRole('dialog', { name: 'Sign in to Crux' });
    await offered.waitFor();
    await page.keyboard.press('Escape');
    await offered.waitFor({ state: 'detached' });
    await screenshot(page, 'list-search');

    // Create signed out: the offered sign-in, then the topic is created as that user.
    await box.fill('Is nuclear power green?');
    await page.getByLabel('Category for a new topic').selectOption('Environment');
    await page.getByRole('button', { name: 'Create topic "Is nuclear power green?" (login required)' }).click();
    await offered.getByRole('button', { name: 'Sign in with email' }).click();
    await page.getByLabel('Email', { exact: true }).fill(carol.email);
    await page.getByLabel('Password', { exact: true }).fill(carol.password);
    await page.getByRole('dialog').getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/topics\//);
    const id = new URL(page.url()).pathname.split('/').pop()!;
    await expect
      .poll(async () => (await api.get(`/topics/${id}`)).body, { timeout: 15_000, interval: 200 })
      .toMatchObject({ title: 'Is nuclear power green?', categories: ['Environment'], creator_uid: carol.uid });
    await page.getByRole('button', { name: 'Back to Topics', exact: true }).click();
    expect(await page.getByLabel('Search or create a topic').inputValue()).toBe('');
    await page.getByRole('link', { name: 'Is nuclear power green?' }).waitFor();

    // Paging restarts when the sign-in state changes.
    await page.getByTestId('list-sentinel').scrollIntoViewIfNeeded();
    await page.locator('[data-testid="topic-row"]').nth(25).waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await logOut(page);
    await expect.poll(async () => page.locator('[data-testid="topic-row"]').count()).toBe(20);
    await context.close();
  });
});
