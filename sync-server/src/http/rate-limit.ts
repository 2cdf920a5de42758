// Rate limits (docs/SECURITY.md "Rate limits"), counted in memory by
// one server process, or in PostgreSQL shared by several (http/limit-backend.ts):
//   writes      token buckets per user and per IP, counting ROWS: a REST write is
//               one, a sync push of 50 documents is 50 (so a push cannot carry a
//               flood of replies or votes past the limit)
//   reads       expensive reads (searches, list pages, deep topic pages, common ground, a
//               topic's stance totals, a user's page, the sitemap, a topic's server-rendered
//               first page, one-click unsubscribe):
//               a bucket per user, or per IP for anonymous callers, plus one per IP
//   pulls       sync pulls, counting DOCUMENTS: a pull costs one plus the documents it
//               returned (a pull may return 1,000, or span 200 topics), per user (per IP
//               when anonymous) and per IP
//   streams     live streams open at once, per user and per IP
// Over a limit the answer is 429 `rate-limited` with `Retry-After` (seconds) and a
// message for a person; nothing of the request is applied. IPv6 callers are counted by
// their /64 (one host usually holds a whole /64, so per-address keys would be free to mint).
import { isIPv6 } from 'node:net';
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { CruxError } from '../../../shared/errors.js';
import type { AuthUser } from '../auth/verifier.js';
import { metrics } from '../observe/metrics.js';
import { createMemoryLimitBackend, type BucketTake, type LimitBackend, type Rate } from './limit-backend.js';
// The buckets live with the in-memory backend (one-way imports: a cycle between the two broke
// `npm run db:migrate` under tsx, which evaluated this module's NO_RATE_LIMITS first).
export { OpenCounts, TokenBuckets, type Rate } from './limit-backend.js';

export interface RateLimitConfig {
  /** false: no limit is applied at all (RATE_LIMITS=off, e.g. for a load test). */
  enabled: boolean;
  /** Rows written (REST writes and pushed documents) per signed-in user. */
  userWrites: Rate;
  /** Rows written per client IP (all accounts on it together). */
  ipWrites: Rate;
  /** Expensive reads per signed-in user (per IP when anonymous). */
  userReads: Rate;
  /** Expensive reads per client IP (all callers on it together). */
  ipReads: Rate;
  /** Documents pulled by sync per signed-in user (per IP when anonymous); each pull also costs one. */
  userPulls: Rate;
  /** Documents pulled by sync per client IP (all callers on it together). */
  ipPulls: Rate;
  /** Live streams open at once per signed-in user. */
  userStreams: number;
  /** Live streams open at once per client IP. */
  ipStreams: number;
  /** Behind one reverse proxy: the client is the last address of X-Forwarded-For. */
  trustProxy: boolean;
}

export const DEFAULT_RATE_LIMITS: RateLimitConfig = {
  enabled: true,
  userWrites: { burst: 150, perMinute: 60 },
  ipWrites: { burst: 1500, perMinute: 600 },
  userReads: { burst: 300, perMinute: 300 },
  ipReads: { burst: 1200, perMinute: 1200 },
  // A first sync of a large site pulls every topic, and opening a big debate all its replies:
  // up to a hundred thousand documents at once for one person, several people behind one address.
  userPulls: { burst: 100_000, perMinute: 50_000 },
  ipPulls: { burst: 400_000, perMinute: 200_000 },
  userStreams: 20,
  ipStreams: 200,
  trustProxy: false,
};

