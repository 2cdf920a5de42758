// The rate-limit module on its own (no server): token buckets on a fake clock, the
// open-stream counts, and the limits read from the environment.
import { describe, expect, it } from 'vitest';
import { addressKey, DEFAULT_RATE_LIMITS, OpenCounts, readRateLimits, TokenBuckets } from '../../sync-server/src/http/rate-limit.js';
import { retryAfterMs } from '../../app/src/data/http.js';

describe('TokenBuckets', () => {
  it('gives the burst at once, then refills at the rate, and says how long to wait', () => {
    let now = 0;
    const buckets = new TokenBuckets({ burst: 3, perMinute: 60 }, () => now);
    expect([buckets.take('a'), buckets.take('a'), buckets.take('a')]).toEqual([0, 0, 0]);
    expect(buckets.take('a')).toBe(1000);
    expect(buckets.take('b')).toBe(0); // keys are independent
    now = 1000;
    expect(buckets.take('a')).toBe(0);
    expect(buckets.take('a', 2)).toBe(2000);
  });

  it('counts a cost in rows and refuses it whole', () => {
    let now = 0;
    const buckets = new TokenBuckets({ burst: 10, perMinute: 60 }, () => now);
    expect(buckets.take('u', 7)).toBe(0);
    expect(buckets.take('u', 4)).toBe(1000);
    expect(buckets.remaining('u')).toBe(3);
    now = 60_000;
    expect(buckets.remaining('u')).toBe(10); // never above the burst
  });

  it('lets a cost above the burst through a full bucket once, leaving it in debt', () => {
    let now = 0;
    const buckets = new TokenBuckets({ burst: 5, perMinute: 60 }, () => now);
    expect(buckets.take('u', 8)).toBe(0);
    expect(buckets.take('u', 1)).toBe(4000);
    now = 4000;
    expect(buckets.take('u', 1)).toBe(0);
  });

  it('forgets full buckets and keeps at most maxKeys', () => {
    let now = 0;
    const buckets = new TokenBuckets({ burst: 2, perMinute: 60 }, () => now, 100);
    for (let i = 0; i < 500; i++) buckets.take(`k${i}`);
    expect(buckets.size).toBeLessThanOrEqual(100);
    now = 10_000;
    for (let i = 0; i < 1000; i++) buckets.take('same');
    expect(buckets.size).toBeLessThanOrEqual(2);
  });

  it('takes a forced cost whatever the level (a charge for what was served), leaving debt', () => {
    const now = 0;
    const buckets = new TokenBuckets({ burst: 5, perMinute: 60 }, () => now);
    expect(buckets.take('p', 4)).toBe(0);
    expect(buckets.take('p', 3)).toBe(2000); // refused: only 1 left
    expect(buckets.take('p', 3, true)).toBe(0); // forced: 1 - 3 = -2
    expect(buckets.remaining('p')).toBe(-2);
    expect(buckets.take('p')).toBe(3000);
  });
});

describe('addressKey (per-address limits)', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002::1', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:db8:1:2::', '2001:db8:1:2::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['[2001:db8:1:2::9]', '2001:db8:1:2::/64'],
    ['64:ff9b::192.0.2.33', '64:ff9b:0:0::/64'],
    ['unknown', 'unknown'],
  ])('%s is counted as %s', (address, key) => {
    expect(addressKey(address)).toBe(key);
  });

  it('puts every address of one /64 under one key, and neighbouring /64s under two', () => {
    const hosts = ['2001:db8:aa:bb::1', '2001:db8:aa:bb:1234:5678:9abc:def0', '2001:db8:aa:bb:ffff::'];
    expect(new Set(hosts.map(addressKey)).size).toBe(1);
    expect(addressKey('2001:db8:aa:bc::1')).not.toBe(addressKey(hosts[0]!));
  });
});

describe('OpenCounts', () => {
  it('allows max at once per key and frees a place on release (once)', () => {
    const open = new OpenCounts(2);
    const a = open.acquire('u')!;
    const b = open.acquire('u')!;
    expect(open.acquire('u')).toBeNull();
    expect(open.acquire('v')).not.toBeNull();
    a();
    a();
    expect(open.count('u')).toBe(1);
    expect(open.acquire('u')).not.toBeNull();
    b();
  });
});

describe('readRateLimits', () => {
  it('keeps the defaults when nothing is set', () => {
    expect(readRateLimits({})).toEqual(DEFAULT_RATE_LIMITS);
  });

  it('reads every variable, RATE_LIMITS=off and TRUST_PROXY', () => {
    const config = readRateLimits({
      RATE_LIMITS: 'off',
      RATE_LIMIT_USER_WRITES_BURST: '10',
      RATE_LIMIT_USER_WRITES_PER_MIN: '5',
      RATE_LIMIT_IP_WRITES_BURST: '20',
      RATE_LIMIT_IP_WRITES_PER_MIN: '6',
      RATE_LIMIT_USER_READS_BURST: '30',
      RATE_LIMIT_USER_READS_PER_MIN: '7',
      RATE_LIMIT_IP_READS_BURST: '40',
      RATE_LIMIT_IP_READS_PER_MIN: '8',
      RATE_LIMIT_USER_PULLS_BURST: '50',
      RATE_LIMIT_USER_PULLS_PER_MIN: '11',
      RATE_LIMIT_IP_PULLS_BURST: '60',
      RATE_LIMIT_IP_PULLS_PER_MIN: '12',
      RATE_LIMIT_USER_STREAMS: '3',
      RATE_LIMIT_IP_STREAMS: '9',
      TRUST_PROXY: 'true',
    });
    expect(config).toEqual({
      enabled: false,
      userWrites: { burst: 10, perMinute: 5 },
      ipWrites: { burst: 20, perMinute: 6 },
      userReads: { burst: 30, perMinute: 7 },
      ipReads: { burst: 40, perMinute: 8 },
      userPulls: { burst: 50, perMinute: 11 },
      ipPulls: { burst: 60, perMinute: 12 },
      userStreams: 3,
      ipStreams: 9,
      trustProxy: true,
    });
  });

  it('refuses a value that is not a positive number', () => {
    expect(() => readRateLimits({ RATE_LIMIT_USER_WRITES_BURST: 'lots' })).toThrow(/RATE_LIMIT_USER_WRITES_BURST/);
    expect(() => readRateLimits({ RATE_LIMIT_USER_STREAMS: '0' })).toThrow(/positive/);
  });
});

describe('retryAfterMs (the app reading Retry-After)', () => {
  it('reads seconds and HTTP dates, bounds them, and falls back when missing', () => {
    expect(retryAfterMs('12')).toBe(12_000);
    expect(retryAfterMs(new Date(61_000).toUTCString(), 1_000)).toBe(60_000);
    expect(retryAfterMs('999999')).toBe(600_000);
    expect(retryAfterMs('-5')).toBe(0);
    expect(retryAfterMs(null)).toBe(5_000);
    expect(retryAfterMs('soon')).toBe(5_000);
  });
});
