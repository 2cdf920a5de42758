// A newcomer on a 390×844 phone in Chromium: the header says "Crux" on one line; a visitor's first
// screen says what Crux is, there from the first paint (the rows under it never move), with no
// horizontal overflow, and it stays dismissed; the "?" explanations open by touch and keyboard.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createTestUser, type TestUser } from '../fixtures/auth';
import { ensureBuild, launchBrowser, newPage, screenshot, startServer, type RunningServer } from './harness';
import { openStanding, signInThroughModal } from './flows';
import { axeViolations } from './axe';

let server: RunningServer;
let browser: Browser;
let eve: TestUser;

beforeAll(async () => {
  await ensureBuild();
  [server, browser, eve] = await Promise.all([startServer({ seedDemo: true }), launchBrowser(), createTestUser('Eve Newcomer')]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.stop();
});

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const intro = (page: Page) => page.getByRole('region', { name: /Crux gets to the heart of a disagreement/ });

/** The header: one row of the header's height, nothing outside the screen, the word "Crux" shown. */
async function expectHeaderFits(page: Page, label: string) {
  const logo = page.getByRole('link', { name: 'Crux home' });
  expect((await logo.innerText()).trim(), label).toBe('Crux');
  const word = logo.getByText('Crux', { exact: true });
  expect(await word.isVisible(), label).toBe(true);
  const measured = await page.evaluate(() => {
    const inner = document.querySelector('.site-header-inner')!;
    const items = [...inner.children].filter((el) => getComputedStyle(el).display !== 'none' && !el.matches('#site-menu'));
    const boxes = items.map((el) => el.getBoundingClientRect());
    return {
      height: inner.getBoundingClientRect().height,
      right: Math.max(...boxes.map((b) => b.right)),
      tops: boxes.map((b) => Math.round(b.top + b.height / 2)),
      scrollWidth: document.documentElement.scrollWidth,
    };
  });
  expect(measured.height, label).toBe(60);
  expect(measured.right, label).toBeLessThanOrEqual(390);
  // Logo, the user's items and the burger share one row (their middles within a few px).
  expect(Math.max(...measured.tops) - Math.min(...measured.tops), label).toBeLessThanOrEqual(4);
  expect(measured.scrollWidth, label).toBeLessThanOrEqual(390);
}

describe('a newcomer on a phone', () => {
  it('the first screen says what Crux is, from the first paint, and stays dismissed', { timeout: 120_000 }, async () => {
    const context = await browser.newContext(PHONE);
    const { page, errors } = await newPage(context);
    await page.goto(server.url + '/');
    const firstRow = page.getByTestId('topic-row').first();
    await firstRow.waitFor();
    // Already there when the first rows (embedded in the page) paint: never inserted above them later.
    expect(await intro(page).isVisible()).toBe(true);
    const rowTop = (await firstRow.boundingBox())!.y;
    const introBox = (await intro(page).boundingBox())!;
    expect(introBox.y + introBox.height).toBeLessThanOrEqual(rowTop);
    // The intro and the first row both fit the first screen.
    expect(rowTop).toBeLessThan(844);
    await expectHeaderFits(page, 'visitor');
    // What it is for and how it differs from a forum: stances before and after, Δ, common ground.
    expect((await intro(page).innerText()).replace(/\s+/g, ' ')).toContain(
      'Unlike a forum, you record where you stand before and after reading, give a Δ to the argument that changed your mind, and see the common ground both sides upvote.',
    );
    expect(await intro(page).getByRole('link', { name: 'How Crux works' }).isVisible()).toBe(true);
    await screenshot(page, 'newcomer-phone-list');
    expect(await axeViolations(page), 'list with intro, light').toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await axeViolations(page), 'list with intro, dark').toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });

    // Once the data layer has opened and pulled, the rows are where they were.
    await page.waitForFunction(async () => (await indexedDB.databases()).some((db) => /topics/.test(db.name ?? '')), undefined, {
      timeout: 30_000,
    });
    await page.waitForTimeout(1000);
    expect((await firstRow.boundingBox())!.y).toBe(rowTop);

    // Dismissed from the keyboard; remembered on the next visit.
    const dismiss = intro(page).getByRole('button', { name: 'Dismiss the introduction' });
    await dismiss.focus();
    await page.keyboard.press('Enter');
    await intro(page).waitFor({ state: 'detached' });
    await page.reload();
    await firstRow.waitFor();
    expect(await intro(page).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it(
    'on a demo debate the arguments start on the first screen: the best of each side, then the responses',
    { timeout: 90_000 },
    async () => {
      const context = await browser.newContext(PHONE);
      const { page, errors } = await newPage(context);
      await page.goto(server.url + '/');
      await page.getByTestId('topic-row').first().getByRole('link').first().tap();
      const best = page.getByTestId('strongest-case').locator('.strongest-case-list li');
      await best.first().waitFor();
      await page.locator('li[data-testid="response"]').first().waitFor();
      const at = await page.evaluate(() => {
        const top = (el: Element | null) => (el ? el.getBoundingClientRect().top + scrollY : Infinity);
        const lists = [...document.querySelectorAll('[data-testid="strongest-case"] .strongest-case-list')];
        return {
          screen: innerHeight,
          // The best argument for and the best against: their first lines on the first screen.
          bestFor: top(lists[0]?.querySelector('li') ?? null),
          bestAgainst: top(lists[1]?.querySelector('li') ?? null),
          // Folded under the title: the stance picker and the bars (a button says the counts).
          stanceShown: document.querySelector('[role="radiogroup"], .where-i-stand')?.checkVisibility() ?? false,
          form: document.querySelector('form[aria-label="Add a response"]')!.getBoundingClientRect().height,
          firstResponse: top(document.querySelector('li[data-testid="response"]')),
        };
      });
      expect(at.bestFor + 48, 'the best argument for starts within the first screen').toBeLessThan(at.screen);
      expect(at.bestAgainst + 24, 'the best argument against starts within the first screen').toBeLessThan(at.screen);
      expect(at.stanceShown, 'stance picker folded on a phone').toBe(false);
      expect(at.form, 'the idle form is one line').toBeLessThan(100);
      // Below them, the list: no more than the strongest case's height and one line of form away.
      expect(at.firstResponse).toBeLessThan(1.5 * at.screen);
      await screenshot(page, 'topic-first-screen-phone');
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it('"How Crux works" opens the About page at its section, below the sticky header', { timeout: 60_000 }, async () => {
    const context = await browser.newContext(PHONE);
    const { page, errors } = await newPage(context);
    await page.goto(server.url + '/');
    await intro(page).getByRole('link', { name: 'How Crux works' }).tap();
    const section = page.getByRole('heading', { level: 2, name: 'How Crux works' });
    await section.waitFor();
    await expect.poll(async () => (await section.boundingBox())!.y).toBeGreaterThanOrEqual(60);
    expect((await section.boundingBox())!.y).toBeLessThan(844 / 2);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      expect(await axeViolations(page), `About ${colorScheme}`).toEqual([]);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('"?" explanations open by keyboard and by touch, 44 px tall on a phone, without widening the page', { timeout: 90_000 }, async () => {
    const context = await browser.newContext(PHONE);
    const { page, errors } = await newPage(context);
    await page.goto(server.url + '/');
    await page.getByTestId('topic-row').first().getByRole('link').first().tap();
    await openStanding(page);
    const stanceBar = page.getByRole('button', { name: 'What is the stance bar?' });
    await stanceBar.waitFor();
    const box = (await stanceBar.boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(44);
    expect(box.height).toBeGreaterThanOrEqual(44);
    const textOf = async (button: ReturnType<Page['getByRole']>) => page.locator(`#${await button.getAttribute('aria-controls')}`);

    // Keyboard: Enter opens, Space closes.
    await stanceBar.focus();
    await page.keyboard.press('Enter');
    expect(await stanceBar.getAttribute('aria-expanded')).toBe('true');
    expect(await (await textOf(stanceBar)).isVisible()).toBe(true);
    await page.keyboard.press('Space');
    expect(await stanceBar.getAttribute('aria-expanded')).toBe('false');
    expect(await (await textOf(stanceBar)).isVisible()).toBe(false);

    // Touch: Δ and common ground, both open at once, the page no wider than the screen.
    for (const name of ['What is Δ (delta)?', 'What is Common ground?']) {
      const button = page.getByRole('button', { name });
      await button.tap();
      expect(await (await textOf(button)).isVisible(), name).toBe(true);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'newcomer-phone-explained');
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      expect(await axeViolations(page), `visitor's topic page, explanations open, ${colorScheme}`).toEqual([]);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('signed in, the phone header still says "Crux" on one line, and the intro is gone', { timeout: 90_000 }, async () => {
    const context = await browser.newContext(PHONE);
    const { page, errors } = await newPage(context);
    await page.goto(server.url + '/');
    await intro(page).waitFor();
    await signInThroughModal(page, eve);
    await intro(page).waitFor({ state: 'detached' });
    await expectHeaderFits(page, 'signed in');
    await screenshot(page, 'newcomer-phone-signed-in');
    expect(errors).toEqual([]);
    await context.close();
  });
});
