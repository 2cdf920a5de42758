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
  /** No service worker or Push API here (a private window, iPhone Safari outside the Home Screen app). */
  | 'unsupported'
  /** The user blocked notifications for this site in the browser (Notification.permission is 'denied'). */
  | 'denied'
  | 'off'
  | 'on';

/** Why turning push on failed: each cause has its own words, and the page its own next step. */
export type PushFailure = 'unsupported' | 'denied' | 'dismissed' | 'offline' | 'timeout' | 'failed';

export const PUSH_TEXT = {
  heading: 'Push notifications',
  explain:
    'Get a notification on this device when someone replies to your topics or responses, or a moderator acts on something you wrote. ' +
    'Only what your bell counts is sent; several replies to one topic within a minute arrive as one.',
  turnOn: 'Turn on push notifications on this device',
  turningOn: 'Turning on push notifications…',
  turnOff: 'Turn off on this device',
  turningOff: 'Turning off push notifications…',
  checking: 'Checking this device…',
  on: 'Push notifications are on for this device.',
  unsupported: "This browser can't receive push notifications here (private windows often can't).",
  iphone: 'On an iPhone or iPad, add Crux to the Home Screen and open it from there.',
  denied: "Notifications are blocked for Crux in this browser's settings: allow them there, then turn push on here.",
  dismissed: 'Notifications were not allowed. Press the button again and choose Allow to turn push on.',
  offline: 'You are offline: turning push on needs a connection.',
  timeout: "Couldn't reach the browser's push service. Try again later.",
  failed: 'Could not turn on push notifications',
} as const;

/** An error a person can read, with the cause the page acts on. */
export class PushError extends Error {
  constructor(
    readonly failure: PushFailure,
    message: string,
  ) {
    super(message);
    this.name = 'PushError';
  }
}

/**
 * How long the browser's push service may take before turning on gives up: a browser that cannot
 * reach it (a blocked network, a vendor's service down) otherwise leaves the button waiting for a
 * minute or more with nothing said.
 */
export const PUSH_SUBSCRIBE_TIMEOUT_MS = 15_000;

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

/** `work`, or a PushError 'timeout' once `ms` have passed without it settling. */
function withinTime<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PushError('timeout', PUSH_TEXT.timeout)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * A failed subscribe, named. Permission is granted by then, so a "permission denied" from the push
 * manager (Chrome's private windows say exactly that) means this browser has no push service here,
 * not that the user said no.
 */
function subscribeFailure(error: unknown): PushError {
  if (error instanceof PushError) return error;
  if (Notification.permission === 'denied') return new PushError('denied', PUSH_TEXT.denied);
  // Read by shape: a DOMException is an Error in browsers, but not in every realm.
  const shape: Partial<Error> = typeof error === 'object' && error !== null ? error : {};
  const { name = '', message = String(error) } = shape;
  if (name === 'NotAllowedError' || name === 'NotSupportedError' || /permission denied/i.test(message))
    return new PushError('unsupported', PUSH_TEXT.unsupported);
  return new PushError('failed', `${PUSH_TEXT.failed}: ${message}`);
}

export interface TurnOnOptions {
  /** How long the service worker and the browser's push service may take (tests shorten it). */
  timeoutMs?: number;
}

/** Turns push on for this device; call from a click. Throws a PushError a person can read. */
export async function turnOnPush(server: PushServer, { timeoutMs = PUSH_SUBSCRIBE_TIMEOUT_MS }: TurnOnOptions = {}): Promise<void> {
  if (!supported()) throw new PushError('unsupported', PUSH_TEXT.unsupported);
  if (!navigator.onLine) throw new PushError('offline', PUSH_TEXT.offline);
  const permission = await Notification.requestPermission();
  if (permission === 'denied') throw new PushError('denied', PUSH_TEXT.denied);
  if (permission !== 'granted') throw new PushError('dismissed', PUSH_TEXT.dismissed);
  let subscription: PushSubscription;
  const subscribing = subscribe(server);
  try {
    subscription = await withinTime(subscribing, timeoutMs);
  } catch (error) {
    // One that arrives after the page gave up is not kept: the server never heard of it, and the
    // page would say push is on with nothing ever pushed.
    if (error instanceof PushError && error.failure === 'timeout') subscribing.then((late) => late.unsubscribe()).catch(() => undefined);
    throw subscribeFailure(error);
  }
  try {
    await server.savePushSubscription(subscription.toJSON());
  } catch (error) {
    await subscription.unsubscribe();
    throw error;
  }
}

/** The browser's subscription for the server's current key (an old key's is renewed). */
async function subscribe(server: PushServer): Promise<PushSubscription> {
  // Never settles without a service worker (one that failed to install): the timeout covers it.
  const reg = await navigator.serviceWorker.ready;
  const publicKey = await server.pushPublicKey();
  let subscription = await reg.pushManager.getSubscription();
  // A subscription made for another key (the server's keys changed) cannot be pushed to: renew it.
  const key = subscription?.options.applicationServerKey;
  if (subscription && key && base64url(key) !== publicKey) {
    await subscription.unsubscribe();
    subscription = null;
  }
  return subscription ?? (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: publicKey }));
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
