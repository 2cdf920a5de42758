// In real Chromium: a member reports a response, the moderator's badge counts it, the
// moderator removes it with a reason, and a second browser that had the thread open sees the
// replacement without a reload and keeps no copy of the text (not after an offline reload, not in
// IndexedDB, not in the kept topic pages); the author is told. A suspended user's offline reply
// becomes a sync problem with the reason; blocking collapses a user's responses, offline too; axe on
// the new screens in light and dark.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiClient } from '../fixtures/api';
import { createTestUser, setTestUserRole, type TestUser } from '../fixtures/auth';
import { axeViolations } from './axe';
import { ensureBuild, launchBrowser, newPage, screenshot, startServer, type RunningServer } from './harness';
import { responseItem, signInThroughModal, waitForTopicOnDevice } from './flows';

let server: RunningServer;
let browser: Browser;
let mod: TestUser;
let ada: TestUser;
let bob: TestUser;
let cy: TestUser;

const SYNCED = { timeout: 25_000 };

beforeAll(async () => {
  await ensureBuild();
  [server, browser, mod, ada, bob, cy] = await Promise.all([
    startServer(),
    launchBrowser(),
    createTestUser('Mona Moderator'),
    createTestUser('Ada Author'),
    createTestUser('Bob Reader'),
    createTestUser('Cy Reporter'),
  ]);
  await setTestUserRole(mod, 'moderator');
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.stop();
});

const api = (user: TestUser) => apiClient(server.url, () => user.token);

async function topicWithResponse(title: string, content: string, author = ada): Promise<{ topicId: string; responseId: string }> {
  const topic = await api(author).post('/topics', { title, categories: ['Other'] });
  expect(topic.status).toBe(201);
  const topicId = (topic.body as { id: string }).id;
  const response = await api(author).post('/responses', { topic_id: topicId, type: 'for', content });
  expect(response.status).toBe(201);
  return { topicId, responseId: (response.body as { id: string }).id };
}

async function signedIn(context: BrowserContext, user: TestUser): Promise<Page> {
  const { page } = await newPage(context);
  await page.goto(`${server.url}/`);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await signInThroughModal(page, user);
  // Signed in means the server has met the account too (its first authenticated call records it): a
  // moderator can only act on a user the server knows, and some tests go offline right after this.
  await expect.poll(async () => (await api(mod).get(`/users/${user.uid}`)).status, SYNCED).toBe(200);
  return page;
}

async function openTopic(page: Page, topicId: string, title: string) {
  await page.goto(`${server.url}/topics/${topicId}`);
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
}

/** Every string value stored in this origin's IndexedDB databases and kept topic pages that contains `text`. */
function storedCopies(page: Page, text: string): Promise<string[]> {
  return page.evaluate(async (needle) => {
    const found: string[] = [];
    for (const { name } of await indexedDB.databases()) {
      if (!name) continue;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error ?? new Error(name));
      });
      for (const store of Array.from(db.objectStoreNames)) {
        const values = await new Promise<unknown[]>((resolve) => {
          const all = db.transaction(store).objectStore(store).getAll();
          all.onsuccess = () => resolve(all.result);
          all.onerror = () => resolve([]);
        });
        for (const value of values) if (JSON.stringify(value).includes(needle)) found.push(`${name}/${store}`);
      }
      db.close();
    }
    for (const cacheName of await caches.keys()) {
      const cache = await caches.open(cacheName);
      for (const request of await cache.keys()) {
        if (!/\/topics\//.test(request.url)) continue;
        const body = await (await cache.match(request))?.text();
        if (body?.includes(needle)) found.push(`${cacheName} ${request.url}`);
      }
    }
    return found;
  }, text);
}

