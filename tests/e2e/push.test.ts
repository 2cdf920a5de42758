// Web Push in real Chromium: the built service worker receives pushes delivered through
// the DevTools protocol (ServiceWorker.deliverPushMessage, as a push service would hand them over),
// shows each as the bell would word it, collapses several for one topic into "N new replies in …",
// and a click on it opens the reply and marks the notification read; a tap on a push while Crux is
// closed opens /topics/{id}?read={ids}#response-{rid}, which marks them read too. Opting in never
// asks for the browser's permission before the button is pressed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { DEFAULT_PUSH_SETTINGS, type PushPayload } from '../../shared/push';
import { SYNC_PROTOCOL_VERSION, type ProfileDoc } from '../../shared/sync-protocol';
import { apiClient } from '../fixtures/api';
import { createTestUser, type TestUser } from '../fixtures/auth';
import { axeViolations } from './axe';
import { signInThroughModal } from './flows';
import { ensureBuild, launchBrowser, newPage, startServer, type RunningServer } from './harness';

let server: RunningServer;
let browser: Browser;
let ada: TestUser;
let bob: TestUser;

beforeAll(async () => {
  await ensureBuild();
  [server, browser, ada, bob] = await Promise.all([startServer(), launchBrowser(), createTestUser('Ada Push'), createTestUser('Bob Push')]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.stop();
});

const as = (user: TestUser) => apiClient(server.url, () => user.token);

/** Bob replies to a new topic of Ada's: Ada's notification, and the push the server would send for it. */
async function replyToAda(title: string, content: string): Promise<PushPayload> {
  const topic = (await as(ada).post('/topics', { title, categories: ['Science'] })).body as { id: string; title: string };
  const reply = (await as(bob).post('/responses', { topic_id: topic.id, content, type: 'against' })).body as { id: string };
  const list = (await as(ada).get(`/notifications/user/${ada.uid}`)).body as { id: string; created_at: string }[];
  const notification = list[0]!;
  return {
    notification_id: notification.id,
    type: 'reply_to_topic',
    topic_id: topic.id,
    topic_title: topic.title,
    response_id: reply.id,
    actor: 'Bob Push',
    text: `replied to your topic: "${topic.title}"`,
    url: `/topics/${topic.id}#response-${reply.id}`,
    tag: `topic-${topic.id}`,
    created_at: notification.created_at,
  };
}

async function signedInAt(context: BrowserContext, path: string): Promise<Page> {
  const { page } = await newPage(context);
  await page.goto(`${server.url}/`);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await signInThroughModal(page, ada);
  await page.goto(`${server.url}${path}`);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  return page;
}

/** The service worker's registration id, for ServiceWorker.deliverPushMessage. */
async function registrationId(cdp: CDPSession): Promise<string> {
  const ids = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', (event: { registrations: { registrationId: string; isDeleted: boolean }[] }) => {
      const live = event.registrations.find((r) => !r.isDeleted);
      if (live) resolve(live.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  return ids;
}

const shownNotifications = (page: Page) =>
  page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return (await registration.getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      data: n.data as { url: string; ids: string[] },
    }));
  });

