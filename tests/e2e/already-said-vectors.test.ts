// In real Chromium against the real server: the word vectors of "This was already said" are not
// fetched with the page, are fetched once someone writes (a 200 from the server), are kept by the
// service worker, and still come offline after a reload, where the hint still finds a near-copy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { WORD_VECTORS_PATH } from '../../shared/rules/word-vectors';
import { apiClient } from '../fixtures/api';
import { createTestUser, type TestUser } from '../fixtures/auth';
import { ensureBuild, launchBrowser, newPage, startServer, type RunningServer } from './harness';
import { waitForTopicOnDevice } from './flows';

let server: RunningServer;
let browser: Browser;
let ada: TestUser;

beforeAll(async () => {
  await ensureBuild();
  [server, browser, ada] = await Promise.all([startServer(), launchBrowser(), createTestUser('Ada Author')]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.stop();
});

const TITLE = 'Should cities make public transport free?';
const FUNDING = 'Fares fund a large share of operating costs, and without them service frequency is the first thing cut.';
const NEAR_COPY = 'Without fares, which fund a big share of the operating costs, service frequency gets cut first.';

describe('"already said" word vectors', () => {
  it('load only once someone writes, are kept by the service worker, and serve offline', { timeout: 180_000 }, async () => {
    const as = apiClient(server.url, () => ada.token);
    const created = await as.post('/topics', { title: TITLE, categories: ['Politics'] });
    expect(created.status, created.text).toBe(201);
    const topicId = (created.body as { id: string }).id;
    const res = await as.post('/responses', { topic_id: topicId, type: 'against', content: FUNDING, parent_response_id: null });
    expect(res.status, res.text).toBe(201);
    const fundingId = (res.body as { id: string }).id;

    const context = await browser.newContext();
    const { page, errors } = await newPage(context);
    const asked: number[] = [];
    page.on('response', (r) => {
      if (new URL(r.url()).pathname === WORD_VECTORS_PATH) asked.push(r.status());
    });
    await page.goto(`${server.url}/topics/${topicId}`);
    await page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await waitForTopicOnDevice(page, topicId);
    // Not with the page: nothing written yet.
    expect(asked).toEqual([]);

    const form = page.getByRole('form', { name: 'Add a response' });
    const box = form.getByLabel('Your response');
    const hint = form.getByRole('region', { name: 'This was already said' });
    await box.fill(NEAR_COPY);
    await expect.poll(() => asked).toEqual([200]);
    await hint.waitFor({ timeout: 10_000 });
    expect(await hint.getByRole('listitem').first().getAttribute('data-response-id')).toBe(fundingId);
    const kept = () =>
      page.evaluate(
        async (path) => (await (await caches.open('crux-word-vectors')).match(path))?.headers.get('content-length') ?? null,
        WORD_VECTORS_PATH,
      );
    await expect.poll(kept).not.toBeNull();

    // Offline, after a reload: the kept table answers, and the hint still finds the repeated point.
    await context.setOffline(true);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
    const bytes = await page.evaluate(async (path) => (await fetch(path)).arrayBuffer().then((b) => b.byteLength), WORD_VECTORS_PATH);
    expect(bytes).toBeGreaterThan(2_000_000);
    await box.fill(NEAR_COPY);
    await hint.waitFor({ timeout: 10_000 });
    expect(await hint.getByRole('listitem').first().getAttribute('data-response-id')).toBe(fundingId);
    expect(errors).toEqual([]);
    await context.close();
  });
});
