// An ended session in real Chromium. A session whose account is deleted (through the Auth
// emulator) says so, never "Offline", keeps the unsent reply through a reload, and hands it to the
// next person who signs in, to post as themselves; a disabled-then-enabled account signing in again
// sends its reply once. A reply whose parent response was deleted names itself, shows its text,
// and goes to the topic with "Post as a reply to the topic"; Discard asks first. A draft (typed, never
// posted) of a deleted account is offered back, in view, on the topic page's form to the next account.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiClient } from '../fixtures/api';
import { createTestUser, deleteTestUser, disableTestUser, enableTestUser, type TestUser } from '../fixtures/auth';
import { axeViolations } from './axe';
import { ensureBuild, launchBrowser, newPage, screenshot, startServer, type RunningServer } from './harness';
import { postInComposer, responseItem, signInThroughModal, waitForTopicOnDevice } from './flows';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  await ensureBuild();
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.stop();
});

// The push is retried every 5 s: the first one after the reconnection meets the refused refresh.
const ENDED = { timeout: 45_000 };
const SYNCED = { timeout: 20_000, interval: 250 };

async function signedInPage(context: BrowserContext, user: TestUser): Promise<Page> {
  const { page } = await newPage(context);
  await page.goto(server.url + '/');
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await signInThroughModal(page, user);
  return page;
}

async function topicWith(owner: TestUser, title: string, content: string) {
  const api = apiClient(server.url, () => owner.token);
  const topic = (await api.post('/topics', { title, categories: ['Other'] })).body as { id: string };
  const response = (await api.post('/responses', { topic_id: topic.id, type: 'for', content })).body as { id: string };
  return { api, topic, response };
}

/** Opens the topic, waits for the device's copy, goes offline and replies to `parent`. */
async function replyOffline(context: BrowserContext, page: Page, topicId: string, parent: string, reply: string) {
  await page.goto(`${server.url}/topics/${topicId}`);
  await responseItem(page, parent).waitFor();
  await waitForTopicOnDevice(page, topicId);
  await context.setOffline(true);
  await responseItem(page, parent).locator('> article .response-actions').getByRole('button', { name: 'Disagree', exact: true }).click();
  await postInComposer(page, 'Reply', reply);
  await page.getByTestId('sync-status').filter({ hasText: 'Offline · 1 to sync' }).waitFor();
}

/** The reply under `parent`, opening the parent's replies when a reload closed them. */
async function replyShown(page: Page, parent: string, reply: string) {
  const show = responseItem(page, parent).locator('> article').getByRole('button', { name: /^Show/ });
  if ((await responseItem(page, reply).count()) === 0 && (await show.count()) > 0) await show.first().click();
  await responseItem(page, reply).waitFor();
}

type Served = { content: string; creator_uid: string; parent_response_id: string | null };
/** What the server has, read anonymously: a topic's root responses, or a response's replies. */
async function served(query: { topic_id: string } | { parent_id: string }): Promise<Served[]> {
  const [key, id] = Object.entries(query)[0]!;
  return (await apiClient(server.url).get(`/responses?${key}=${id}`)).body as Served[];
}

