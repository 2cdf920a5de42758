// The change feed across server processes: several processes on one PostgreSQL
// database each serve live streams, so a write through process A must reach a browser
// streaming from process B. Each publish goes to this process's listeners at once (as the
// in-process feed does) and, through PostgreSQL's NOTIFY, to every other process, whose
// LISTEN connection hands it to its own listeners. A process ignores its own notifications
// (it delivered them already), recognised by an origin id drawn at start.
//
// NOTIFY is fire-and-forget: a process whose LISTEN connection drops misses what was
// published meanwhile. It reconnects with a growing pause, and once it listens again it tells
// its own listeners that anything may have changed (EVERYTHING): each open stream sends RESYNC
// for everything, so a browser on a quiet stream pulls what was written during the outage
// rather than waiting for the next change or its own reconnection.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createChangeFeed, EVERYTHING, type Change, type ChangeFeed } from '../../domain/change-feed.js';
import { logger } from '../../observe/logger.js';

/** The channel every Crux process on the database listens to. */
export const CHANGES_CHANNEL = 'crux_changes';

/** PostgreSQL refuses a NOTIFY payload of 8,000 bytes or more: bigger batches go in parts. */
const MAX_PAYLOAD_BYTES = 7_000;

interface Message {
  origin: string;
  changes: Change[];
}

export interface PgChangeFeed extends ChangeFeed {
  /** Resolves once the LISTEN connection is up (the first time). */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

export interface PgChangeFeedOptions {
  connectionString: string;
  /** Where a failed NOTIFY or a lost LISTEN connection is reported (default: the process's log, level error). */
  log?: (message: string, error: unknown) => void;
  /** The first pause before reconnecting the LISTEN connection; it doubles up to 30 s. */
  retryMs?: number;
}

/** Splits the changes into NOTIFY payloads under PostgreSQL's limit. */
export function payloadsFor(origin: string, changes: Change[]): string[] {
  const payloads: string[] = [];
  let part: Change[] = [];
  const encode = (list: Change[]) => JSON.stringify({ origin, changes: list } satisfies Message);
  for (const change of changes) {
    part.push(change);
    if (part.length > 1 && Buffer.byteLength(encode(part)) > MAX_PAYLOAD_BYTES) {
      part.pop();
      payloads.push(encode(part));
      part = [change];
    }
  }
  if (part.length > 0) payloads.push(encode(part));
  return payloads;
}

export function createPgChangeFeed(options: PgChangeFeedOptions): PgChangeFeed {
  const local = createChangeFeed();
  const origin = randomUUID();
  const log = options.log ?? ((message, error) => logger.error({ err: error }, message));
  const firstRetryMs = options.retryMs ?? 500;
  // Publishing uses a connection of its own, never the LISTEN one; NOTIFYs go one after the
  // other (a chain), so other processes hear this one's changes in the order they were made.
  const notifier = new pg.Pool({ connectionString: options.connectionString, max: 1 });
  let sending: Promise<unknown> = Promise.resolve();
  notifier.on('error', (error) => log('change feed: a NOTIFY connection failed', error));
  let listener: pg.Client | null = null;
  let closed = false;
  /** Whether a LISTEN connection was up before: the next one comes after an outage. */
  let listenedBefore = false;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const onNotification = (message: pg.Notification) => {
    if (message.channel !== CHANGES_CHANNEL || !message.payload) return;
    let parsed: Message;
    try {
      parsed = JSON.parse(message.payload) as Message;
    } catch {
      return; // not ours
    }
    if (parsed.origin === origin || !Array.isArray(parsed.changes)) return;
    local.publish(parsed.changes);
  };

  const listen = async (retryMs: number): Promise<void> => {
    if (closed) return;
    const client = new pg.Client({ connectionString: options.connectionString });
    const lost = (error: unknown) => {
      if (listener !== client) return;
      listener = null;
      client.removeAllListeners('notification');
      void client.end().catch(() => {});
      if (closed) return;
      log('change feed: the LISTEN connection was lost; reconnecting', error);
      retryTimer = setTimeout(() => void listen(firstRetryMs), firstRetryMs);
    };
    try {
      await client.connect();
      client.on('notification', onNotification);
      client.on('error', lost);
      client.on('end', () => lost(new Error('connection ended')));
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
      if (closed) {
        await client.end();
        return;
      }
      listener = client;
      markReady();
      // Changes NOTIFYed while no connection listened are lost: whoever streams from this
      // process must pull everything once (a missed change costs a pull, never data).
      if (listenedBefore) local.publish([EVERYTHING]);
      listenedBefore = true;
    } catch (error) {
      void client.end().catch(() => {});
      if (closed) return;
      log('change feed: cannot LISTEN; retrying', error);
      const next = Math.min(retryMs * 2, 30_000);
      retryTimer = setTimeout(() => void listen(next), retryMs);
    }
  };
  void listen(firstRetryMs);

  return {
    ready,
    publish(changes) {
      if (changes.length === 0) return;
      local.publish(changes);
      for (const payload of payloadsFor(origin, changes)) {
        sending = sending
          .then(() => notifier.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, payload]))
          .catch((error: unknown) => {
            if (!closed) log('change feed: NOTIFY failed (other processes miss this change until their next pull)', error);
          });
      }
    },
    subscribe: local.subscribe,
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      const client = listener;
      listener = null;
      await sending;
      await Promise.all([client?.end().catch(() => {}), notifier.end().catch(() => {})]);
    },
  };
}
