// A PostgreSQL streaming replica for reads (READ_DATABASE_URL; docs/POSTGRES.md
// "Read replicas"). The store (store.ts) asks `readsOnReplica()` before each statement outside a
// transaction; everything else (writes, transactions, anything outside a request that allowed the
// replica: the mail lease, the commands, start-up) goes to the primary.
//
// A request's reads go to the replica only when all of these hold:
// - the request allowed it (`allowReplica()`: a GET, a sync pull; app.ts) and has not written
//   (a write's read-back reads the primary, and so does the rest of that request);
// - its caller has no write of their own the replica has not replayed yet: each write made in a
//   request records the primary's WAL position after its commit for the caller, and their reads
//   stay on the primary until the replica's replay position passes it (per process: with several
//   processes, route a caller to one of them, or accept their own writes may lag on the others for
//   the replica's lag; a pull never skips anything either way);
// - the replica answers, is still a standby, and lags by at most maxLagSeconds.
// The choice is made once per request (at its first read) and only ever moves to the primary: a
// request never reads an older state after a newer one.
//
// Why a lagging replica can only return less, never leave a gap: it replays the primary's WAL in
// commit order, and commit order is seq order (seq.ts), so what it shows is a prefix of the
// primary's history in seq order; a pull past the checkpoint gets the rows of that prefix, and the
// next pull continues from there.
//
// Lag is measured here, not read from pg_last_xact_replay_timestamp() (which grows while the
// primary is idle): every poll notes the primary's WAL position with the time it was seen, and the
// lag is the age of the oldest noted position the replica has not replayed (0 when caught up).
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import type { RequestReads } from '../types.js';

/** How often the primary's and the replica's WAL positions are read. */
export const DEFAULT_REPLICA_POLL_MS = 250;
/** Past this lag every read goes to the primary (READ_REPLICA_MAX_LAG_SECONDS). */
export const DEFAULT_REPLICA_MAX_LAG_SECONDS = 30;
/** Noted primary positions kept for the lag (a replica down for hours must not grow memory). */
const SAMPLES_KEPT = 10_000;
/** Callers with a write not yet replayed, kept per process. */
const WRITERS_KEPT = 100_000;

export interface ReplicaOptions {
  connectionString: string;
  /** Pooled connections to the replica (default: the primary pool's size). */
  max: number;
  maxLagSeconds?: number;
  pollMs?: number;
  /** The replica's pool settings the primary's shares (number types, connect timeout). */
  poolConfig: Pick<pg.PoolConfig, 'types' | 'connectionTimeoutMillis'>;
  log?: (message: string, error?: unknown) => void;
}

/** One request's routing state. */
interface Scope {
  uid: string | null;
  /** The request allows reads on the replica (until it writes). */
  replica: boolean;
  /** Where its reads went once chosen. */
  source?: 'replica' | 'primary';
  /** A write made before the caller was known (authentication's own write): recorded for them in setCaller. */
  unclaimedLsn?: number;
}

