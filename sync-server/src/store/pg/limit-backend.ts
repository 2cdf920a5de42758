// Rate-limit counts shared by every server process on one PostgreSQL database,
// so a caller's limits are the same whichever process answers (http/limit-backend.ts).
//
// Token buckets: one row per (bucket, key). A take locks its rows (FOR UPDATE, always in
// (bucket, key) order so two requests never deadlock), computes the refilled levels in
// JavaScript exactly as the in-memory TokenBuckets do, and writes them back: all or none.
//
// Open counts (live streams): each process keeps its own row per (counter, key), renewed by
// a heartbeat; the count is the sum over processes seen within the lease. A process that dies
// without closing its streams stops renewing, and its rows stop counting when the lease runs
// out. Opening takes a transaction-level advisory lock per (counter, key), so two processes
// cannot both take the last place.
//
// The tables are UNLOGGED: counts that vanish in a crash only give callers a fresh bucket.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { checkOut } from './checkout.js';
import { MIGRATE_LOCK_KEY } from './migrate.js';
import { waitFor, type BucketTake, type CounterOpen, type LimitBackend } from '../../http/limit-backend.js';
import { logger } from '../../observe/logger.js';

export const LIMITS_SCHEMA = `
CREATE UNLOGGED TABLE IF NOT EXISTS rate_buckets (
  bucket text   NOT NULL,
  key    text   NOT NULL,
  tokens double precision NOT NULL,
  at_ms  bigint NOT NULL,
  PRIMARY KEY (bucket, key)
);
CREATE UNLOGGED TABLE IF NOT EXISTS open_counts (
  counter text    NOT NULL,
  key     text    NOT NULL,
  process text    NOT NULL,
  open    integer NOT NULL,
  seen_ms bigint  NOT NULL,
  PRIMARY KEY (counter, key, process)
);
`;

export interface PgLimitBackendOptions {
  now?: () => number;
  /** How long a process's open counts count without a heartbeat (default 60 s). */
  leaseMs?: number;
  /** Where a failed release or heartbeat is reported (default: the process's log, level error). */
  log?: (message: string, error: unknown) => void;
}

const byBucketAndKey =
  <T extends { key: string }>(name: (item: T) => string) =>
  (a: T, b: T) =>
    name(a) === name(b) ? (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) : name(a) < name(b) ? -1 : 1;

/** Runs `work` in a transaction on a client of its own; ROLLBACK when it returns false or throws. */
async function inTransaction(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<boolean>): Promise<boolean> {
  const { client, release } = await checkOut(pool);
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const commit = await work(client);
    await client.query(commit ? 'COMMIT' : 'ROLLBACK');
    return commit;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
    throw error;
  } finally {
    release(broken);
  }
}

