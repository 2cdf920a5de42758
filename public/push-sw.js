// Web Push in Crux's service worker (issue 26), loaded by the Workbox service worker with
// importScripts (vite.config.ts). Plain JavaScript: it runs as it is written, not bundled.
//
// push: shows the notification the server sent (shared/push.ts PushPayload): the actor as the
//   title and the bell's own text as the body. Pushes for one topic within a minute of the one
//   shown collapse into it (tag per topic): "3 new replies in “…”". The app icon's badge counts
//   the notifications shown.
// notificationclick: focuses an open Crux window and sends it to the reply (it marks the
//   notifications read), or opens one at /topics/{id}?read={ids}#response-{rid}.
/* global self, clients */

const COLLAPSE_MS = 60 * 1000; // shared/push.ts PUSH_COLLAPSE_MS

async function updateBadge() {
  if (!('setAppBadge' in self.navigator)) return;
  const shown = await self.registration.getNotifications();
  const count = shown.reduce((sum, n) => sum + ((n.data && n.data.ids && n.data.ids.length) || 0), 0);
  await (count > 0 ? self.navigator.setAppBadge(count) : self.navigator.clearAppBadge()).catch(() => {});
}

async function showPush(payload) {
  if (!payload || typeof payload !== 'object' || typeof payload.url !== 'string') {
    // A push must show something (userVisibleOnly): one the app cannot read says only that.
    await self.registration.showNotification('Crux', {
      body: 'You have a new notification.',
      tag: 'crux',
      data: { url: '/notifications', ids: [] },
    });
    return;
  }
  const shown = await self.registration.getNotifications({ tag: payload.tag });
  const recent = shown.find((n) => n.data && Date.now() - n.data.firstAt < COLLAPSE_MS);
  const ids = recent
    ? [...recent.data.ids.filter((id) => id !== payload.notification_id), payload.notification_id]
    : [payload.notification_id];
  const many = ids.length > 1;
  const title = many ? `${ids.length} new replies in “${payload.topic_title}”` : payload.actor;
  const body = many ? `Latest: ${payload.actor} ${payload.text}` : payload.text;
  await self.registration.showNotification(title, {
    body,
    tag: payload.tag,
    renotify: !recent,
    icon: '/icon-192.png',
    badge: '/icon-192.png',
    timestamp: Date.parse(payload.created_at) || Date.now(),
    // The newest reply is where a click leads; every notification collapsed here is marked read.
    data: { url: payload.url, ids, firstAt: recent ? recent.data.firstAt : Date.now() },
  });
  await updateBadge();
}

// One push at a time: two arriving together would each read the shown notifications before the
// other had replaced them, and the collapsed count would lose one.
let showing = Promise.resolve();

self.addEventListener('push', (event) => {
  let payload = null;
  try {
    payload = event.data ? event.data.json() : null;
  } catch {
    payload = null;
  }
  const shown = showing.then(() => showPush(payload));
  showing = shown.catch(() => {});
  event.waitUntil(shown);
});

async function openAt(data) {
  const ids = (data && data.ids) || [];
  const target = new URL((data && data.url) || '/notifications', self.location.origin);
  const windows = await clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
  if (open) {
    // The message first: focus() may be refused (no user activation), the reply must open all the same.
    open.postMessage({ type: 'crux:notification-click', url: target.pathname + target.search + target.hash, ids });
    await open.focus().catch(() => {});
    return;
  }
  if (ids.length > 0) target.searchParams.set('read', ids.join(','));
  await clients.openWindow(target.href);
}

self.addEventListener('notificationclick', (event) => {
  const data = event.notification.data;
  event.notification.close();
  event.waitUntil(openAt(data).then(updateBadge));
});