export interface ReadReplica extends RequestReads {
  pool: pg.Pool;
  /** Whether a read made now goes to the replica (fixes the request's choice when it does). */
  readsOnReplica(): boolean;
  /** The current request wrote (or a replica read failed): its reads move to the primary. */
  toPrimary(): void;
  /** Called after a write committed in a request: records the primary's WAL position for its caller. */
  wrote(lsn: () => Promise<number>): Promise<void>;
  /** Seconds the replica is behind (0 when caught up). */
  lagSeconds(): number;
  /** Resolves once the replica has replayed everything committed before the call (at once when reads do not use it). */
  caughtUp(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The end of the last WAL record as a byte position. pg_current_wal_insert_lsn() names where the
 * next record starts: right after a page header when the last one ended on a page boundary, where
 * the replica's replay position (the end of the record it replayed) stays. So that an idle primary
 * is not "ahead" forever, a position just after a page header counts as the boundary.
 */
export const INSERT_LSN_SQL =
  "SELECT (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::float8 AS lsn, current_setting('wal_block_size')::int AS block, " +
  "(SELECT setting::float8 * CASE unit WHEN '8kB' THEN 8192 WHEN 'MB' THEN 1048576 ELSE 1 END FROM pg_settings WHERE name = 'wal_segment_size') AS segment";

export function recordEnd(row: { lsn: number; block: number; segment: number }): number {
  const { lsn, block, segment } = row;
  if (lsn % segment === 40) return lsn - 40; // long page header, first page of a segment
  if (lsn % block === 24) return lsn - 24; // short page header
  return lsn;
}

export function createReadReplica(primary: pg.Pool, options: ReplicaOptions): ReadReplica {
  const log = options.log ?? ((message, error) => console.error(message, error));
  const maxLagSeconds = options.maxLagSeconds ?? DEFAULT_REPLICA_MAX_LAG_SECONDS;
  const pollMs = options.pollMs ?? DEFAULT_REPLICA_POLL_MS;
  const pool = new pg.Pool({ connectionString: options.connectionString, max: options.max, ...options.poolConfig });
  pool.on('error', (error) => log('read replica: an idle connection failed', error));
  const current = new AsyncLocalStorage<Scope>();

  /** The replica's replay position at the last good poll; undefined until one (reads wait on the primary). */
  let replayed: number | undefined;
  /** Whether the last poll reached a standby. */
  let usable = false;
  let complaint = '';
  const samples: Array<{ lsn: number; at: number }> = [];
  /** Each caller's last write not yet replayed: its WAL position and when it was made. */
  const writers = new Map<string, { lsn: number; at: number }>();
  const waiters: Array<{ lsn: number; done: () => void }> = [];

  const complain = (message: string, error?: unknown) => {
    if (message !== complaint) log(message, error);
    complaint = message;
  };

  const lagSeconds = () => (samples.length === 0 ? 0 : (Date.now() - samples[0]!.at) / 1000);
  const servesReads = () => usable && lagSeconds() <= maxLagSeconds;

  async function primaryLsn(): Promise<number> {
    const { rows } = await primary.query<{ lsn: number; block: number; segment: number }>(INSERT_LSN_SQL);
    return recordEnd(rows[0]!);
  }

  async function poll(): Promise<void> {
    const [head, standby] = await Promise.allSettled([
      primaryLsn(),
      pool.query<{ recovery: boolean; lsn: number | null }>(
        "SELECT pg_is_in_recovery() AS recovery, (pg_last_wal_replay_lsn() - '0/0'::pg_lsn)::float8 AS lsn",
      ),
    ]);
    const now = Date.now();
    if (head.status === 'fulfilled') {
      const last = samples.at(-1);
      if ((last === undefined || head.value > last.lsn) && samples.length < SAMPLES_KEPT) samples.push({ lsn: head.value, at: now });
    }
    if (standby.status === 'rejected') {
      usable = false;
      return complain('read replica: unreachable, reads go to the primary', standby.reason);
    }
    const { recovery, lsn } = standby.value.rows[0]!;
    if (!recovery || lsn === null) {
      usable = false;
      return complain('read replica: READ_DATABASE_URL is not a standby (pg_is_in_recovery() is false), reads go to the primary');
    }
    if (complaint) log('read replica: serving reads again');
    complaint = '';
    usable = true;
    replayed = lsn;
    while (samples.length > 0 && samples[0]!.lsn <= lsn) samples.shift();
    // A write older than the lag (and a poll) is replayed too: that also ends a write whose position is unknown.
    const horizon = now - lagSeconds() * 1000 - 2 * pollMs;
    for (const [uid, written] of writers) if (written.lsn <= lsn || written.at < horizon) writers.delete(uid);
    release();
  }

  /** Resolves the waiters the replica has caught up with, or all when reads no longer use it. */
  function release() {
    for (let i = waiters.length - 1; i >= 0; i--) {
      const waiter = waiters[i]!;
      if (!servesReads() || (replayed !== undefined && replayed >= waiter.lsn)) {
        waiters.splice(i, 1);
        waiter.done();
      }
    }
  }

  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const loop = async () => {
    await poll().catch((error: unknown) => complain('read replica: the lag check failed', error));
    if (!usable) release();
    if (!stopped) timer = setTimeout(() => void loop(), pollMs);
  };
  void loop();

  const callerCaughtUp = (uid: string | null) => {
    if (uid === null) return true;
    const written = writers.get(uid);
    return written === undefined || (replayed !== undefined && replayed >= written.lsn);
  };

  const noteWriter = (uid: string, lsn: number) => {
    const before = writers.get(uid)?.lsn ?? 0;
    writers.delete(uid);
    writers.set(uid, { lsn: Math.max(lsn, before), at: Date.now() });
    // Memory is bounded; the oldest writer dropped is the likeliest to have been replayed already.
    if (writers.size > WRITERS_KEPT) writers.delete(writers.keys().next().value!);
  };

  return {
    pool,
    scope: (fn) => current.run({ uid: null, replica: false }, fn),
    setCaller(uid) {
      const scope = current.getStore();
      if (!scope) return;
      scope.uid = uid;
      if (uid !== null && scope.unclaimedLsn !== undefined) noteWriter(uid, scope.unclaimedLsn);
    },
    allowReplica() {
      const scope = current.getStore();
      if (scope && scope.source === undefined) scope.replica = true;
    },
    readsOnReplica() {
      const scope = current.getStore();
      if (!scope?.replica) return false;
      scope.source ??= servesReads() && callerCaughtUp(scope.uid) ? 'replica' : 'primary';
      return scope.source === 'replica';
    },
    toPrimary() {
      const scope = current.getStore();
      if (scope) scope.source = 'primary';
    },
    async wrote(lsn) {
      const scope = current.getStore();
      if (!scope) return;
      scope.source = 'primary';
      // Unknown position (the query failed): the caller's reads stay on the primary for the replica's lag.
      const position = await lsn().catch(() => Number.MAX_SAFE_INTEGER);
      if (scope.uid === null) scope.unclaimedLsn = Math.max(position, scope.unclaimedLsn ?? 0);
      else noteWriter(scope.uid, position);
    },
    lagSeconds,
    async caughtUp() {
      if (!servesReads()) return;
      const lsn = await primaryLsn();
      if (replayed !== undefined && replayed >= lsn) return;
      // Bounded: past the maximum lag reads go to the primary, which has it.
      await new Promise<void>((resolve) => {
        const timeout = setTimeout(resolve, maxLagSeconds * 1000);
        waiters.push({
          lsn,
          done: () => {
            clearTimeout(timeout);
            resolve();
          },
        });
      });
    },
    async close() {
      stopped = true;
      clearTimeout(timer);
      for (const waiter of waiters.splice(0)) waiter.done();
      await pool.end();
    },
  };
}
