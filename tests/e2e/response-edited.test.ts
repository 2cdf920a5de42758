// An edited response in Chromium: Ada edits her response after Bob read it; Bob's page then says "edited"
// with when, on the response's meta line (the exact time in the <time> element), and a response
// never edited says nothing of the kind. The edit comes after the grace period, so the mark opens the
// edit history: both versions, the words changed marked. axe clean on Bob's topic page, light and dark,
// with the history open.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { EDIT_GRACE_MS } from '../../shared/rules/edit-history';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createTestUser, type TestUser } from '../fixtures/auth';
import { ensureBuild, launchBrowser, newPage, screenshot, startServer, type RunningServer } from './harness';
import { createTopicThroughSearchBox, postInComposer, responseItem, signInThroughModal } from './flows';
import { axeViolations } from './axe';

let server: RunningServer;
let browser: Browser;
let ada: TestUser;
let bob: TestUser;

beforeAll(async () => {
  await ensureBuild();
  [server, browser, ada, bob] = await Promise.all([
    startServer(),
    launchBrowser(),
    createTestUser('Ada Edits'),
    createTestUser('Bob Reads'),
  ]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.stop();
});

const DESKTOP = { viewport: { width: 1280, height: 800 } };

/** Waits for the mark on the reader's page: the live stream brings the edit; a reload is the fallback. */
async function waitForMark(page: Page, content: string) {
  const mark = responseItem(page, content).getByTestId('response-edited');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await mark.waitFor({ timeout: 8_000 });
      return mark;
    } catch {
      await page.reload();
    }
  }
  await mark.waitFor();
  return mark;
}

/**
 * Makes a response look posted before the grace period (the server's SQLite file, written directly:
 * no call makes a response older), so its next edit keeps a version.
 */
function postedLongAgo(content: string) {
  const db = new Database(join(server.dataDir, 'crux.sqlite'), { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const longAgo = new Date(Date.now() - 2 * EDIT_GRACE_MS).toISOString();
    expect(db.prepare('UPDATE responses SET created_at = ?, updated_at = ? WHERE content = ?').run(longAgo, longAgo, content).changes).toBe(
      1,
    );
  } finally {
    db.close();
  }
}

describe('the edited mark', () => {
  it('an edited response says "edited" with its time to another user; an unedited one does not', { timeout: 150_000 }, async () => {
    const adaContext = await browser.newContext(DESKTOP);
    const bobContext = await browser.newContext(DESKTOP);
    const { page: adaPage, errors: adaErrors } = await newPage(adaContext);
    const { page: bobPage, errors: bobErrors } = await newPage(bobContext);

    await adaPage.goto(server.url + '/');
    await signInThroughModal(adaPage, ada);
    const topicId = await createTopicThroughSearchBox(adaPage, 'Should the edited mark be shown?', 'Technology');
    await postInComposer(adaPage, 'Add a response', 'The first version of my argument');
    await postInComposer(adaPage, 'Add a response', 'An argument left as it was');

    await bobPage.goto(`${server.url}/topics/${topicId}`);
    await signInThroughModal(bobPage, bob);
    await responseItem(bobPage, 'The first version of my argument').waitFor();
    expect(await bobPage.getByTestId('response-edited').count()).toBe(0);

    // Ada changes the argument after Bob read it, past the grace period after posting.
    postedLongAgo('The first version of my argument');
    const before = Date.now();
    const mine = responseItem(adaPage, 'The first version of my argument');
    await mine.getByRole('button', { name: 'Edit', exact: true }).click();
    const form = adaPage.getByRole('form', { name: 'Edit response' });
    await form.getByRole('textbox').first().fill('The second version of my argument');
    await form.getByRole('button', { name: 'Save' }).click();
    await responseItem(adaPage, 'The second version of my argument').getByTestId('response-edited').waitFor();

    const mark = await waitForMark(bobPage, 'The second version of my argument');
    expect((await mark.innerText()).trim()).toBe('· edited just now');
    const time = mark.locator('time');
    const when = Date.parse((await time.getAttribute('datetime'))!);
    expect(when).toBeGreaterThanOrEqual(before - 5_000);
    expect(when).toBeLessThanOrEqual(Date.now());
    // The exact time is the tooltip of a pointer that comes over it.
    await time.hover();
    expect(await time.getAttribute('title')).toBeTruthy();
    // On the meta line, beside the author and the creation time.
    expect(await mark.evaluate((el) => el.parentElement?.classList.contains('response-meta'))).toBe(true);
    expect(await responseItem(bobPage, 'An argument left as it was').getByTestId('response-edited').count()).toBe(0);

    // The mark opens the edit history: newest first, the changed word marked in words too.
    const opener = mark.getByRole('button', { name: 'edited just now' });
    expect(await opener.getAttribute('aria-expanded')).toBe('false');
    await opener.click();
    const history = responseItem(bobPage, 'The second version of my argument').getByRole('region', { name: 'Edit history' });
    await history.waitFor();
    expect(await opener.getAttribute('aria-expanded')).toBe('true');
    const entries = history.getByRole('listitem');
    expect(await entries.count()).toBe(2);
    expect(await entries.nth(0).locator('strong').innerText()).toBe('Current version');
    expect(await entries.nth(0).locator('del').textContent()).toBe('[removed: first ]');
    expect(await entries.nth(0).locator('ins').textContent()).toBe('[added: second ]');
    expect(await entries.nth(1).innerText()).toContain('The first version of my argument');

    await screenshot(bobPage, 'response-edited-desktop');
    expect(await axeViolations(bobPage), 'topic with an edited response, light').toEqual([]);
    await bobPage.emulateMedia({ colorScheme: 'dark' });
    expect(await axeViolations(bobPage), 'topic with an edited response, dark').toEqual([]);
    // On a phone the mark stays on the meta line, inside the screen, and axe stays clean.
    await bobPage.setViewportSize({ width: 390, height: 844 });
    expect(await mark.isVisible()).toBe(true);
    expect((await mark.boundingBox())!.x + (await mark.boundingBox())!.width).toBeLessThanOrEqual(390);
    expect(await bobPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    for (const colorScheme of ['dark', 'light'] as const) {
      await bobPage.emulateMedia({ colorScheme });
      expect(await axeViolations(bobPage), `topic with an edited response, 390 px ${colorScheme}`).toEqual([]);
    }

    expect(adaErrors).toEqual([]);
    expect(bobErrors).toEqual([]);
    await adaContext.close();
    await bobContext.close();
  });
});
