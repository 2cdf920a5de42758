// Where the rate limits keep their counts (http/rate-limit.ts decides what to count). One
// server process keeps them in memory; several processes on one PostgreSQL database share
// them there (store/pg/limit-backend.ts), so a caller gets the same limits whichever process
// answers (issue 14).
import { OpenCounts, TokenBuckets, type Rate } from './rate-limit.js';

/** `cost` tokens from the bucket `bucket` of `key` (e.g. bucket 'userWrites', key a uid). */
export interface BucketTake {
  bucket: string;
  key: string;
  rate: Rate;
  cost: number;
  /** Taken whatever the bucket holds, leaving it in debt if need be; never refused (a charge for what was already served). */
  force?: boolean;
}

/** One more open thing (a live stream) for `key` under the counter `counter`, at most `max`. */
export interface CounterOpen {
  counter: string;
  key: string;
  max: number;
}

export type TakeResult = { ok: true } | { ok: false; refused: number; waitMs: number };
export type OpenResult = { ok: true; release: () => void } | { ok: false; refused: number };

export interface LimitBackend {
  /**
   * Takes every cost or none (a refused request costs nothing). A cost above a bucket's burst
   * is taken from a full bucket, leaving it in debt. Refused: the first take that could not be
   * served (its index) and how long until it could.
   */
  take(takes: readonly BucketTake[]): Promise<TakeResult>;
  /** Opens one at every key or at none; refused: the index of the first key at its maximum. */
  open(opens: readonly CounterOpen[]): Promise<OpenResult>;
  close(): Promise<void>;
}

/** The wait (ms) before `cost` can be taken from a bucket holding `tokens`; 0 when it can now. */
export function waitFor(tokens: number, cost: number, rate: Rate): number {
  const needed = Math.min(cost, rate.burst);
  return tokens >= needed ? 0 : ((needed - tokens) * 60_000) / rate.perMinute;
}

/** The counts of one process, in memory. */
export function createMemoryLimitBackend(now: () => number = Date.now): LimitBackend {
  const buckets = new Map<string, TokenBuckets>();
  const counters = new Map<string, OpenCounts>();
  const bucketsOf = (name: string, rate: Rate) => {
    let found = buckets.get(name);
    if (!found) buckets.set(name, (found = new TokenBuckets(rate, now)));
    return found;
  };
  const counterOf = (name: string, max: number) => {
    let found = counters.get(name);
    if (!found) counters.set(name, (found = new OpenCounts(max)));
    return found;
  };
  return {
    async take(takes) {
      for (const [index, take] of takes.entries()) {
        const waitMs = take.force ? 0 : waitFor(bucketsOf(take.bucket, take.rate).remaining(take.key), take.cost, take.rate);
        if (waitMs > 0) return { ok: false, refused: index, waitMs };
      }
      for (const take of takes) bucketsOf(take.bucket, take.rate).take(take.key, take.cost, take.force);
      return { ok: true };
    },
    async open(opens) {
      const releases: (() => void)[] = [];
      for (const [index, open] of opens.entries()) {
        const release = counterOf(open.counter, open.max).acquire(open.key);
        if (!release) {
          releases.forEach((undo) => undo());
          return { ok: false, refused: index };
        }
        releases.push(release);
      }
      return { ok: true, release: () => releases.forEach((release) => release()) };
    },
    async close() {},
  };
}