export async function createPgLimitBackend(pool: pg.Pool, options: PgLimitBackendOptions = {}): Promise<LimitBackend> {
  const now = options.now ?? Date.now;
  const leaseMs = options.leaseMs ?? 60_000;
  const log = options.log ?? ((message, error) => logger.error({ err: error }, message));
  const process = randomUUID();
  // Several processes starting at once: CREATE … IF NOT EXISTS is not safe concurrently (two
  // may both try), so the schema is made under the migration lock (store/pg/migrate.ts).
  await inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATE_LOCK_KEY]);
    await client.query(LIMITS_SCHEMA);
    return true;
  });

  // Buckets full again hold nothing worth keeping: forgotten now and then (the longest refill seen).
  let longestRefillMs = 0;
  let takes = 0;
  const sweep = () => {
    const cutoff = now() - longestRefillMs;
    pool.query('DELETE FROM rate_buckets WHERE at_ms < $1', [cutoff]).catch((error: unknown) => log('rate limits: sweep failed', error));
  };

  const heartbeat = setInterval(() => {
    const at = now();
    pool
      .query('UPDATE open_counts SET seen_ms = $2 WHERE process = $1', [process, at])
      .then(() => pool.query('DELETE FROM open_counts WHERE open <= 0 OR seen_ms < $1', [at - leaseMs]))
      .catch((error: unknown) => log('rate limits: heartbeat failed', error));
  }, leaseMs / 3);
  heartbeat.unref();

  return {
    async take(list) {
      const order = [...list.entries()].sort(([, a], [, b]) => byBucketAndKey<BucketTake>((t) => t.bucket)(a, b));
      const at = now();
      for (const [, take] of order) longestRefillMs = Math.max(longestRefillMs, (take.rate.burst * 60_000) / take.rate.perMinute);
      if (++takes % 1000 === 0) sweep();
      let refused: { refused: number; waitMs: number } | undefined;
      await inTransaction(pool, async (client) => {
        const buckets = order.map(([, take]) => take.bucket);
        const keys = order.map(([, take]) => take.key);
        await client.query(
          `INSERT INTO rate_buckets (bucket, key, tokens, at_ms)
           SELECT b, k, t, $4 FROM unnest($1::text[], $2::text[], $3::float8[]) AS u (b, k, t)
           ON CONFLICT DO NOTHING`,
          [buckets, keys, order.map(([, take]) => take.rate.burst), at],
        );
        const { rows } = await client.query<{ bucket: string; key: string; tokens: number; at_ms: string }>(
          `SELECT bucket, key, tokens, at_ms FROM rate_buckets
           WHERE (bucket, key) IN (SELECT * FROM unnest($1::text[], $2::text[]))
           ORDER BY bucket COLLATE "C", key COLLATE "C" FOR UPDATE`,
          [buckets, keys],
        );
        const stored = new Map(rows.map((row) => [`${row.bucket}\u0000${row.key}`, row]));
        const levels: number[] = [];
        for (const [index, take] of order) {
          const row = stored.get(`${take.bucket}\u0000${take.key}`)!;
          const elapsed = Math.max(0, at - Number(row.at_ms));
          const level = Math.min(take.rate.burst, row.tokens + (elapsed * take.rate.perMinute) / 60_000);
          const waitMs = take.force ? 0 : waitFor(level, take.cost, take.rate);
          if (waitMs > 0 && (!refused || index < refused.refused)) refused = { refused: index, waitMs };
          levels.push(level - take.cost);
        }
        if (refused) return false;
        await client.query(
          `UPDATE rate_buckets SET tokens = u.t, at_ms = $4
           FROM unnest($1::text[], $2::text[], $3::float8[]) AS u (b, k, t)
           WHERE rate_buckets.bucket = u.b AND rate_buckets.key = u.k`,
          [buckets, keys, levels, at],
        );
        return true;
      });
      return refused ? { ok: false, ...refused } : { ok: true };
    },

    async open(list) {
      const order = [...list.entries()].sort(([, a], [, b]) => byBucketAndKey<CounterOpen>((o) => o.counter)(a, b));
      const counters = order.map(([, open]) => open.counter);
      const keys = order.map(([, open]) => open.key);
      let refused: number | undefined;
      const at = now();
      await inTransaction(pool, async (client) => {
        for (const [, open] of order) {
          await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`crux-open ${open.counter} ${open.key}`]);
        }
        const { rows } = await client.query<{ counter: string; key: string; open: number }>(
          `SELECT counter, key, sum(open)::int AS open FROM open_counts
           WHERE (counter, key) IN (SELECT * FROM unnest($1::text[], $2::text[])) AND seen_ms >= $3
           GROUP BY counter, key`,
          [counters, keys, at - leaseMs],
        );
        const count = new Map(rows.map((row) => [`${row.counter}\u0000${row.key}`, row.open]));
        for (const [index, open] of order) {
          if ((count.get(`${open.counter}\u0000${open.key}`) ?? 0) >= open.max && (refused === undefined || index < refused))
            refused = index;
        }
        if (refused !== undefined) return false;
        await client.query(
          `INSERT INTO open_counts (counter, key, process, open, seen_ms)
           SELECT c, k, $3, 1, $4 FROM unnest($1::text[], $2::text[]) AS u (c, k)
           ON CONFLICT (counter, key, process) DO UPDATE SET open = open_counts.open + 1, seen_ms = excluded.seen_ms`,
          [counters, keys, process, at],
        );
        return true;
      });
      if (refused !== undefined) return { ok: false, refused };
      let released = false;
      return {
        ok: true,
        release: () => {
          if (released) return;
          released = true;
          pool
            .query(
              `UPDATE open_counts SET open = open - 1
               WHERE process = $3 AND (counter, key) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
              [counters, keys, process],
            )
            .catch((error: unknown) => log('rate limits: release failed (it lapses with the lease)', error));
        },
      };
    },

    async close() {
      clearInterval(heartbeat);
      await pool.query('DELETE FROM open_counts WHERE process = $1', [process]).catch(() => {});
    },
  };
}