/** The environment variables, with the field each sets (README's Configuration table lists them). */
export const RATE_LIMIT_ENV = {
  RATE_LIMIT_USER_WRITES_BURST: ['userWrites', 'burst'],
  RATE_LIMIT_USER_WRITES_PER_MIN: ['userWrites', 'perMinute'],
  RATE_LIMIT_IP_WRITES_BURST: ['ipWrites', 'burst'],
  RATE_LIMIT_IP_WRITES_PER_MIN: ['ipWrites', 'perMinute'],
  RATE_LIMIT_USER_READS_BURST: ['userReads', 'burst'],
  RATE_LIMIT_USER_READS_PER_MIN: ['userReads', 'perMinute'],
  RATE_LIMIT_IP_READS_BURST: ['ipReads', 'burst'],
  RATE_LIMIT_IP_READS_PER_MIN: ['ipReads', 'perMinute'],
  RATE_LIMIT_USER_PULLS_BURST: ['userPulls', 'burst'],
  RATE_LIMIT_USER_PULLS_PER_MIN: ['userPulls', 'perMinute'],
  RATE_LIMIT_IP_PULLS_BURST: ['ipPulls', 'burst'],
  RATE_LIMIT_IP_PULLS_PER_MIN: ['ipPulls', 'perMinute'],
} as const satisfies Record<string, readonly [keyof RateLimitConfig, keyof Rate]>;

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number (got "${raw}").`);
  return value;
}

/** The limits from the environment (unset variables keep DEFAULT_RATE_LIMITS). */
export function readRateLimits(env: NodeJS.ProcessEnv = process.env): RateLimitConfig {
  const config: RateLimitConfig = structuredClone(DEFAULT_RATE_LIMITS);
  config.enabled = !['off', 'false', '0'].includes((env.RATE_LIMITS ?? '').trim().toLowerCase());
  for (const [name, [field, key]] of Object.entries(RATE_LIMIT_ENV)) {
    config[field][key] = positive(env, name, config[field][key]);
  }
  config.userStreams = Math.floor(positive(env, 'RATE_LIMIT_USER_STREAMS', config.userStreams));
  config.ipStreams = Math.floor(positive(env, 'RATE_LIMIT_IP_STREAMS', config.ipStreams));
  config.trustProxy = (env.TRUST_PROXY ?? '').trim().toLowerCase() === 'true';
  return config;
}

export const RATE_LIMIT_MSG = {
  writes: (seconds: number) => `You are making changes too quickly. Try again in ${waitText(seconds)}.`,
  ipWrites: (seconds: number) => `Too many changes are coming from your IP address. Try again in ${waitText(seconds)}.`,
  reads: (seconds: number) => `Too many searches in a short time. Try again in ${waitText(seconds)}.`,
  requests: (seconds: number) => `Too many requests in a short time. Try again in ${waitText(seconds)}.`,
  pulls: (seconds: number) => `Too much data downloaded in a short time. Try again in ${waitText(seconds)}.`,
  streams: 'Too many live connections are open for your account. Close another tab or device and try again.',
  ipStreams: 'Too many live connections are coming from your IP address. Try again in a few minutes.',
};

/** How long a refused live stream is told to wait before opening again. */
export const STREAM_RETRY_SECONDS = 30;

function waitText(seconds: number): string {
  return seconds === 1 ? '1 second' : `${seconds} seconds`;
}

/** The 429 for a wait of `ms`: `Retry-After` in whole seconds (at least 1) and the message. */
export function rateLimited(c: Context, ms: number, message: (seconds: number) => string): CruxError {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  // Set on the context, so the error answer built in onError (http/errors.ts) carries it.
  c.header('Retry-After', String(seconds));
  return new CruxError('rate-limited', message(seconds));
}

/**
 * The key a client address is counted under: an IPv4 address as it is (an IPv4-mapped IPv6
 * address as its IPv4), an IPv6 address as its /64 prefix (`2001:db8:1:2::/64`). An ISP gives a
 * home or a server a whole /64 and its host may use any address in it, so counting single IPv6
 * addresses would give one machine 2^64 allowances. Anything else (unknown) is kept as it is.
 */
export function addressKey(address: string): string {
  const ip = address
    .trim()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '');
  if (!isIPv6(ip)) return ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  return `${ipv6Groups(ip).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address, lower-case hex without leading zeros. */
function ipv6Groups(ip: string): string[] {
  let text = ip.toLowerCase();
  // A trailing dotted IPv4 part is two groups.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = text.slice(0, dotted.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const middle = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((group) => parseInt(group, 16).toString(16));
}

/** The caller's address key (addressKey): the socket's peer, or (TRUST_PROXY) the last X-Forwarded-For hop. */
export function clientIp(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for');
    const last = forwarded?.split(',').pop()?.trim();
    if (last) return addressKey(last);
  }
  const env = c.env as { incoming?: IncomingMessage } | undefined;
  return addressKey(env?.incoming?.socket?.remoteAddress ?? 'unknown');
}

