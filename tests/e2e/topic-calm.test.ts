// A calm topic page in Chromium on the demo debate: a stance is a radio group, not the reply type's
// buttons; a response offers one way to answer and puts the rest in a "More" menu on a phone (a real
// menu button, by keyboard); no "Show All (0)"; every control on a 390 px phone is at least 44 x 44
// CSS px of target (its box, or its hit area found by elementFromPoint); desktop keeps its density;
// axe stays clean, light and dark, desktop and phone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContextOptions } from 'playwright-core';
import { apiClient } from '../fixtures/api';
import { createTestUser, type TestUser } from '../fixtures/auth';
import { ensureBuild, launchBrowser, newPage, screenshot, startServer, type RunningServer } from './harness';
import { openStanding, responseItem, signInThroughModal } from './flows';
import { axeViolations } from './axe';
import { smallTargets } from './targets';

let server: RunningServer;
let browser: Browser;
let fay: TestUser;
let voter: TestUser;

const TITLE = /Should cities make public transport free/;
const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };
const MINE = 'Free fares are a subsidy to whoever rides most, rich or poor.';

beforeAll(async () => {
  await ensureBuild();
  [server, browser, fay, voter] = await Promise.all([
    startServer({ seedDemo: true }),
    launchBrowser(),
    createTestUser('Fay Thumbs'),
    createTestUser('Gus Voter'),
  ]);
  // A response of Fay's own in the demo debate: her Edit and Delete are on the page too.
  const api = apiClient(server.url, () => fay.token);
  const topics = (await api.get<{ id: string; title: string }[]>('/topics?sort=new')).body;
  const topic = topics.find((t) => TITLE.test(t.title));
  if (!topic) throw new Error(`demo topic ${String(TITLE)} not found`);
  expect((await api.post('/responses', { topic_id: topic.id, type: 'against', content: MINE })).status).toBeLessThan(300);
  // Gus takes each side in turn and upvotes its first root argument, so the Strongest case lists a
  // link on both sides whatever the demo's own votes (the 44 px rule measures them).
  const gus = apiClient(server.url, () => voter.token);
  const roots = (await gus.get<{ id: string; type: string }[]>(`/responses?topic_id=${topic.id}`)).body;
  for (const [stance, type] of [
    ['agree', 'for'],
    ['disagree', 'against'],
  ] as const) {
    expect((await gus.put(`/topics/${topic.id}/stance`, { stance })).status).toBe(200);
    const root = roots.find((r) => r.type === type)!;
    expect((await gus.post('/upvotes', { target_type: 'response', target_id: root.id })).status).toBeLessThan(300);
  }
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.stop();
});

/** The demo debate, signed in as Fay, its first thread open. */
async function openDebate(options: BrowserContextOptions) {
  const context = await browser.newContext({ ...options, colorScheme: 'light' });
  const { page, errors } = await newPage(context);
  await page.goto(server.url + '/');
  await page.getByRole('link', { name: TITLE }).first().click();
  await page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
  await signInThroughModal(page, fay);
  await responseItem(page, MINE).waitFor();
  // One thread open: nested replies are measured too.
  await page
    .getByRole('button', { name: /^Show All \(\d+\)$/ })
    .first()
    .click();
  await page
    .getByRole('button', { name: /^Hide All \(\d+\)$/ })
    .first()
    .waitFor();
  return { page, errors, close: () => context.close() };
}

/** The reply "already said" repeats: Dana's point that fares fund the service, in other words. */
const NEAR_COPY = 'Without fares, which fund a large share of the operating costs, service frequency is cut first in a budget squeeze.';

/**
 * The demo debate with every optional control open at once: Follow in the header,
 * the Strongest case's links, the Opinion groups and Debate map panels, the composer's "This was
 * already said" hint and its @mention suggestions (the list open, the caret after "@Ba").
 */
