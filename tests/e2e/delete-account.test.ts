// "Delete my account" in real Chromium, seen from a second device that was offline meanwhile: Ann
// opens /settings/delete-account signed out, signs in there, chooses "delete", types DELETE and
// confirms; she is logged out with the done message. Bob's browser, offline during it, shows her
// response as erased at its next sync, and neither its IndexedDB nor the topic page its service worker
// kept holds a word of hers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MSG } from '../../shared/messages';
import { apiClient } from '../fixtures/api';
import { createTestUser, type TestUser } from '../fixtures/auth';
import { axeViolations } from './axe';
import { signInThroughModal } from './flows';
import { ensureBuild, launchBrowser, newPage, startServer, type RunningServer } from './harness';

let server: RunningServer;
let browser: Browser;
let ann: TestUser;
let bob: TestUser;
const SYNCED = { timeout: 25_000 };

beforeAll(async () => {
  await ensureBuild();
  [server, browser, ann, bob] = await Promise.all([
    startServer(),
    launchBrowser(),
    createTestUser('Ann Leaving'),
    createTestUser('Bob Staying'),
  ]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.stop();
});

const as = (user: TestUser) => apiClient(server.url, () => user.token);

/** Every record of every IndexedDB database of the page's origin, as one string. */
const rawIndexedDb = (page: Page) =>
  page.evaluate(async () => {
    const dumps: string[] = [];
    for (const { name } of await indexedDB.databases()) {
      if (!name) continue;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(name);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(new Error(String(request.error)));
      });
      for (const store of Array.from(db.objectStoreNames)) {
        const records = await new Promise<unknown[]>((resolve, reject) => {
          const request = db.transaction(store, 'readonly').objectStore(store).getAll();
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(new Error(String(request.error)));
        });
        dumps.push(JSON.stringify(records));
      }
      db.close();
    }
    return dumps.join('\n');
  });

/** The service worker's kept topic pages (Cache Storage) whose body holds `needle`. */
const keptPagesWith = (page: Page, needle: string) =>
  page.evaluate(async (text) => {
    const found: string[] = [];
    for (const cacheName of await caches.keys()) {
      const cache = await caches.open(cacheName);
      for (const request of await cache.keys()) {
        if (!/\/topics\//.test(request.url)) continue;
        if ((await (await cache.match(request))?.text())?.includes(text)) found.push(`${cacheName} ${request.url}`);
      }
    }
    return found;
  }, needle);

describe('deleting my account in the browser', () => {
  it('signed out → sign in → confirm → done; an offline device loses the words at its next sync', { timeout: 150_000 }, async () => {
    const secret = 'Annsecretwords about trams';
    const topic = (await as(bob).post('/topics', { title: 'Should trams be free?', categories: ['Politics'] })).body as {
      id: string;
      title: string;
    };
    expect((await as(ann).post('/responses', { topic_id: topic.id, type: 'for', content: secret })).status).toBe(201);

    // Bob's device reads the debate, then goes offline.
    const bobContext = await browser.newContext();
    const { page: bobPage } = await newPage(bobContext);
    await bobPage.goto(`${server.url}/`);
    await signInThroughModal(bobPage, bob);
    // The service worker controls the page before the topic opens, so it keeps the topic's page.
    await bobPage.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await bobPage.goto(`${server.url}/topics/${topic.id}`);
    await bobPage.getByText(secret).waitFor(SYNCED);
    // The service worker kept the topic's page, first screen and all, for an offline visit.
    await expect.poll(async () => (await keptPagesWith(bobPage, secret)).length, SYNCED).toBeGreaterThan(0);
    await bobContext.setOffline(true);

    // Ann, signed out, opens the address.
    const annContext = await browser.newContext();
    const { page } = await newPage(annContext);
    await page.goto(`${server.url}/settings/delete-account`);
    await page.getByRole('heading', { level: 1, name: 'Delete my account' }).waitFor();
    await page.getByRole('button', { name: 'Sign in to continue' }).waitFor();
    await signInThroughModal(page, ann);
    const confirm = page.getByRole('button', { name: 'Delete my account' });
    await confirm.waitFor();
    expect(await confirm.isDisabled()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('radio', { name: /Delete them/ }).check();
    await page.getByLabel('Type DELETE to confirm').fill('DELETE');
    await confirm.click();
    await page.getByText('Your account is deleted, and you are logged out.').waitFor(SYNCED);
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();

    // Bob's device comes back: the response keeps its place, without Ann's words, on screen and on disk.
    await bobContext.setOffline(false);
    await bobPage.getByText(MSG.deletedWithAccount).first().waitFor(SYNCED);
    expect(await bobPage.getByText(secret).count()).toBe(0);
    await expect.poll(async () => (await rawIndexedDb(bobPage)).includes(secret), SYNCED).toBe(false);
    // Nor in the kept page: an offline visit renders from the local database instead.
    await expect.poll(() => keptPagesWith(bobPage, secret), SYNCED).toEqual([]);
    await bobContext.close();
    await annContext.close();
  });
});