export interface RateLimits {
  readonly config: RateLimitConfig;
  /** Takes `rows` writes for the caller (and their IP), or throws the 429. */
  writes(c: Context, user: AuthUser | null, rows: number): Promise<void>;
  /** Takes one expensive read for the caller (user, or IP when anonymous, and the IP), or throws the 429. */
  read(c: Context, user: AuthUser | null, message?: (seconds: number) => string): Promise<void>;
  /**
   * Before a sync pull: takes one for the request, or throws the 429 when the caller's pull
   * allowance is spent. Answers the charge for what the pull then returned (`documents`), taken
   * whatever is left (a pull already served is paid for by the next ones waiting).
   */
  pull(c: Context, user: AuthUser | null): Promise<(documents: number) => Promise<void>>;
  /** Opens a live stream for the caller: its release, or throws the 429. */
  stream(c: Context, user: AuthUser | null): Promise<() => void>;
}

type Message = (seconds: number) => string;

/**
 * What to count and what to answer; the counts themselves live in `backend` (in memory for one
 * process, in PostgreSQL when several share the load: limit-backend.ts).
 */
export function createRateLimits(
  config: RateLimitConfig = DEFAULT_RATE_LIMITS,
  backend: LimitBackend = createMemoryLimitBackend(),
): RateLimits {
  const noop = () => {};

  /** Takes from every bucket or from none: a refused request costs nothing. */
  async function takeAll(c: Context, takes: Array<BucketTake & { message: Message }>) {
    const result = await backend.take(takes);
    if (!result.ok) {
      metrics.rateLimited.inc({ bucket: takes[result.refused]!.bucket });
      throw rateLimited(c, result.waitMs, takes[result.refused]!.message);
    }
  }

  return {
    config,
    async writes(c, user, rows) {
      if (!config.enabled || rows <= 0) return;
      const ip = clientIp(c, config.trustProxy);
      await takeAll(c, [
        ...(user ? [{ bucket: 'userWrites', key: user.uid, rate: config.userWrites, cost: rows, message: RATE_LIMIT_MSG.writes }] : []),
        { bucket: 'ipWrites', key: ip, rate: config.ipWrites, cost: rows, message: RATE_LIMIT_MSG.ipWrites },
      ]);
    },
    async read(c, user, message = RATE_LIMIT_MSG.reads) {
      if (!config.enabled) return;
      const ip = clientIp(c, config.trustProxy);
      await takeAll(c, [
        { bucket: 'userReads', key: user ? `user:${user.uid}` : `ip:${ip}`, rate: config.userReads, cost: 1, message },
        { bucket: 'ipReads', key: ip, rate: config.ipReads, cost: 1, message },
      ]);
    },
    async pull(c, user) {
      if (!config.enabled) return async () => {};
      const ip = clientIp(c, config.trustProxy);
      const buckets = [
        { bucket: 'userPulls', key: user ? `user:${user.uid}` : `ip:${ip}`, rate: config.userPulls },
        { bucket: 'ipPulls', key: ip, rate: config.ipPulls },
      ];
      await takeAll(
        c,
        buckets.map((b) => ({ ...b, cost: 1, message: RATE_LIMIT_MSG.pulls })),
      );
      return async (documents) => {
        if (documents > 0) await backend.take(buckets.map((b) => ({ ...b, cost: documents, force: true })));
      };
    },
    async stream(c, user) {
      if (!config.enabled) return noop;
      const ip = clientIp(c, config.trustProxy);
      const opens = [
        ...(user ? [{ counter: 'userStreams', key: user.uid, max: config.userStreams, message: RATE_LIMIT_MSG.streams }] : []),
        { counter: 'ipStreams', key: ip, max: config.ipStreams, message: RATE_LIMIT_MSG.ipStreams },
      ];
      const result = await backend.open(opens);
      if (!result.ok) {
        metrics.rateLimited.inc({ bucket: opens[result.refused]!.counter });
        const message = opens[result.refused]!.message;
        throw rateLimited(c, STREAM_RETRY_SECONDS * 1000, () => message);
      }
      return result.release;
    },
  };
}

/** No limits at all (route factories built without the app's limits, e.g. in a test). */
export const NO_RATE_LIMITS: RateLimits = createRateLimits({ ...DEFAULT_RATE_LIMITS, enabled: false });
