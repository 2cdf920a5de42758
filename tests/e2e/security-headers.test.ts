// Security headers in real Chromium: the built app runs under the server's strict
// Content-Security-Policy (no inline script, no eval, Firebase's and the Auth
// emulator's origins only) with no violation: signing in, creating a topic, posting a
// response, the sources page, the service worker and a reload.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser } from 'playwright-core';
import { createTestUser, type TestUser } from '../fixtures/auth';
import { createTopicThroughSearchBox, postInComposer, signInThroughModal } from './flows';
import { ensureBuild, launchBrowser, newPage, startServer, type RunningServer } from './harness';

let server: RunningServer;
let browser: Browser;
let ada: TestUser;

beforeAll(async () => {
  await ensureBuild();
  [server, browser, ada] = await Promise.all([startServer(), launchBrowser(), createTestUser('Ada Policy')]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.stop();
});

describe('the app under its Content-Security-Policy', () => {
  it('runs through sign-in, a topic, a response and the sources page with no CSP violation', { timeout: 90_000 }, async () => {
    const context = await browser.newContext();
    // Runs before the page's own scripts (through the DevTools protocol, which the policy does not govern).
    await context.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    const { page, errors } = await newPage(context);
    const consoleAll: string[] = [];
    page.on('console', (m) => consoleAll.push(m.text()));

    const first = await page.goto(server.url + '/');
    const csp = first!.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(first!.headers()['x-content-type-options']).toBe('nosniff');

    await page.getByText('No topics yet. Create one above!').waitFor();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
    await signInThroughModal(page, ada);
    await createTopicThroughSearchBox(page, 'Does a strict policy break the app?', 'Technology');
    await postInComposer(page, 'Add a response', 'Not when the build has no inline script.');
    await page.goto(server.url + '/sources');
    await page.getByRole('heading', { level: 1, name: 'Sources' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Sources' }).waitFor();

    const violations = await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);
    expect(violations).toEqual([]);
    expect(consoleAll.filter((text) => /Content Security Policy/i.test(text))).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a missing hashed asset is a 404, not the app page', async () => {
    const res = await fetch(`${server.url}/assets/index-does-not-exist.js`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type') ?? '').not.toContain('text/html');
  });
});
