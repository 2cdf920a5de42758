/// <reference lib="webworker" />
// Crux's service worker, built by vite-plugin-pwa (injectManifest) into dist/sw.js with this
// build's precache list in place of self.__WB_MANIFEST. It activates at once and takes over open
// pages (UpdatePrompt then offers a reload to a page that runs the old version).
//
// - Precache: the shell and every chunk, so every seen screen opens offline. A navigation gets the
//   shell, except /api (never answered from a fallback: the local database is the offline copy, and
//   the RxDB outbox, not Workbox Background Sync, is the only queue for /api/sync), robots.txt,
//   sitemap.xml and a topic's page.
// - Kept topic pages: a topic's page is the server's page with its first screen in it
//   (sync-server/src/routes/first-page.ts), kept from the last visit by address and refreshed behind
//   it: a revisit, online or offline, paints the title and first rows before the local database has
//   opened, with the app's own first render of it when one was kept (first-screen.ts). A topic with
//   no kept page gets the shell at once, as every other page does (never a wait on the network, and
//   no rows the device has not pulled yet), while its page is fetched and kept for next time.
//   Public data only (the page is the same for everyone); removed with the local data
//   (hooks/useSignOut.ts).
// - Word vectors: kept from the composer's first fetch (cache first), for the "already said" hint.
// - Web Push: shows the notification the server sent and opens the reply on a click.
import { clientsClaim } from 'workbox-core';
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { ExpirationPlugin } from 'workbox-expiration';
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  matchPrecache,
  precacheAndRoute,
  PrecacheFallbackPlugin,
  type PrecacheEntry,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, StaleWhileRevalidate } from 'workbox-strategies';
import { TOPIC_PAGES_CACHE_PREFIX } from '../../../shared/constants';
import { WORD_VECTORS_PATH } from '../../../shared/rules/word-vectors';
import { PUSH_COLLAPSE_MS, PUSH_READ_PARAM, type NotificationClickMessage, type PushPayload } from '../../../shared/push';
import { TOPIC_PATH, withKeptFirstScreen } from './first-screen';
import { CURRENT_TOPIC_PAGES_CACHE } from './topic-pages';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (PrecacheEntry | string)[] };

const SHELL = 'index.html';

void self.skipWaiting();
clientsClaim();

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
registerRoute(
  new NavigationRoute(createHandlerBoundToURL(SHELL), {
    denylist: [/^\/api\//, /^\/robots\.txt$/, /^\/sitemap\.xml$/, TOPIC_PATH],
  }),
);

// The kept pages name this build's hashed assets: each build keeps them in a cache of its own.
registerRoute(
  ({ request, url }) => request.mode === 'navigate' && TOPIC_PATH.test(url.pathname),
  new StaleWhileRevalidate({
    cacheName: CURRENT_TOPIC_PAGES_CACHE ?? TOPIC_PAGES_CACHE_PREFIX,
    plugins: [
      new ExpirationPlugin({ maxEntries: 50 }),
      new CacheableResponsePlugin({ statuses: [200] }),
      new PrecacheFallbackPlugin({ fallbackURL: SHELL }),
      {
        // No kept page yet: the precached shell (which has no data block, so no first screen).
        cachedResponseWillBeUsed: async ({ cacheName, request, cachedResponse }) => {
          const page = cachedResponse ?? (await matchPrecache(SHELL));
          return page && withKeptFirstScreen(cacheName, request, page);
        },
      },
    ],
  }),
);

// The word vectors of "This was already said" (about 2 MB): not precached, so a first visit never
// downloads them; kept once the composer has fetched them, so the hint knows other words offline.
// Their name changes with their content, so the kept copy is never stale.
registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname === WORD_VECTORS_PATH,
  new CacheFirst({ cacheName: 'crux-word-vectors', plugins: [new CacheableResponsePlugin({ statuses: [200] })] }),
);

