// Formatted arguments in Chromium, on a 390×844 phone: a response written with the usual attacks
// (a script tag, an image with onerror, javascript: and data: links) shows its emphasis, quote and
// safe link and nothing that runs; the composer's Preview shows a draft as it will read; and a
// formatted response still reads formatted after an offline reload (the renderer's chunk is kept by
// the service worker).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiClient } from '../fixtures/api';
import { createTestUser, type TestUser } from '../fixtures/auth';
import { ensureBuild, launchBrowser, newPage, screenshot, startServer, type RunningServer } from './harness';
import { signInThroughModal, waitForTopicOnDevice } from './flows';

let server: RunningServer;
let browser: Browser;
let ada: TestUser;
let bob: TestUser;

beforeAll(async () => {
  await ensureBuild();
  [server, browser, ada, bob] = await Promise.all([
    startServer(),
    launchBrowser(),
    createTestUser('Ada Formatter'),
    createTestUser('Bob Previewer'),
  ]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.stop();
});

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const as = (user: TestUser) => apiClient(server.url, () => user.token);

const ATTACK = [
  '**Fares** are *regressive*: see [the study](https://example.org/fares).',
  '',
  '> Free transit only moves riders from bikes.',
  '',
  '- <script>window.__crux_xss = 1</script>',
  '- <img src="x" onerror="window.__crux_xss = 2">',
  '- [click](javascript:window.__crux_xss=3) and [data](data:text/html,<b>x</b>)',
].join('\n');

/** The text box of the response whose words start with `start`, once the renderer has formatted it. */
const formatted = (page: Page, start: string) =>
  page.locator('[data-testid="response-content"]').filter({ hasText: start }).locator('[data-formatted]').first();

describe('formatted arguments', () => {
  it('render safely, preview in the composer and read formatted offline', { timeout: 180_000 }, async () => {
    const created = await as(ada).post('/topics', { title: 'Should public transit be free?', categories: ['Politics'] });
    expect(created.status, created.text).toBe(201);
    const topicId = (created.body as { id: string }).id;
    const posted = await as(ada).post('/responses', { topic_id: topicId, type: 'against', content: ATTACK });
    expect(posted.status, posted.text).toBe(201);

    const context = await browser.newContext(PHONE);
    const { page, errors } = await newPage(context);
    await page.goto(`${server.url}/topics/${topicId}`);
    const box = formatted(page, 'Fares');
    await box.waitFor({ timeout: 30_000 });
    expect(await box.locator('strong').first().textContent()).toBe('Fares');
    expect(await box.locator('em').first().textContent()).toBe('regressive');
    expect(await box.locator('blockquote').textContent()).toContain('Free transit only moves riders from bikes.');
    const link = box.getByRole('link', { name: 'the study' });
    expect(await link.getAttribute('href')).toBe('https://example.org/fares');
    expect(await link.getAttribute('rel')).toBe('nofollow ugc noopener');
    // Nothing of the attack runs or becomes markup: the tags read as text, the bad links as words.
    expect(await box.locator('script, img, iframe, object').count()).toBe(0);
    expect(await box.textContent()).toContain('<script>window.__crux_xss = 1</script>');
    for (const name of ['click', 'data']) expect(await box.locator('a').filter({ hasText: name }).count()).toBe(0);
    expect(await box.locator('a[href^="javascript:" i], a[href^="data:" i]').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __crux_xss?: number }).__crux_xss)).toBeUndefined();

    // Bob previews a draft before posting it.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await signInThroughModal(page, bob);
    const form = page.getByRole('form', { name: 'Add a response' });
    await form.getByRole('textbox').first().fill('It is **worth it** for cleaner air.');
    const preview = form.getByRole('button', { name: 'Preview' });
    await preview.click();
    expect(await preview.getAttribute('aria-pressed')).toBe('true');
    const shown = page.getByTestId('composer-preview');
    await shown.locator('strong').filter({ hasText: 'worth it' }).waitFor();
    await screenshot(page, 'formatting-preview-phone');
    await preview.click();
    await form.getByRole('button', { name: 'Post response' }).click();
    await formatted(page, 'It is worth it').locator('strong').filter({ hasText: 'worth it' }).waitFor();

    // Offline, after a reload: both responses from the device, still formatted.
    await waitForTopicOnDevice(page, topicId);
    await context.setOffline(true);
    await page.reload();
    await formatted(page, 'It is worth it').locator('strong').filter({ hasText: 'worth it' }).waitFor({ timeout: 30_000 });
    expect(await formatted(page, 'Fares').getByRole('link', { name: 'the study' }).getAttribute('rel')).toBe('nofollow ugc noopener');
    await context.setOffline(false);
    expect(errors).toEqual([]);
    await context.close();
  });
});