describe('moderation in the browser', () => {
  it(
    'report → badge → remove with a reason → a second browser loses the text live and offline; the author is told',
    { timeout: 180_000 },
    async () => {
      const title = 'Moderation: should a removed reply keep its place?';
      const original = 'Buy cheap watches at spam-shop dot example, best prices';
      const { topicId, responseId } = await topicWithResponse(title, original);

      // Bob has the thread open (and on his device) before anything happens.
      const bobContext = await browser.newContext();
      const bobPage = await signedIn(bobContext, bob);
      await openTopic(bobPage, topicId, title);
      await waitForTopicOnDevice(bobPage, topicId);
      await responseItem(bobPage, original).waitFor();

      // The moderator's badge starts without this report.
      const modContext = await browser.newContext();
      const modPage = await signedIn(modContext, mod);
      const badge = modPage.getByTestId('header-moderation');
      await badge.waitFor();
      const before = Number((await api(mod).get('/moderation/reports?status=open&limit=0')).body.total);

      // Cy reports the response.
      const cyContext = await browser.newContext();
      const cyPage = await signedIn(cyContext, cy);
      await openTopic(cyPage, topicId, title);
      await responseItem(cyPage, original)
        .getByRole('button', { name: /^Report response/ })
        .click();
      const reportDialog = cyPage.getByRole('dialog');
      await reportDialog.getByRole('radio', { name: 'Spam' }).check();
      await reportDialog.getByLabel('Note (optional)').fill('Selling watches in a debate about moderation.');
      await reportDialog.getByRole('button', { name: 'Report', exact: true }).click();
      await reportDialog.getByText('Thanks — a moderator will look at this.').waitFor(SYNCED);
      await screenshot(cyPage, 'moderation-report-thanks');
      // The reported item stays as it was until someone acts.
      await reportDialog.getByRole('button', { name: 'Done' }).click();
      await responseItem(cyPage, original).waitFor();

      // The badge counts it (the header polls; a reload is not needed).
      await expect
        .poll(async () => (await badge.getAttribute('aria-label')) ?? '', { timeout: 45_000 })
        .toBe(`Moderation, ${before + 1} open ${before + 1 === 1 ? 'report' : 'reports'}`);

      // The moderator removes it from the queue, with a reason.
      await badge.click();
      await modPage.getByRole('heading', { level: 1, name: 'Moderation' }).waitFor();
      const card = modPage.getByTestId('queue-item').filter({ hasText: original });
      await card.waitFor(SYNCED);
      await card.getByText('Selling watches in a debate about moderation.').waitFor();
      expect(await axeViolations(modPage)).toEqual([]);
      await screenshot(modPage, 'moderation-queue');
      await card.getByRole('button', { name: 'Remove', exact: true }).click();
      const actionDialog = modPage.getByRole('dialog');
      await actionDialog.getByLabel('Reason (the author sees it)').fill('Advertising');
      expect(await axeViolations(modPage)).toEqual([]);
      await actionDialog.getByRole('button', { name: 'Remove', exact: true }).click();
      await actionDialog.waitFor({ state: 'detached' });

      // Bob sees the replacement without a reload, in the response's place.
      const replacement = 'Removed by a moderator: Advertising';
      await bobPage.locator(`#response-${responseId}`).getByText(replacement).waitFor(SYNCED);
      expect(await bobPage.getByText(original).count()).toBe(0);

      // Offline, after a reload, the text is still nowhere: not on screen, not in IndexedDB, not in the kept pages.
      await bobContext.setOffline(true);
      await bobPage.reload();
      await bobPage.getByRole('heading', { level: 1, name: title }).waitFor();
      await bobPage.getByText(replacement).waitFor(SYNCED);
      expect(await bobPage.getByText(original).count()).toBe(0);
      expect(await storedCopies(bobPage, original)).toEqual([]);
      await bobContext.setOffline(false);

      // The author is told, and can still read their own text, marked.
      const adaContext = await browser.newContext();
      const adaPage = await signedIn(adaContext, ada);
      await adaPage.goto(`${server.url}/notifications`);
      await adaPage.getByText('A moderator removed your response: Advertising').waitFor(SYNCED);
      await openTopic(adaPage, topicId, title);
      await adaPage.getByRole('button', { name: 'Show my text' }).click();
      await adaPage.getByText(original).waitFor(SYNCED);
      await adaPage.getByText('Removed — only you and moderators can see this').waitFor();

      // Where the moderator reads the topic (a desktop with a mouse), Lock and Remove are as tall as the
      // row's other buttons, in the same row.
      await openTopic(modPage, topicId, title);
      const row = modPage.locator('.topic-actions');
      const heights = await Promise.all(
        [/^Follow/, /^Lock topic/, /^Remove topic/].map(async (name) => (await row.getByRole('button', { name }).boundingBox())!),
      );
      for (const box of heights.slice(1)) {
        expect(box.height).toBe(heights[0]!.height);
        expect(box.y).toBe(heights[0]!.y);
      }

      // The moderation log has it.
      await modPage.goto(`${server.url}/moderation/log`);
      await modPage.getByText('Advertising').first().waitFor(SYNCED);
      expect(await axeViolations(modPage)).toEqual([]);

      for (const context of [bobContext, modContext, cyContext, adaContext]) await context.close();
    },
  );

  it("a suspended user's offline reply becomes a sync problem with the reason", { timeout: 120_000 }, async () => {
    const dee = await createTestUser('Dee Suspended');
    const title = 'Moderation: do suspensions reach an offline phone?';
    const { topicId } = await topicWithResponse(title, 'A calm opening argument.');
    const context = await browser.newContext();
    const page = await signedIn(context, dee);
    await openTopic(page, topicId, title);
    await waitForTopicOnDevice(page, topicId);

    await context.setOffline(true);
    const suspended = await api(mod).post('/moderation/actions', {
      action: 'suspend',
      target_type: 'user',
      target_id: dee.uid,
      reason: 'Repeated insults',
      days: 7,
    });
    expect(suspended.status).toBe(200);
    const form = page.getByRole('form', { name: 'Add a response' });
    await form.getByRole('textbox').first().fill('Written on the train, sent later.');
    await form.getByRole('button', { name: 'Post response' }).click();
    await page.getByTestId('response-content').filter({ hasText: 'Written on the train, sent later.' }).waitFor();
    await context.setOffline(false);

    const issue = page.getByRole('region', { name: 'Changes that could not be saved' });
    await issue.getByText(/Your account is suspended until \d{4}-\d\d-\d\d: Repeated insults/).waitFor(SYNCED);
    await screenshot(page, 'moderation-suspended-sync-problem');
    const server_ = await api(dee).get(`/responses?topic_id=${topicId}`);
    expect((server_.body as { content: string }[]).map((r) => r.content)).toEqual(['A calm opening argument.']);
    await context.close();
  });

  it("blocking collapses a user's responses, offline too, and Show opens one", { timeout: 120_000 }, async () => {
    const eve = await createTestUser('Eve Blocker');
    const fay = await createTestUser('Fay Blocked');
    const title = 'Moderation: what does blocking hide?';
    const { topicId } = await topicWithResponse(title, 'Fay says something Eve would rather not read.', fay);
    const context = await browser.newContext();
    const page = await signedIn(context, eve);
    await openTopic(page, topicId, title);
    await waitForTopicOnDevice(page, topicId);

    await page.goto(`${server.url}/users/${fay.uid}`);
    await page.getByRole('button', { name: 'Block Fay Blocked' }).click();
    // After a full page load the data layer and the user's database open first: on a loaded machine that can take a while.
    await page.getByRole('button', { name: 'Unblock Fay Blocked' }).waitFor({ timeout: 60_000 });

    await context.setOffline(true);
    await page.goto(`${server.url}/topics/${topicId}`);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    const collapsed = page.getByTestId('blocked-collapsed');
    await collapsed.getByText('Hidden: you blocked Fay Blocked.').waitFor(SYNCED);
    expect(await page.getByText('Fay says something Eve would rather not read.').count()).toBe(0);
    await collapsed.getByRole('button', { name: 'Show the response by Fay Blocked' }).click();
    await page.getByText('Fay says something Eve would rather not read.').waitFor();
    await context.setOffline(false);

    // The block reached the server once the device was online again (it was made online here, so it already had).
    await expect.poll(async () => ((await api(eve).get('/blocks')).body as { uid: string }[]).map((b) => b.uid), SYNCED).toEqual([fay.uid]);
    await context.close();
  });

  it('the report dialog, the queue and the log pass axe in light and dark, desktop and phone', { timeout: 240_000 }, async () => {
    const title = 'Moderation: is axe happy in the dark?';
    const { topicId } = await topicWithResponse(title, 'An argument to look at in both themes.');
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const viewport of [
        { width: 1280, height: 800 },
        { width: 390, height: 844 },
      ]) {
        const context = await browser.newContext({ colorScheme, viewport });
        const page = await signedIn(context, mod);
        await page.goto(`${server.url}/moderation`);
        await page.getByRole('heading', { level: 1, name: 'Moderation' }).waitFor();
        await page.getByRole('group', { name: 'Show reports' }).waitFor();
        expect(await axeViolations(page), `queue ${colorScheme} ${viewport.width}`).toEqual([]);
        await screenshot(page, `moderation-queue-${colorScheme}-${viewport.width}`);
        await page.goto(`${server.url}/moderation/log`);
        await page.getByRole('heading', { level: 1 }).waitFor();
        expect(await axeViolations(page), `log ${colorScheme} ${viewport.width}`).toEqual([]);
        await openTopic(page, topicId, title);
        const item = responseItem(page, 'An argument to look at in both themes.').locator('> article');
        const spam = page.getByRole('dialog').getByRole('radio', { name: 'Spam' });
        // On a phone, Report is in the response's More menu. A press made while the page's first rows
        // give way to the local database's (a busy machine takes seconds) can be lost with the row it
        // was made on: pressed again, as a person would, until the dialog shows.
        for (let attempt = 0; ; attempt++) {
          if (attempt > 0 && (await spam.isVisible())) break;
          if (viewport.width <= 600) {
            await item.getByRole('button', { name: 'More' }).click();
            await page.getByRole('menu').getByRole('menuitem', { name: 'Report' }).click();
          } else await item.getByRole('button', { name: /^Report response/ }).click();
          const shown = await spam.waitFor({ timeout: 15_000 }).then(
            () => true,
            () => false,
          );
          if (shown) break;
          if (attempt === 3) throw new Error(`the report dialog did not open (${colorScheme} ${viewport.width})`);
        }
        expect(await axeViolations(page), `report dialog ${colorScheme} ${viewport.width}`).toEqual([]);
        await context.close();
      }
    }
  });
});
