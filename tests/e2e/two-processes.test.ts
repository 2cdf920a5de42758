// In a real browser: two server processes (sync-server/src/main.ts, as deployed) on
// one PostgreSQL database. The browser is on B; writes go through A. Each write shows on B's open
// page without a reload: B's live stream hears A's commit through LISTEN/NOTIFY and the page
// pulls it. (The latency is measured by `npm run bench -- postgres`; here only that it arrives.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { apiClient } from '../fixtures/api';
import { createTestUser, type TestUser } from '../fixtures/auth';
import { startPostgres, type Postgres } from '../fixtures/postgres';
import { ensureBuild, launchBrowser, newPage, screenshot, startServer, type RunningServer } from './harness';

let postgres: Postgres;
let a: RunningServer;
let b: RunningServer;
let browser: Browser;
let ada: TestUser;

beforeAll(async () => {
  await ensureBuild();
  postgres = await startPostgres();
  const env = { DATABASE_URL: postgres.url, MAIL_SCHEDULER: 'off' };
  [a, b, browser, ada] = await Promise.all([startServer({ env }), startServer({ env }), launchBrowser(), createTestUser('Ada Across')]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  a?.stop();
  b?.stop();
  await postgres?.stop();
});

describe('two server processes on one PostgreSQL database', () => {
  it('a page open on B shows what is written through A, live', { timeout: 90_000 }, async () => {
    const throughA = apiClient(a.url, () => ada.token);
    const first = await throughA.post<{ id: string }>('/topics', {
      title: 'Written through A before the page opened',
      categories: ['Science'],
    });
    expect(first.status).toBe(201);

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, errors } = await newPage(context);
    await page.goto(`${b.url}/`);
    await page.getByText('Written through A before the page opened').waitFor();

    // Now, with B's page open and streaming: a new topic through A appears without a reload.
    const second = await throughA.post<{ id: string }>('/topics', { title: 'Written through A while B streams', categories: ['Science'] });
    expect(second.status).toBe(201);
    await page.getByText('Written through A while B streams').waitFor({ timeout: 15_000 });

    // And inside a topic open on B: a response through A.
    await page.getByText('Written through A while B streams').click();
    await page.waitForURL(`**/topics/${second.body.id}`);
    // The topic has been read (no responses yet) before the reply is written on the other process.
    await page.getByText('No responses yet.').waitFor();
    const reply = await throughA.post('/responses', {
      topic_id: second.body.id,
      type: 'for',
      content: 'A reply made on the other process',
    });
    expect(reply.status).toBe(201);
    await page.getByText('A reply made on the other process').waitFor({ timeout: 15_000 });
    await screenshot(page, 'two-processes');
    expect(errors).toEqual([]);
    await context.close();
  });
});
