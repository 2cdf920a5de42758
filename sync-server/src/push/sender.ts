// Sends the queued pushes (push_queue) in the background: woken when notifications change (the
// change feed, which on PostgreSQL hears every process) and by a timer for retries. A request only
// writes its queue rows in its own transaction, so a slow or dead push service never slows it.
// Each process claims rows before sending them (CLAIM_PUSHES), so one notification reaches one
// device once whichever process sends it; a claim that runs out (the process died mid-send) lets
// another process take the row again, with the same RFC 8030 Topic, so a push service still holding
// the first copy replaces it instead of delivering two.
import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ChangeFeed } from '../domain/change-feed.js';
import type { Store } from '../store/types.js';
import type { PushQueueRow } from '../store/rows.js';
import { deliver, type DeliveryAnswer } from './deliver.js';
import { endpointProblem } from './endpoint.js';
import { pushPayload } from './payload.js';
import { storedPushSettings } from './settings.js';
import { mayPush } from '../../../shared/push.js';
import type { VapidKeys } from './vapid.js';
import { logger } from '../observe/logger.js';
import { gaugeOnScrape, metrics } from '../observe/metrics.js';
import { retryAfterMs } from '../../../shared/retry-after.js';

/** The push sender's log lines (one per send: the uid and the push service's answer, never the endpoint's secrets). */
const pushLog = logger.child({ component: 'push' });

export interface PushSenderOptions {
  store: Store;
  changes: ChangeFeed;
  vapid: VapidKeys;
  /** PUSH_ALLOW_LOOPBACK=on: push services on this machine (tests, local development). */
  allowLoopback?: boolean;
  /** PUSH_SERVICE_HOSTS: push services beyond the browsers' own (push/endpoint.ts). */
  serviceHosts?: readonly string[];
  clock?: () => Date;
  log?: (line: string) => void;
  /** The first retry's wait; each next one doubles it (default 30 s). */
  retryBaseMs?: number;
  /** Attempts before a push is given up (default 6: about half an hour of backoff). */
  maxAttempts?: number;
  /** How long a claimed row is this process's before another may take it (default 60 s). */
  claimMs?: number;
  timeoutMs?: number;
}

export interface PushSender {
  /** Looks for due pushes now. */
  wake(): void;
  /** Resolves once nothing is being sent (tests, shutdown). */
  idle(): Promise<void>;
  /** Stops taking new work and waits for the step under way. */
  stop(): Promise<void>;
}

const BATCH = 50;
/**
 * Pushes being encrypted and sent at once. Encrypting and signing one takes the event loop for about
 * a millisecond, so the sender takes one turn per push (nextTurn) and keeps few in flight: a reply
 * that fans out to 1,000 followers must not hold up the requests this process is serving.
 */
const IN_FLIGHT = 8;
/** The longest a push service's Retry-After is believed. */
const MAX_RETRY_AFTER_MS = 60 * 60_000;
/** A push the phone has not fetched within a day is of no use any more. */
const TTL_SECONDS = 24 * 60 * 60;

/** RFC 8030 Topic: at most 32 base64url characters, the same for every resend of one notification. */
const pushTopic = (notificationId: string) => createHash('sha256').update(notificationId).digest('base64url').slice(0, 32);

