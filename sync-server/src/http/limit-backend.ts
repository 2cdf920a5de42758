// Where the rate limits keep their counts (http/rate-limit.ts decides what to count). One
// server process keeps them in memory; several processes on one PostgreSQL database share
// them there (store/pg/limit-backend.ts), so a caller gets the same limits whichever process
// answers.

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

/** A token bucket: `burst` at once, refilled at `perMinute`. */
export interface Rate {
  burst: number;
  perMinute: number;
}

interface BucketState {
  tokens: number;
  at: number;
}

/**
 * Token buckets by key. `take(key, cost)` answers 0 when the cost was taken, else the
 * milliseconds until it could be. A cost above the burst is taken from a full bucket
 * (leaving it in debt), so a large but legal request is slowed, never refused forever.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, BucketState>();
  private readonly perMs: number;
  private takes = 0;

  constructor(
    readonly rate: Rate,
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 100_000,
  ) {
    this.perMs = rate.perMinute / 60_000;
  }

  private level(state: BucketState, now: number): number {
    return Math.min(this.rate.burst, state.tokens + (now - state.at) * this.perMs);
  }

  take(key: string, cost = 1, force = false): number {
    const now = this.now();
    if (++this.takes % 1000 === 0 || this.buckets.size >= this.maxKeys) this.sweep(now);
    const state = this.buckets.get(key) ?? { tokens: this.rate.burst, at: now };
    const tokens = this.level(state, now);
    const needed = Math.min(cost, this.rate.burst);
    if (!force && tokens < needed) return Math.max(1, Math.ceil((needed - tokens) / this.perMs));
    // Re-inserted, so the map's order is least recently used first.
    this.buckets.delete(key);
    this.buckets.set(key, { tokens: tokens - cost, at: now });
    return 0;
  }

  /** What is left for a key right now (a full bucket when the key is unknown). */
  remaining(key: string): number {
    const state = this.buckets.get(key);
    return state ? this.level(state, this.now()) : this.rate.burst;
  }

  get size(): number {
    return this.buckets.size;
  }

  /** Forgets full buckets (they behave as unknown keys), then the least recently used past maxKeys. */
  private sweep(now: number) {
    for (const [key, state] of this.buckets) if (this.level(state, now) >= this.rate.burst) this.buckets.delete(key);
    for (const key of this.buckets.keys()) {
      if (this.buckets.size < this.maxKeys) break;
      this.buckets.delete(key);
    }
  }
}

/** Counts of things open at once (live streams) by key. */
export class OpenCounts {
  private readonly open = new Map<string, number>();

  constructor(readonly max: number) {}

  /** A release function, or null when the key is at its maximum. Releasing twice is harmless. */
  acquire(key: string): (() => void) | null {
    const count = this.open.get(key) ?? 0;
    if (count >= this.max) return null;
    this.open.set(key, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(key) ?? 1) - 1;
      if (left <= 0) this.open.delete(key);
      else this.open.set(key, left);
    };
  }

  count(key: string): number {
    return this.open.get(key) ?? 0;
  }
}

/** The texts a person reads with a 429 (in the style of the site's texts: what happened, what to do). */