async function openNewerControls(options: BrowserContextOptions) {
  const debate = await openDebate(options);
  const { page } = debate;
  await page.getByTestId('follow-button').waitFor();
  await expect.poll(() => page.getByTestId('follow-button').isEnabled()).toBe(true);
  const strongest = page.getByRole('region', { name: 'Strongest case on each side' });
  await strongest.getByRole('link').first().waitFor();
  for (const name of ['Opinion groups', 'Debate map']) {
    await page.getByRole('button', { name, exact: true }).click();
    await page.getByRole('region', { name }).waitFor();
  }
  await page.getByRole('region', { name: 'Debate map' }).locator('[role=button]').first().waitFor();
  const form = page.getByRole('form', { name: 'Add a response' });
  const box = form.getByRole('textbox', { name: 'Your response' });
  await box.fill(NEAR_COPY);
  await form.getByRole('region', { name: 'This was already said' }).waitFor({ timeout: 10_000 });
  await box.press('Control+End');
  await page.keyboard.type(' @Ba');
  await page.getByRole('listbox', { name: 'People to mention' }).waitFor();
  return debate;
}

describe('a calmer topic page', () => {
  it('on a 390 px phone every control is at least 44 x 44 CSS px of target', { timeout: 120_000 }, async () => {
    const { page, errors, close } = await openDebate(PHONE);
    // The folded stance and balance measured open (the toggle itself is measured either way).
    await openStanding(page);
    expect(await smallTargets(page), 'controls under 44 x 44 at 390 px').toEqual([]);
    // The burger menu's links too.
    await page.getByRole('button', { name: 'Menu' }).tap();
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'About' }).waitFor();
    // (It covers the page under it: only its own links are measured.)
    expect(await smallTargets(page, '#site-menu'), 'links under 44 x 44 in the open menu').toEqual([]);
    await page.getByRole('button', { name: 'Menu' }).tap();
    // And a response's More menu.
    await responseItem(page, MINE).locator('> article').getByRole('button', { name: 'More' }).tap();
    await page.getByRole('menu').waitFor();
    expect(await smallTargets(page, '[role=menu]'), 'items under 44 x 44 in a More menu').toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), 'nothing wider than the screen').toBeLessThanOrEqual(390);
    expect(errors).toEqual([]);
    await close();
  });

  it(
    'the newer controls keep the 44 px rule and axe: Follow, Strongest case, Opinion groups, the map, "already said", @mentions',
    { timeout: 180_000 },
    async () => {
      for (const options of [PHONE, DESKTOP]) {
        const { page, errors, close } = await openNewerControls(options);
        const where = `${options.viewport!.width} px`;
        if (options === PHONE) {
          // The mention list lies over what is under the box (by design): the rest is measured without it.
          await page.keyboard.press('Escape');
          await page.getByRole('listbox', { name: 'People to mention' }).waitFor({ state: 'detached' });
          expect(await smallTargets(page), `${where}: controls under 44 x 44 with the panels and the hint open`).toEqual([]);
          // (Escape closed that "@" for good: a new one opens the list again.)
          await page.keyboard.type(' @Ba');
          await page.getByRole('listbox', { name: 'People to mention' }).waitFor();
          expect(await smallTargets(page, '[role=listbox]'), `${where}: mention suggestions under 44 x 44`).toEqual([]);
          expect(await page.evaluate(() => document.documentElement.scrollWidth), 'nothing wider than the screen').toBeLessThanOrEqual(390);
        }
        for (const colorScheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme });
          expect(await axeViolations(page), `${where} ${colorScheme}, panels, hint and mention list open`).toEqual([]);
        }
        expect(errors).toEqual([]);
        await close();
      }
    },
  );

  it('on a 390 px phone the other screens keep the 44 px rule too', { timeout: 150_000 }, async () => {
    const { page, close } = await openDebate(PHONE);
    const offenders: string[] = [];
    for (const path of [
      '/',
      '/leaderboard',
      '/about',
      '/sources',
      '/terms',
      '/privacy',
      '/notifications',
      '/unsubscribe',
      `/users/${fay.uid}`,
    ]) {
      await page.goto(server.url + path);
      await page.locator('main h1').first().waitFor({ state: 'attached' });
      // Lists and the user's page fill in after the heading: their rows are measured too.
      await page.waitForTimeout(1500);
      offenders.push(...(await smallTargets(page)).map((o) => `${path}: ${o}`));
    }
    await close();
    // A visitor's list (with the intro) and topic page (with the sign-in prompts).
    const visitor = await browser.newContext(PHONE);
    const { page: visit } = await newPage(visitor);
    await visit.goto(server.url + '/');
    await visit.getByTestId('topic-row').first().waitFor();
    offenders.push(...(await smallTargets(visit)).map((o) => `visitor /: ${o}`));
    await visit.getByRole('link', { name: TITLE }).first().click();
    await responseItem(visit, MINE).waitFor();
    offenders.push(...(await smallTargets(visit)).map((o) => `visitor topic: ${o}`));
    await visitor.close();
    expect(offenders, 'controls under 44 x 44 at 390 px').toEqual([]);
  });

  it('the stance is a radio group of its own; the reply types are buttons', { timeout: 120_000 }, async () => {
    for (const options of [DESKTOP, PHONE]) {
      const { page, close } = await openDebate(options);
      await openStanding(page);
      const stance = page.getByRole('radiogroup', { name: 'Where do you stand?' });
      expect(await stance.getByRole('radio').allTextContents()).toEqual(['I agree', 'I disagree', "I'm unsure"]);
      // The stance offers no buttons at all, and no radio is named like a reply type.
      expect(await stance.getByRole('button').count()).toBe(0);
      for (const type of ['Agree', 'Disagree', 'Discuss']) {
        expect(await page.getByRole('radio', { name: type, exact: true }).count(), type).toBe(0);
        expect(await page.locator('.topic-actions').getByRole('button', { name: type, exact: true }).count(), type).toBe(1);
      }
      expect(await page.getByRole('button', { name: /^I (agree|disagree|'m unsure)$/ }).count()).toBe(0);
      // Choosing is a click (or Space); the arrows only move between the answers (each choice is recorded).
      const agree = stance.getByRole('radio', { name: 'I agree' });
      await agree.click();
      await expect.poll(() => agree.getAttribute('aria-checked')).toBe('true');
      await agree.focus();
      await page.keyboard.press('ArrowRight');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('I disagree');
      expect(await agree.getAttribute('aria-checked')).toBe('true');
      // Not the same look: a neutral track, not the reply type's coloured buttons.
      const look = (selector: string) =>
        page
          .locator(selector)
          .first()
          .evaluate((el) => `${getComputedStyle(el).borderRadius} ${getComputedStyle(el).color}`);
      expect(await look('.stance-option:not([aria-checked="true"])')).not.toBe(await look('.topic-actions .btn-for'));
      await close();
    }
  });

  it('no "Show All (0)": only responses with replies offer to show them', { timeout: 120_000 }, async () => {
    const { page, close } = await openDebate(DESKTOP);
    const toggles = await page.getByRole('button', { name: /^(Show|Hide) All \(\d+\)$/ }).allTextContents();
    expect(toggles.length).toBeGreaterThan(0);
    expect(toggles.filter((t) => /\(0\)/.test(t))).toEqual([]);
    // Fay's new response has no replies: no toggle at all on it.
    expect(
      await responseItem(page, MINE)
        .locator('> article')
        .getByRole('button', { name: /All \(/ })
        .count(),
    ).toBe(0);
    await close();
  });

  it('on a phone a response has one way to answer and a More menu that works by keyboard', { timeout: 120_000 }, async () => {
    const { page, errors, close } = await openDebate(PHONE);
    const mine = responseItem(page, MINE).locator('> article');
    // The answer: one "Reply" group of Agree / Disagree / Discuss; Edit and Delete are not on the row.
    const reply = mine.getByRole('group', { name: 'Reply' });
    for (const type of ['Agree', 'Disagree', 'Discuss'])
      expect(await reply.getByRole('button', { name: type, exact: true }).isVisible()).toBe(true);
    expect(await mine.getByRole('button', { name: 'Edit', exact: true }).count()).toBe(0);
    const more = mine.getByRole('button', { name: 'More' });
    expect(await more.getAttribute('aria-haspopup')).toBe('menu');
    expect(await more.getAttribute('aria-expanded')).toBe('false');

    await more.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await menu.waitFor();
    expect(await more.getAttribute('aria-expanded')).toBe('true');
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(['Edit', 'Delete']);
    // Focus is on the first item; the arrows move (and wrap); Escape closes and focus returns.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Edit');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Delete');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Edit');
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    expect(await more.getAttribute('aria-expanded')).toBe('false');
    expect(await more.evaluate((el) => el === document.activeElement)).toBe(true);

    // Enter on an item does it: Edit opens the edit form with the text.
    await page.keyboard.press('ArrowDown');
    await menu.waitFor();
    await page.keyboard.press('Enter');
    const editForm = page.getByRole('form', { name: 'Edit response' });
    expect(await editForm.getByRole('textbox').inputValue()).toBe(MINE);
    await editForm.getByRole('button', { name: 'Cancel' }).click();

    // Someone else's response: Report is in its menu.
    const other = page.locator('li[data-testid="response"]').first().locator('> article');
    await other.getByRole('button', { name: 'More' }).tap();
    expect(await page.getByRole('menu').getByRole('menuitem').allTextContents()).toEqual(['Report']);
    await page.getByRole('menuitem', { name: 'Report' }).tap();
    await page.getByRole('dialog', { name: 'Report this response' }).waitFor();
    await page.keyboard.press('Escape');
    await screenshot(page, 'topic-calm-phone');
    expect(errors).toEqual([]);
    await close();
  });

  it('on a desktop the secondary actions stay on the row, at their old density', { timeout: 120_000 }, async () => {
    const { page, close } = await openDebate(DESKTOP);
    const mine = responseItem(page, MINE).locator('> article');
    expect(await mine.getByRole('button', { name: 'More' }).count()).toBe(0);
    const edit = mine.getByRole('button', { name: 'Edit', exact: true });
    expect((await edit.boundingBox())!.height).toBe(30);
    expect((await mine.getByRole('button', { name: 'Agree', exact: true }).boundingBox())!.height).toBe(30);
    expect((await mine.locator('.vote-button').boundingBox())!.height).toBe(32);
    await close();
  });

  it('has no axe violations, light and dark, desktop and phone', { timeout: 300_000 }, async () => {
    for (const options of [DESKTOP, PHONE]) {
      const { page, close } = await openDebate(options);
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        const where = `${options.viewport!.width} px ${colorScheme}`;
        expect(await axeViolations(page), where).toEqual([]);
        if (options === PHONE) {
          await responseItem(page, MINE).locator('> article').getByRole('button', { name: 'More' }).click();
          await page.getByRole('menu').waitFor();
          expect(await axeViolations(page), `${where}, More menu open`).toEqual([]);
          await page.keyboard.press('Escape');
        }
      }
      // The quote search saying nothing matches, in both themes.
      const form = page.getByRole('form', { name: 'Add a response' });
      // The topic's form is one line until used: its tools show once the box has focus.
      await form.getByRole('textbox').first().focus();
      await form.getByRole('button', { name: 'Quote a response' }).click();
      await form.getByLabel('Search a response to quote').fill('zebra quartz');
      await form.getByText('No response matches “zebra quartz”.').waitFor();
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        expect(await axeViolations(page), `${options.viewport!.width} px ${colorScheme}, quote search without a match`).toEqual([]);
      }
      await close();
    }
  });
});