describe('web push in the service worker', () => {
  it(
    "shows a push as the bell words it, collapses a topic's pushes, and a click opens the reply and marks it read",
    { timeout: 150_000 },
    async () => {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      try {
        await context.grantPermissions(['notifications'], { origin: server.url });
        const page = await signedInAt(context, '/notifications');
        const cdp = await context.newCDPSession(page);
        const registration = await registrationId(cdp);
        const deliver = (payload: PushPayload) =>
          cdp.send('ServiceWorker.deliverPushMessage', { origin: server.url, registrationId: registration, data: JSON.stringify(payload) });

        const first = await replyToAda('Should push be opt-in?', 'Only after a click');
        await page
          .locator('header')
          .getByRole('link', { name: /^Notifications, 1 unread/ })
          .waitFor({ timeout: 20_000 });
        await deliver(first);
        // A wait, not a timing: the service worker wakes for the push on a loaded machine too (under the
        // whole suite's load on 2 cores, once, not within 30 s).
        await expect
          .poll(() => shownNotifications(page), { timeout: 60_000 })
          .toEqual([
            {
              title: 'Bob Push',
              body: 'replied to your topic: "Should push be opt-in?"',
              tag: first.tag,
              data: expect.objectContaining({ url: first.url, ids: [first.notification_id] }),
            },
          ]);

        // Two more replies in the same topic within the minute: one notification says how many.
        const topicId = first.topic_id;
        const more: PushPayload[] = [];
        for (const content of ['Second reply', 'Third reply']) {
          const reply = (await as(bob).post('/responses', { topic_id: topicId, content, type: 'for' })).body as { id: string };
          const n = ((await as(ada).get(`/notifications/user/${ada.uid}`)).body as { id: string; created_at: string }[])[0]!;
          more.push({
            ...first,
            notification_id: n.id,
            response_id: reply.id,
            url: `/topics/${topicId}#response-${reply.id}`,
            created_at: n.created_at,
          });
        }
        for (const payload of more) await deliver(payload);
        await expect
          .poll(async () => (await shownNotifications(page)).map((n) => n.title), { timeout: 10_000 })
          .toEqual(['3 new replies in “Should push be opt-in?”']);
        const [collapsed] = await shownNotifications(page);
        expect(collapsed!.body).toBe('Latest: Bob Push replied to your topic: "Should push be opt-in?"');
        expect(collapsed!.data.ids.sort()).toEqual([first.notification_id, ...more.map((m) => m.notification_id)].sort());

        // The click (dispatched in the worker, as the browser would on a tap): the open window goes to the newest reply, all three read.
        const worker = context.serviceWorkers()[0]!;
        await worker.evaluate(async () => {
          // Service worker scope: its types are not in this file's lib.
          const sw = self as unknown as {
            registration: ServiceWorkerRegistration;
            dispatchEvent(event: Event): boolean;
            NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
          };
          const [notification] = await sw.registration.getNotifications();
          sw.dispatchEvent(new sw.NotificationEvent('notificationclick', { notification: notification! }));
        });
        await page.waitForURL((url) => url.pathname === `/topics/${topicId}` && url.hash === `#response-${more[1]!.response_id}`, {
          timeout: 15_000,
        });
        await expect
          .poll(
            async () =>
              ((await as(ada).get(`/notifications/user/${ada.uid}`)).body as { is_read: boolean }[]).filter((n) => !n.is_read).length,
            {
              timeout: 20_000,
            },
          )
          .toBe(0);
        expect(await shownNotifications(page)).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );

  it(
    'a tap while Crux is closed opens the reply with ?read=, which marks it read and leaves the address',
    { timeout: 120_000 },
    async () => {
      const context = await browser.newContext();
      try {
        const page = await signedInAt(context, '/');
        const push = await replyToAda('Does a cold start mark it read?', 'It should');
        await page.goto(`${server.url}/topics/${push.topic_id}?read=${push.notification_id}#response-${push.response_id}`);
        await page.waitForURL((url) => !url.searchParams.has('read') && url.hash === `#response-${push.response_id}`, { timeout: 15_000 });
        await expect
          .poll(
            async () =>
              ((await as(ada).get(`/notifications/user/${ada.uid}`)).body as { id: string; is_read: boolean }[]).find(
                (n) => n.id === push.notification_id,
              )?.is_read,
            {
              timeout: 20_000,
            },
          )
          .toBe(true);
      } finally {
        await context.close();
      }
    },
  );

  it('never asks for permission before the button is pressed; the section passes axe in light and dark', { timeout: 120_000 }, async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ colorScheme, viewport: { width: 390, height: 844 } });
      try {
        await context.addInitScript(() => {
          const w = window as unknown as { cruxPermissionAsks: number };
          w.cruxPermissionAsks = 0;
          const ask = Notification.requestPermission.bind(Notification);
          Notification.requestPermission = (...args) => {
            w.cruxPermissionAsks++;
            return ask(...args);
          };
        });
        const page = await signedInAt(context, '/settings');
        const section = page.getByRole('region', { name: 'Push notifications' });
        await section.getByRole('button', { name: 'Turn on push notifications on this device' }).waitFor();
        await page.waitForTimeout(500);
        expect(await page.evaluate(() => (window as unknown as { cruxPermissionAsks: number }).cruxPermissionAsks)).toBe(0);
        expect(await page.evaluate(() => Notification.permission)).toBe('default');
        expect(await axeViolations(page)).toEqual([]);
        if (colorScheme === 'dark') continue;
        // The press asks once. (This machine reaches no push service, so subscribing then fails, and says so.)
        await context.grantPermissions(['notifications'], { origin: server.url });
        await section.getByRole('button', { name: 'Turn on push notifications on this device' }).click();
        await expect.poll(() => page.evaluate(() => (window as unknown as { cruxPermissionAsks: number }).cruxPermissionAsks)).toBe(1);
        await section
          .getByRole('alert')
          .or(section.getByText('Push notifications are on for this device.'))
          .first()
          .waitFor({ timeout: 30_000 });
      } finally {
        await context.close();
      }
    }
  });

  it("what to push and quiet hours are the user's, saved offline and synced to the server", { timeout: 120_000 }, async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, timezoneId: 'Europe/Berlin' });
    try {
      const page = await signedInAt(context, '/settings');
      const settings = async () =>
        (
          (await as(ada).get(`/sync/profile/pull?limit=10`, { headers: { 'x-crux-sync': String(SYNC_PROTOCOL_VERSION) } })).body as {
            documents: ProfileDoc[];
          }
        ).documents[0]!.push_settings;
      const replies = page.getByRole('checkbox', { name: 'Replies to my topics and responses' });
      await expect.poll(() => replies.isEnabled(), { timeout: 20_000 }).toBe(true);
      await replies.uncheck();
      await page
        .getByRole('region', { name: 'Quiet hours' })
        .getByRole('checkbox', { name: 'Pause push notifications during quiet hours' })
        .check();
      await expect.poll(settings, { timeout: 20_000 }).toEqual({
        ...DEFAULT_PUSH_SETTINGS,
        replies: false,
        moderation: true,
        quiet_hours: { start: '22:00', end: '07:00', time_zone: 'Europe/Berlin' },
      });
      // Offline: kept on the device, sent when the connection returns.
      await context.setOffline(true);
      await page.getByRole('checkbox', { name: "A moderator's action on something I wrote" }).uncheck();
      await page.getByLabel('Quiet hours start').fill('23:15');
      await page.waitForTimeout(300);
      expect((await settings()).moderation).toBe(true);
      await context.setOffline(false);
      await expect.poll(settings, { timeout: 30_000 }).toEqual({
        ...DEFAULT_PUSH_SETTINGS,
        replies: false,
        moderation: false,
        quiet_hours: { start: '23:15', end: '07:00', time_zone: 'Europe/Berlin' },
      });
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
