// Web Push on this device: off until the user turns it on here, after a click (the permission
// prompt never comes on load). Turning on asks the browser's permission, subscribes its push
// manager to the server's VAPID key and hands the subscription to the server for the signed-in
// user; turning off (the button, sign-out) unsubscribes the browser, which also ends the endpoint
// at the push service, and tells the server when it can. The server is asked through the data
// layer (hooks/usePushDevice.ts, hooks/useSignOut.ts pass it in).
import type { CruxData } from '../data';

/** What this device's push asks of the server. */
export type PushServer = Pick<CruxData, 'pushPublicKey' | 'savePushSubscription' | 'removePushSubscription'>;

export type PushState =
  /** No service worker, PushManager or Notification here (e.g. iPhone Safari outside the Home Screen app). */
  | 'unsupported'
  /** The user blocked notifications for this site in the browser. */
  | 'denied'
  | 'off'
  | 'on';

export const PUSH_TEXT = {
  heading: 'Push notifications',
  explain:
    'Get a notification on this device when someone replies to your topics or responses, or a moderator acts on something you wrote. ' +
    'Only what your bell counts is sent; several replies to one topic within a minute arrive as one.',
  turnOn: 'Turn on push notifications on this device',
  turnOff: 'Turn off on this device',
  on: 'Push notifications are on for this device.',
  unsupported: 'This browser cannot receive push notifications. On an iPhone or iPad, add Crux to the Home Screen and open it from there.',
  denied: "Notifications are blocked for Crux in this browser's settings: allow them there, then turn push on here.",
  offline: 'You are offline: turning push on needs a connection.',
  failed: 'Could not turn on push notifications',
} as const;

function supported(): boolean {
  return typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

async function registration(): Promise<ServiceWorkerRegistration | null> {
  if (!supported()) return null;
  return (await navigator.serviceWorker.getRegistration()) ?? null;
}

/** Whether push is on for this device (a subscription the browser holds) and what stops it. */
export async function pushState(): Promise<PushState> {
  if (!supported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  const reg = await registration();
  if (!reg) return 'unsupported';
  return (await reg.pushManager.getSubscription()) ? 'on' : 'off';
}

/** Turns push on for this device; call from a click. Throws an Error a person can read. */
export async function turnOnPush(server: PushServer): Promise<void> {
  if (!supported()) throw new Error(PUSH_TEXT.unsupported);
  if (!navigator.onLine) throw new Error(PUSH_TEXT.offline);
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new Error(PUSH_TEXT.denied);
  const reg = await navigator.serviceWorker.ready;
  const publicKey = await server.pushPublicKey();
  let subscription = await reg.pushManager.getSubscription();
  // A subscription made for another key (the server's keys changed) cannot be pushed to: renew it.
  const key = subscription?.options.applicationServerKey;
  if (subscription && key && base64url(key) !== publicKey) {
    await subscription.unsubscribe();
    subscription = null;
  }
  try {
    subscription ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: publicKey });
  } catch (error) {
    throw new Error(`${PUSH_TEXT.failed}: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    await server.savePushSubscription(subscription.toJSON());
  } catch (error) {
    await subscription.unsubscribe();
    throw error;
  }
}

/**
 * Turns push off for this device: the browser's subscription ends at once (offline too: the push
 * service then answers the server 410 and the server forgets the device), and the server is told
 * when it can be (signed in and online). Never throws: sign-out goes on whatever happens here.
 */
export async function turnOffPush(server: PushServer): Promise<void> {
  try {
    const reg = await registration();
    const subscription = await reg?.pushManager.getSubscription();
    if (!subscription) return;
    const endpoint = subscription.endpoint;
    await subscription.unsubscribe();
    if (navigator.onLine) await server.removePushSubscription(endpoint).catch(() => undefined);
  } catch {
    // Nothing more to do: the browser's subscription is the one that matters.
  }
}

/** An ArrayBuffer key as base64url, to compare with the server's. */
function base64url(key: ArrayBuffer): string {
  let binary = '';
  for (const byte of new Uint8Array(key)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
