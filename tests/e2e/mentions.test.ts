// @mentions in Chromium, on a 390×844 phone: Bob types "@" and the start of a name in
// a topic's composer, the participants' names are offered (the topic's creator among them, from the
// device's own store), the list overlays the form without moving it and passes axe in light and
// dark; he picks Ada with the keyboard and posts. Ada's bell counts the mention, her notifications
// say "mentioned you", and the mention renders as a link to her page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiClient } from '../fixtures/api';
import { createTestUser, type TestUser } from '../fixtures/auth';
import { ensureBuild, launchBrowser, newPage, screenshot, startServer, type RunningServer } from './harness';
import { signInThroughModal } from './flows';
import { axeViolations } from './axe';

let server: RunningServer;
let browser: Browser;
let ada: TestUser;
let bob: TestUser;
let cy: TestUser;

beforeAll(async () => {
  await ensureBuild();
  [server, browser, ada, bob, cy] = await Promise.all([
    startServer(),
    launchBrowser(),
    createTestUser('Ada Mentioned'),
    createTestUser('Bob Mentioner'),
    createTestUser('Cy Creator'),
  ]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.stop();
});

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const LIVE = { timeout: 20_000 };
const as = (user: TestUser) => apiClient(server.url, () => user.token);
const bell = (page: Page) => page.locator('header').getByRole('link', { name: /^Notifications/ });

describe('@mentions', () => {
  it('suggested while typing, picked with the keyboard, notified in the bell and shown as a link', { timeout: 180_000 }, async () => {
    // Cy's topic, in which Ada has answered: both take part, so both can be named.
    const created = await as(cy).post('/topics', { title: 'Should cities ban cars from their centres?', categories: ['Politics'] });
    expect(created.status, created.text).toBe(201);
    const topicId = (created.body as { id: string }).id;
    const answered = await as(ada).post('/responses', { topic_id: topicId, type: 'for', content: 'Yes, streets are for people.' });
    expect(answered.status, answered.text).toBe(201);

    const bobs = await browser.newContext(PHONE);
    const { page, errors } = await newPage(bobs);
    await page.goto(`${server.url}/topics/${topicId}`);
    await signInThroughModal(page, bob);
    const form = page.getByRole('form', { name: 'Add a response' });
    const box = form.getByRole('textbox', { name: 'Your response' });
    const toolbar = form.getByRole('button', { name: 'Quote a response' });
    await box.click();
    const toolbarBefore = (await toolbar.boundingBox())!;
    await page.keyboard.type('I think @ada m');

    const list = page.getByRole('listbox', { name: 'People to mention' });
    await list.waitFor(LIVE);
    expect(await list.getByRole('option').allTextContents()).toEqual(['@Ada Mentioned']);
    // The whole list of participants after a bare "@": the topic's creator too, never Bob himself.
    for (let i = 0; i < 'ada m'.length; i++) await page.keyboard.press('Backspace');
    await expect.poll(() => list.getByRole('option').allTextContents()).toEqual(['@Ada Mentioned', '@Cy Creator']);
    await page.keyboard.type('ada m');
    await expect.poll(() => list.getByRole('option').allTextContents()).toEqual(['@Ada Mentioned']);
    expect(await box.getAttribute('aria-autocomplete')).toBe('list');
    expect(await box.getAttribute('aria-controls')).toBe(await list.getAttribute('id'));
    const active = await box.getAttribute('aria-activedescendant');
    expect(await page.locator(`[id="${active}"]`).textContent()).toBe('@Ada Mentioned');
    // It lies over the form: nothing below the box moves, and it stays on the screen.
    expect(await toolbar.boundingBox()).toEqual(toolbarBefore);
    const listBox = (await list.boundingBox())!;
    expect(listBox.x).toBeGreaterThanOrEqual(0);
    expect(listBox.x + listBox.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'mention-suggestions-phone');
    expect(await axeViolations(page), 'composer with the list open, light').toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await axeViolations(page), 'composer with the list open, dark').toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });

    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => list.count()).toBe(0);
    expect(await box.inputValue()).toBe('I think @Ada Mentioned ');
    await page.keyboard.type('has a point.');
    const content = 'I think @Ada Mentioned has a point.';
    expect(await box.inputValue()).toBe(content);
    await form.getByRole('button', { name: 'Post response' }).click();
    const posted = page.getByTestId('response-content').filter({ hasText: content });
    await posted.waitFor(LIVE);
    const link = posted.getByRole('link', { name: '@Ada Mentioned' });
    expect(await link.getAttribute('href')).toBe(`/users/${ada.uid}`);
    expect(errors).toEqual([]);

    // Ada: the bell counts the mention (the reply notification went to Cy, the topic's creator).
    const adas = await browser.newContext(PHONE);
    const { page: adaPage, errors: adaErrors } = await newPage(adas);
    await adaPage.goto(server.url + '/');
    await signInThroughModal(adaPage, ada);
    await adaPage
      .locator('header')
      .getByRole('link', { name: /^Notifications, 1 unread/ })
      .waitFor(LIVE);
    await bell(adaPage).click();
    await adaPage.getByRole('heading', { level: 1, name: 'Your Notifications' }).waitFor();
    const items = adaPage.locator('.notification-item');
    await expect.poll(() => items.count(), LIVE).toBe(1);
    expect(await items.first().textContent()).toContain(`Bob Mentioner mentioned you: "${content}"`);
    expect(await axeViolations(adaPage)).toEqual([]);

    // Its click opens the topic at the response, where her name links to her page.
    await adaPage.getByRole('button', { name: /mentioned you/ }).click();
    await adaPage.waitForURL(new RegExp(`/topics/${topicId}#response-`));
    const seen = adaPage.getByTestId('response-content').filter({ hasText: content });
    await seen.waitFor(LIVE);
    await seen.getByRole('link', { name: '@Ada Mentioned' }).click();
    await adaPage.waitForURL(`${server.url}/users/${ada.uid}`);
    expect(adaErrors).toEqual([]);
    await bobs.close();
    await adas.close();
  });
});
