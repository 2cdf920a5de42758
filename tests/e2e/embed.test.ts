// A topic embedded on another site, in real Chromium: a host page served from another origin (its own
// small HTTP server on another port) includes the sizing script with a `data-crux-topic` element; the
// script places the read-only embed in an iframe, the frame shows the topic's title and a response, and
// the frame is resized to the height its page reports (postMessage, checked against Crux's origin).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser } from 'playwright-core';
import { apiClient } from '../fixtures/api';
import { createTestUser, type TestUser } from '../fixtures/auth';
import { launchBrowser, newPage, startServer, type RunningServer } from './harness';

const TITLE = 'Should libraries lend tools as well as books?';
/** The frame's height before its page reports one (the script's default). */
const FIRST_HEIGHT = '480px';

let server: RunningServer;
let browser: Browser;
let ada: TestUser;
let host: Server;
let hostUrl: string;
let topicId: string;

beforeAll(async () => {
  // The embed page is the server's own HTML: no app build is needed.
  [server, browser, ada] = await Promise.all([startServer(), launchBrowser(), createTestUser('Ada Embed')]);
  const api = apiClient(server.url, ada.token);
  topicId = ((await api.post('/topics', { title: TITLE, categories: ['Culture'] })).body as { id: string }).id;
  await api.post('/responses', { topic_id: topicId, type: 'for', content: 'A drill used twice a year is better shared.' });
  host = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="en"><head><title>A blog</title></head><body><h1>My blog post</h1>` +
        `<div data-crux-topic="${topicId}"></div><script src="${server.url}/embed.js"></script></body></html>`,
    );
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}/`;
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.stop();
  await new Promise((resolve) => host?.close(resolve));
});

describe('a topic embedded on another site', () => {
  it('shows the topic in a frame the script places and sizes to its content', { timeout: 60_000 }, async () => {
    expect(new URL(hostUrl).origin).not.toBe(new URL(server.url).origin);
    const context = await browser.newContext();
    const { page, errors } = await newPage(context);
    await page.goto(hostUrl);
    const frame = page.frameLocator(`iframe[data-crux-frame="${topicId}"]`);
    await frame.getByRole('heading', { level: 1, name: TITLE }).waitFor();
    await frame.getByText('A drill used twice a year is better shared.').first().waitFor();
    const join = frame.getByRole('link', { name: 'Join the debate on Crux' });
    expect(await join.getAttribute('target')).toBe('_blank');

    // Resized by the page's report: the frame's height is its content's, not the default.
    const iframe = page.locator('iframe[data-crux-frame]');
    await page.waitForFunction((first) => document.querySelector('iframe')!.style.height !== first, FIRST_HEIGHT);
    const contentHeight = await frame.locator('body').evaluate((el) => Math.ceil(el.getBoundingClientRect().height));
    expect(await iframe.evaluate((el: HTMLIFrameElement) => el.style.height)).toBe(`${contentHeight}px`);
    expect(errors).toEqual([]);
    await context.close();
  });
});