export function startPushSender(options: PushSenderOptions): PushSender {
  const { store, vapid } = options;
  const clock = options.clock ?? (() => new Date());
  const log = options.log ?? ((line) => pushLog.warn(line));
  gaugeOnScrape('crux_push_queue_depth', 'Pushes queued and not yet delivered (due, waiting for a retry, or being sent).', () =>
    store.push.depth(),
  );
  const retryBaseMs = options.retryBaseMs ?? 30_000;
  const maxAttempts = options.maxAttempts ?? 6;
  const claimMs = options.claimMs ?? 60_000;
  const deliverOptions = {
    vapid,
    allowLoopback: options.allowLoopback ?? false,
    timeoutMs: options.timeoutMs ?? 10_000,
    ttlSeconds: TTL_SECONDS,
  };
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  async function settle(row: PushQueueRow, answer: DeliveryAnswer | Error) {
    const now = clock();
    const status = answer instanceof Error ? 'error' : answer.status;
    pushLog.info({ uid: row.uid, notification: row.notification_id, attempt: row.attempts + 1, status }, 'push send');
    if (!(answer instanceof Error) && answer.status >= 200 && answer.status < 300) {
      metrics.pushSent.inc();
      return store.push.delivered(row, now.toISOString());
    }
    if (!(answer instanceof Error) && (answer.status === 404 || answer.status === 410)) {
      // RFC 8030 §7.3: the subscription is gone for good (the user revoked it, the browser dropped it).
      metrics.pushFailures.inc({ outcome: 'gone' });
      log(`push: ${answer.status} from the push service: the device's subscription is removed`);
      await store.push.removeSubscription(row.endpoint);
      return;
    }
    const retryable = answer instanceof Error || answer.status === 429 || answer.status >= 500;
    const attempts = row.attempts + 1;
    if (!retryable || attempts >= maxAttempts) {
      metrics.pushFailures.inc({ outcome: 'given-up' });
      log(`push: given up after ${attempts} attempt(s): ${answer instanceof Error ? answer.message : `status ${answer.status}`}`);
      return store.push.drop(row);
    }
    metrics.pushFailures.inc({ outcome: 'retry' });
    const backoff = retryBaseMs * 2 ** (attempts - 1);
    const wait = Math.max(
      backoff,
      answer instanceof Error ? 0 : retryAfterMs(answer.retryAfter, now.getTime(), { maxMs: MAX_RETRY_AFTER_MS, missingMs: 0 }),
    );
    await store.push.retry(row, attempts, new Date(now.getTime() + wait).toISOString());
  }

  async function sendOne(row: PushQueueRow) {
    const [subscription, payload, user] = await Promise.all([
      store.push.getSubscription(row.endpoint),
      pushPayload(store, row.notification_id),
      store.users.get(row.uid),
    ]);
    // The device left (signed out, moved to another user) or the notification was read or removed since.
    if (!subscription || subscription.uid !== row.uid || !payload) return store.push.drop(row);
    // A device saved before its host was refused (or since PUSH_SERVICE_HOSTS changed): never posted to.
    if (endpointProblem(subscription.endpoint, deliverOptions.allowLoopback, options.serviceHosts)) {
      log('push: the device is not on a push service this server sends to: it is removed');
      await store.push.removeSubscription(row.endpoint);
      return;
    }
    // The user turned this kind off, or it is their quiet time: not pushed (the bell still counts it).
    if (!mayPush(storedPushSettings(user?.push_settings), payload.type, clock())) return store.push.drop(row);
    const answer = await deliver(subscription, JSON.stringify(payload), pushTopic(row.notification_id), deliverOptions).catch(
      (error: Error) => error,
    );
    await settle(row, answer);
  }

  async function drain() {
    while (!stopped) {
      const now = clock();
      const rows = await store.push.claimDue(now.toISOString(), new Date(now.getTime() + claimMs).toISOString(), BATCH);
      if (rows.length === 0) return;
      let next = 0;
      const lane = async () => {
        // The claimed batch is finished even when stopping: shutdown waits for the step under way.
        while (next < rows.length) {
          const row = rows[next++]!;
          await nextTurn();
          await sendOne(row).catch((error: unknown) => log(`push: ${String(error)}`));
        }
      };
      await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, rows.length) }, lane));
    }
  }

  async function schedule() {
    clearTimeout(timer);
    if (stopped) return;
    const at = await store.push.nextDue();
    if (at === undefined) return;
    // At least every minute: a claim another process left behind, or a clock step, is picked up.
    const delay = Math.min(60_000, Math.max(0, Date.parse(at) - clock().getTime()) + 5);
    timer = setTimeout(wake, delay);
    timer.unref();
  }

  function wake() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      // After the turn of the request that wrote the notifications: its answer goes out first.
      await nextTurn();
      do {
        again = false;
        await drain();
      } while (again && !stopped);
      await schedule();
    })()
      .catch((error: unknown) => log(`push: ${String(error)}`))
      .finally(() => (running = null));
  }

  // Only for queued pushes: a claim is a write, and one per committed reply (most recipients have no
  // device) cost a reply about half again its own CPU and ended its group commit early.
  const unsubscribe = options.changes.subscribe((changes) => {
    if (changes.some((change) => change.collection === '*' || ('pushes' in change && change.pushes))) wake();
  });
  wake();

  return {
    wake,
    async idle() {
      while (running) await running;
    },
    async stop() {
      stopped = true;
      unsubscribe();
      clearTimeout(timer);
      while (running) await running;
    },
  };
}