/** axe on the page as it is, at phone and desktop size, light and dark. */
async function axeEverywhere(page: Page, what: string) {
  for (const size of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(size);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      expect(await axeViolations(page), `${what} ${size.width} ${colorScheme}`).toEqual([]);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

describe('a session that ended (#4)', () => {
  it(
    'a deleted account: "session ended", never "Offline"; a reload keeps the reply; the next person posts it as themselves',
    { timeout: 240_000 },
    async () => {
      const owner = await createTestUser('Olga Owner');
      const { topic, response } = await topicWith(owner, 'Session ended: is my reply lost?', 'Nothing is lost offline.');
      const gus = await createTestUser('Gus Gone');
      const context = await browser.newContext();
      const page = await signedInPage(context, gus);
      const reply = 'Written just before my account vanished.';
      await replyOffline(context, page, topic.id, 'Nothing is lost offline.', reply);

      await deleteTestUser(gus);
      await context.setOffline(false);
      const strip = page.getByTestId('session-ended');
      await strip.filter({ hasText: 'Your session has ended: sign in again to send 1 change' }).waitFor(ENDED);
      expect(await strip.getAttribute('role')).toBe('alert');
      await strip.getByRole('button', { name: 'Sign in' }).waitFor();
      expect(await page.getByTestId('sync-status').filter({ hasText: 'Offline' }).count()).toBe(0);
      await responseItem(page, reply).waitFor();
      await axeEverywhere(page, 'session-ended strip');
      await screenshot(page, 'session-ended-deleted');

      // A reload: Firebase no longer restores the deleted user, and the app still tells.
      await page.reload();
      await strip.filter({ hasText: 'Your session has ended: sign in again to send 1 change' }).waitFor(ENDED);
      expect(await page.getByTestId('sync-status').filter({ hasText: 'Offline' }).count()).toBe(0);
      await replyShown(page, 'Nothing is lost offline.', reply);
      await screenshot(page, 'session-ended-after-reload');
      expect((await served({ parent_id: response.id })).map((r) => r.content)).not.toContain(reply);

      // Someone else signs in (Gus's new account): the reply is offered to them, one way out at a time.
      const bea = await createTestUser('Bea Anew');
      await strip.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Sign in with email' }).click();
      await page.getByLabel('Email', { exact: true }).fill(bea.email);
      await page.getByLabel('Password', { exact: true }).fill(bea.password);
      await page.getByRole('dialog').getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByTestId('header-user').filter({ hasText: 'Bea Anew' }).waitFor();
      await strip.waitFor({ state: 'detached' });

      const issue = page.getByTestId('sync-issue');
      await issue.waitFor(SYNCED);
      expect(await issue.getByRole('heading').textContent()).toBe(
        'A reply to “Nothing is lost offline.” in “Session ended: is my reply lost?”, written by another account whose session ended on this device',
      );
      expect(await issue.textContent()).toContain(reply);
      expect(await issue.textContent()).toContain('Not sent: the session it was written in ended before it reached the server.');
      expect(await issue.getByRole('button').allTextContents()).toEqual(['Post it as Bea Anew', 'Copy text', 'Discard']);
      await axeEverywhere(page, 'ended-session write in sync problems');
      await screenshot(page, 'session-ended-offered');
      await issue.getByRole('button', { name: 'Post it as Bea Anew' }).click();
      await issue.waitFor({ state: 'detached', timeout: 20_000 });
      await expect
        .poll(async () => (await served({ parent_id: response.id })).filter((r) => r.content === reply), SYNCED)
        .toEqual([expect.objectContaining({ creator_uid: bea.uid })]);
      await context.close();
    },
  );

  it(
    'a disabled account enabled again: after a reload, Sign in as the same account sends the reply once',
    { timeout: 240_000 },
    async () => {
      const owner = await createTestUser('Otto Owner');
      const { topic, response } = await topicWith(owner, 'Session ended: sent once?', 'Send it once, not twice.');
      const hal = await createTestUser('Hal Paused');
      const context = await browser.newContext();
      const page = await signedInPage(context, hal);
      const reply = 'Made while my account was paused.';
      await replyOffline(context, page, topic.id, 'Send it once, not twice.', reply);

      await disableTestUser(hal);
      await context.setOffline(false);
      const strip = page.getByTestId('session-ended');
      await strip.filter({ hasText: 'Your session has ended: sign in again to send 1 change' }).waitFor(ENDED);
      await page.reload();
      await strip.filter({ hasText: 'Your session has ended: sign in again to send 1 change' }).waitFor(ENDED);
      await replyShown(page, 'Send it once, not twice.', reply);
      expect((await served({ parent_id: response.id })).map((r) => r.content)).not.toContain(reply);

      await enableTestUser(hal);
      await strip.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Sign in with email' }).click();
      await page.getByLabel('Email', { exact: true }).fill(hal.email);
      await page.getByLabel('Password', { exact: true }).fill(hal.password);
      await page.getByRole('dialog').getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByTestId('header-user').filter({ hasText: 'Hal Paused' }).waitFor();
      await strip.waitFor({ state: 'detached' });
      await expect
        .poll(async () => (await served({ parent_id: response.id })).filter((r) => r.content === reply), SYNCED)
        .toEqual([expect.objectContaining({ creator_uid: hal.uid })]);
      // Nothing left to send, nothing to fix: sent once.
      await page.getByTestId('sync-status').waitFor({ state: 'detached', timeout: 20_000 });
      expect(await page.getByTestId('sync-issue').count()).toBe(0);
      expect((await served({ parent_id: response.id })).filter((r) => r.content === reply)).toHaveLength(1);
      await context.close();
    },
  );
});

describe('sync problems a person can act on (#5)', () => {
  it(
    'a draft typed by an account since deleted is offered back in view on the topic page, and Restore puts it in the box',
    { timeout: 180_000 },
    async () => {
      const owner = await createTestUser('Nina Owner');
      const { topic } = await topicWith(owner, 'Drafts across a lost account', 'A first answer.');
      const lou = await createTestUser('Lou Lost');
      const context = await browser.newContext();
      const page = await signedInPage(context, lou);
      await page.goto(`${server.url}/topics/${topic.id}`);
      await responseItem(page, 'A first answer.').waitFor();
      const form = page.getByRole('form', { name: 'Add a response' });
      const draft = 'Typed before my account was lost, never posted.';
      await form.getByLabel('Your response').fill(draft);
      await form.getByText('Draft saved', { exact: true }).waitFor({ timeout: 20_000 });

      // The account is gone (as after an Auth emulator's restart); the same person comes back as a new one.
      await deleteTestUser(lou);
      await page.reload();
      const header = page.locator('header').getByRole('button', { name: 'Sign in', exact: true });
      await header.waitFor(ENDED);
      const anew = await createTestUser('Lou Anew');
      await header.click();
      await page.getByRole('button', { name: 'Sign in with email' }).click();
      await page.getByLabel('Email', { exact: true }).fill(anew.email);
      await page.getByLabel('Password', { exact: true }).fill(anew.password);
      await page.getByRole('dialog').getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByTestId('header-user').filter({ hasText: 'Lou Anew' }).waitFor();
      await page.goto(`${server.url}/topics/${topic.id}`);
      const offer = form.getByRole('group', { name: 'Unsent draft' });
      await offer.waitFor({ state: 'visible', timeout: 20_000 });
      expect(await offer.textContent()).toMatch(/^You have an unsent draft from .+\.RestoreDiscard$/);
      await offer.getByRole('button', { name: 'Restore' }).click();
      expect(await form.getByLabel('Your response').inputValue()).toBe(draft);
      await screenshot(page, 'session-ended-draft-offered');
      await context.close();
    },
  );

  it('a reply whose parent was deleted: named, its text shown, posted to the topic; Discard asks first', { timeout: 180_000 }, async () => {
    const ann = await createTestUser('Ann Deleter');
    const { api, topic, response } = await topicWith(ann, 'Orphans: where does my reply go?', 'A response that will be withdrawn.');
    const ben = await createTestUser('Ben Replier');
    const context = await browser.newContext();
    const page = await signedInPage(context, ben);
    const reply = 'My answer should not vanish with it.';
    await replyOffline(context, page, topic.id, 'A response that will be withdrawn.', reply);
    expect((await api.del(`/responses/${response.id}`)).status).toBe(204);
    await context.setOffline(false);

    const issue = page.getByTestId('sync-issue');
    await issue.waitFor(SYNCED);
    // The parent may still be on the device when the refusal comes back, or already gone.
    expect(await issue.getByRole('heading').textContent()).toMatch(
      /^Your reply to (“A response that will be withdrawn\.”|a response that has since been deleted,) in “Orphans: where does my reply go\?”$/,
    );
    expect(await issue.textContent()).toContain(reply);
    expect(await issue.textContent()).toContain('It could not be saved: Response not found.');
    expect(await issue.getByRole('button').allTextContents()).toEqual(['Post as a reply to the topic', 'Copy text', 'Discard']);

    // Discard asks first; "Keep it" keeps it.
    await issue.getByRole('button', { name: 'Discard' }).click();
    const confirm = page.getByRole('dialog', { name: 'Discard this change?' });
    expect(await confirm.textContent()).toContain('Your text will be lost');
    await axeEverywhere(page, 'discard confirmation');
    await screenshot(page, 'sync-problem-discard-confirm');
    await confirm.getByRole('button', { name: 'Keep it' }).click();
    await confirm.waitFor({ state: 'detached' });
    await issue.waitFor();
    await axeEverywhere(page, 'orphaned-reply sync problem');
    await screenshot(page, 'sync-problem-orphaned-reply');

    await issue.getByRole('button', { name: 'Post as a reply to the topic' }).click();
    await issue.waitFor({ state: 'detached', timeout: 20_000 });
    await expect
      .poll(async () => (await served({ topic_id: topic.id })).filter((r) => r.content === reply), SYNCED)
      .toEqual([expect.objectContaining({ creator_uid: ben.uid, parent_response_id: null })]);
    await responseItem(page, reply).waitFor();
    await context.close();
  });
});
