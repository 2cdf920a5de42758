// The main flow on a 390×844 phone viewport (burger menu, sign-in, create, answer,
// reply, vote) and an axe scan of the list and topic pages with no violations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { apiClient } from '../fixtures/api';
import { createTestUser, type TestUser } from '../fixtures/auth';
import { ensureBuild, launchBrowser, newPage, screenshot, startServer, type RunningServer } from './harness';
import { createTopicThroughSearchBox, postInComposer, responseItem, signInThroughModal } from './flows';
import { axeViolations } from './axe';

let server: RunningServer;
let browser: Browser;
let dana: TestUser;

beforeAll(async () => {
  await ensureBuild();
  [server, browser, dana] = await Promise.all([startServer(), launchBrowser(), createTestUser('Dana Mobile')]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.stop();
});

describe('phone viewport', () => {
  it('runs the main flow at 390×844', { timeout: 120_000 }, async () => {
    const api = apiClient(server.url, () => dana.token);
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    const { page, errors } = await newPage(context);
    await page.goto(server.url + '/');
    // Burger menu below 960 px.
    expect(await page.getByRole('link', { name: 'About' }).isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Menu' }).tap();
    await page.getByRole('link', { name: 'About' }).waitFor();
    await screenshot(page, 'phone-menu');
    await page.getByRole('button', { name: 'Menu' }).tap();
    await signInThroughModal(page, dana);

    const topicId = await createTopicThroughSearchBox(page, 'Should homework be abolished?', 'Education');
    await postInComposer(page, 'Add a response', 'Kids need time to play.');
    await page.locator('.topic-actions').getByRole('button', { name: 'Disagree', exact: true }).tap();
    await postInComposer(page, 'Add a response', 'Practice builds mastery.');
    await responseItem(page, 'Kids need time to play.')
      .locator('> article .response-actions')
      .getByRole('button', { name: 'Discuss', exact: true })
      .tap();
    await postInComposer(page, 'Reply', 'What about older students?');
    // An unsent reply is kept as a local draft across navigation.
    await page.getByRole('form', { name: 'Add a response' }).getByRole('textbox').first().fill('Half-written thought');
    await page.getByRole('button', { name: 'Back to Topics', exact: true }).tap();
    await page.getByRole('link', { name: 'Should homework be abolished?' }).tap();
    await expect
      .poll(() => page.getByRole('form', { name: 'Add a response' }).getByRole('textbox').first().inputValue())
      .toBe('Half-written thought');
    await page.locator('.topic-actions .vote-button').tap();
    await page.locator('.topic-actions [data-testid="score"]').filter({ hasText: /^1$/ }).waitFor();
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'phone-topic');

    const synced = { timeout: 15_000, interval: 200 };
    await expect.poll(async () => (await api.get(`/topics/${topicId}`)).body, synced).toMatchObject({ score: 1, responses_count: 3 });
    await expect
      .poll(
        async () =>
          ((await api.get(`/responses?topic_id=${topicId}`)).body as { type: string; content: string; comment_count: number }[])
            .map((r) => [r.type, r.content, r.comment_count])
            .sort(),
        synced,
      )
      .toEqual([
        ['against', 'Practice builds mastery.', 0],
        ['for', 'Kids need time to play.', 1],
      ]);
    expect(errors, 'console errors').toEqual([]);
    await context.close();
  });
});

describe('header', () => {
  it('becomes a burger menu under 960 px', async () => {
    const context = await browser.newContext({ viewport: { width: 959, height: 700 } });
    const { page } = await newPage(context);
    await page.goto(server.url + '/');
    const burger = page.getByRole('button', { name: 'Menu' });
    await burger.waitFor();
    expect(await page.getByRole('link', { name: 'Terms' }).isVisible()).toBe(false);
    await burger.click();
    expect(await burger.getAttribute('aria-expanded')).toBe('true');
    await page.getByRole('link', { name: 'Terms' }).waitFor();
    await screenshot(page, 'tablet-menu');
    await page.getByRole('link', { name: 'Terms' }).click();
    await page.getByRole('heading', { name: 'Terms and Conditions' }).waitFor();
    expect(await page.getByRole('link', { name: 'Terms' }).isVisible()).toBe(false); // closed after navigating
    await page.setViewportSize({ width: 960, height: 700 });
    await expect.poll(() => burger.isVisible()).toBe(false);
    expect(await page.getByRole('link', { name: 'Terms' }).isVisible()).toBe(true);
    // A visitor finds the leaderboard in the menu, and the signed-out header still fits one row.
    expect(await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Leaderboard' }).isVisible()).toBe(true);
    expect(await page.locator('.site-header-inner').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    // Discord / Support come from DISCORD_URL / SUPPORT_URL: unset here, so hidden (tests/e2e/notifications.test.ts sets them).
    expect(await page.getByRole('link', { name: /^Discord/ }).count()).toBe(0);
    await context.close();
  });
});

describe('accessibility', () => {
  it('has no axe violations on the list, the sign-in modal and a topic page', { timeout: 120_000 }, async () => {
    const api = apiClient(server.url, () => dana.token);
    const topic = (await api.post('/topics', { title: 'Can AI be creative?', categories: ['Technology'] })).body as { id: string };
    const long = 'Yes, it remixes what it has seen exactly like we do, and remixing is most of what human creativity is anyway.';
    const root = (
      await api.post('/responses', { topic_id: topic.id, type: 'for', content: long, sources: [{ url: 'https://example.org/ai' }] })
    ).body as { id: string };
    await api.post('/responses', { topic_id: topic.id, type: 'against', content: 'No, it has no intent.', quoted_response_id: root.id });
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ colorScheme });
      const { page } = await newPage(context);
      await page.goto(server.url + '/');
      await page.getByRole('link', { name: 'Can AI be creative?' }).waitFor();
      expect(await axeViolations(page), `list ${colorScheme}`).toEqual([]);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      expect(await axeViolations(page), `modal ${colorScheme}`).toEqual([]);
      await page.keyboard.press('Escape');
      await page.goto(`${server.url}/topics/${topic.id}`);
      await responseItem(page, 'No, it has no intent.').waitFor();
      // The quoted block shows the first 80 characters and an ellipsis.
      expect(
        await responseItem(page, 'No, it has no intent.').getByTestId('quoted-block').locator('.response-quote-text').textContent(),
      ).toBe(`“${long.slice(0, 80).trimEnd()}…”`);
      expect(await axeViolations(page), `topic ${colorScheme}`).toEqual([]);
      await screenshot(page, `topic-${colorScheme}`);
      await context.close();
    }
  });
});