// Web Push. push: shows the notification the server sent (shared/push.ts PushPayload): the actor as
// the title and the bell's own text as the body. Pushes for one topic within a minute of the one
// shown collapse into it (tag per topic): "3 new replies in “…”". The app icon's badge counts the
// notifications shown. notificationclick: focuses an open Crux window and sends it to the reply
// (it marks the notifications read), or opens one at /topics/{id}?read={ids}#response-{rid}.

/** What a shown notification carries: where a click leads and the notifications it stands for. */
interface ShownData {
  url: string;
  ids: string[];
  /** When the first of the collapsed pushes was shown. */
  firstAt?: number;
}

const shownData = (notification: Notification): ShownData | undefined => (notification.data ?? undefined) as ShownData | undefined;

async function updateBadge(): Promise<void> {
  if (!('setAppBadge' in self.navigator)) return;
  const shown = await self.registration.getNotifications();
  const count = shown.reduce((sum, n) => sum + (shownData(n)?.ids.length ?? 0), 0);
  await (count > 0 ? self.navigator.setAppBadge(count) : self.navigator.clearAppBadge()).catch(() => undefined);
}

function readable(payload: unknown): payload is PushPayload {
  return payload !== null && typeof payload === 'object' && typeof (payload as Partial<PushPayload>).url === 'string';
}

async function showPush(payload: unknown): Promise<void> {
  if (!readable(payload)) {
    // A push must show something (userVisibleOnly): one the app cannot read says only that.
    const data: ShownData = { url: '/notifications', ids: [] };
    await self.registration.showNotification('Crux', { body: 'You have a new notification.', tag: 'crux', data });
    return;
  }
  const shown = await self.registration.getNotifications({ tag: payload.tag });
  const recent = shown.map(shownData).find((data) => data?.firstAt !== undefined && Date.now() - data.firstAt < PUSH_COLLAPSE_MS);
  const ids = recent ? [...recent.ids.filter((id) => id !== payload.notification_id), payload.notification_id] : [payload.notification_id];
  const many = ids.length > 1;
  // The newest reply is where a click leads; every notification collapsed here is marked read.
  const data: ShownData = { url: payload.url, ids, firstAt: recent?.firstAt ?? Date.now() };
  await self.registration.showNotification(many ? `${ids.length} new replies in “${payload.topic_title}”` : payload.actor, {
    body: many ? `Latest: ${payload.actor} ${payload.text}` : payload.text,
    tag: payload.tag,
    // Not in the DOM library's NotificationOptions yet; Chromium reads it.
    ...{ renotify: !recent, timestamp: Date.parse(payload.created_at) || Date.now() },
    icon: '/icon-192.png',
    badge: '/icon-192.png',
    data,
  });
  await updateBadge();
}

// One push at a time: two arriving together would each read the shown notifications before the
// other had replaced them, and the collapsed count would lose one.
let showing: Promise<void> = Promise.resolve();

self.addEventListener('push', (event) => {
  let payload: unknown = null;
  try {
    payload = event.data ? event.data.json() : null;
  } catch {
    payload = null;
  }
  const shown = showing.then(() => showPush(payload));
  showing = shown.catch(() => undefined);
  event.waitUntil(shown);
});

async function openAt(data: ShownData | undefined): Promise<void> {
  const ids = data?.ids ?? [];
  const target = new URL(data?.url ?? '/notifications', self.location.origin);
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
  if (open) {
    // The message first: focus() may be refused (no user activation), the reply must open all the same.
    const message: NotificationClickMessage = { type: 'crux:notification-click', url: target.pathname + target.search + target.hash, ids };
    open.postMessage(message);
    await open.focus().catch(() => undefined);
    return;
  }
  if (ids.length > 0) target.searchParams.set(PUSH_READ_PARAM, ids.join(','));
  await self.clients.openWindow(target.href);
}

self.addEventListener('notificationclick', (event) => {
  const data = shownData(event.notification);
  event.notification.close();
  event.waitUntil(openAt(data).then(updateBadge));
});
