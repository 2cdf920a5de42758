// The pure parts of the weekly mail: MAIL_SCHEDULE parsing and slots, and the signed
// unsubscribe token (round trip, tampering, expiry), and the signing key kept under DATA_DIR.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatSchedule, parseSchedule, slotAfter, slotAtOrBefore } from '../../sync-server/src/mail/schedule.js';
import { loadSigningKey, SIGNING_KEY_FILE } from '../../sync-server/src/mail/signing-key.js';
import { signUnsubscribeToken, TOKEN_LIFETIME_MS, verifyUnsubscribeToken } from '../../sync-server/src/mail/token.js';

describe('MAIL_SCHEDULE', () => {
  it.each([
    ['MON 08:00', { weekday: 1, hour: 8, minute: 0 }],
    ['mon 8:00', { weekday: 1, hour: 8, minute: 0 }],
    ['Friday 17:30 UTC', { weekday: 5, hour: 17, minute: 30 }],
    ['SUN 00:00', { weekday: 0, hour: 0, minute: 0 }],
  ])('parses %s', (text, expected) => {
    expect(parseSchedule(text)).toEqual(expected);
  });

  it.each(['', 'MON', '08:00', 'XYZ 08:00', 'MON 24:00', 'MON 08:60', '0 8 * * 1'])('refuses %j with a clear message', (text) => {
    expect(() => parseSchedule(text)).toThrow(/MAIL_SCHEDULE must look like "MON 08:00"/);
  });

  it.each([
    // now, latest slot at or before, next slot after (MON 08:00 UTC; 2026-11-23 is a Monday)
    ['2026-11-23T08:00:00.000Z', '2026-11-23T08:00:00.000Z', '2026-11-30T08:00:00.000Z'],
    ['2026-11-23T07:59:59.999Z', '2026-11-16T08:00:00.000Z', '2026-11-23T08:00:00.000Z'],
    ['2026-11-25T12:00:00.000Z', '2026-11-23T08:00:00.000Z', '2026-11-30T08:00:00.000Z'],
    ['2026-11-22T23:00:00.000Z', '2026-11-16T08:00:00.000Z', '2026-11-23T08:00:00.000Z'],
    ['2026-12-31T10:00:00.000Z', '2026-12-28T08:00:00.000Z', '2027-01-04T08:00:00.000Z'],
  ])('at %s the slots are %s and %s', (now, before, after) => {
    const schedule = parseSchedule('MON 08:00');
    expect(slotAtOrBefore(schedule, new Date(now)).toISOString()).toBe(before);
    expect(slotAfter(schedule, new Date(now)).toISOString()).toBe(after);
  });

  it('formats for the log', () => {
    expect(formatSchedule(parseSchedule('tue 9:05'))).toBe('TUE 09:05 UTC');
  });
});

describe('unsubscribe token', () => {
  const key = Buffer.from('k'.repeat(64));
  const now = new Date('2026-11-23T08:00:00Z');

  it('round-trips the uid until it expires', () => {
    const token = signUnsubscribeToken(key, 'uid-ä/1', now);
    expect(verifyUnsubscribeToken(key, token, now)).toEqual({ ok: true, uid: 'uid-ä/1' });
    expect(verifyUnsubscribeToken(key, token, new Date(now.getTime() + TOKEN_LIFETIME_MS - 1000))).toEqual({ ok: true, uid: 'uid-ä/1' });
    expect(verifyUnsubscribeToken(key, token, new Date(now.getTime() + TOKEN_LIFETIME_MS))).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses another key and any change', () => {
    const token = signUnsubscribeToken(key, 'uid-1', now);
    expect(verifyUnsubscribeToken(Buffer.from('j'.repeat(64)), token, now)).toEqual({ ok: false, reason: 'invalid' });
    const [v, uid, expiry, mac] = token.split('.') as [string, string, string, string];
    for (const bad of [
      [v, Buffer.from('uid-2').toString('base64url'), expiry, mac],
      [v, uid, String(Number(expiry) + 1), mac],
      [v, uid, expiry, mac.slice(1)],
      ['u2', uid, expiry, mac],
      [v, uid, expiry],
    ]) {
      expect(verifyUnsubscribeToken(key, bad.join('.'), now)).toEqual({ ok: false, reason: 'invalid' });
    }
  });
});

describe('signing key', () => {
  it('is generated once under DATA_DIR with mode 600, or taken from MAIL_SIGNING_KEY', () => {
    const dir = mkdtempSync(join(tmpdir(), 'crux-key-'));
    try {
      const first = loadSigningKey({ configured: undefined, dataDir: dir });
      expect(first.length).toBeGreaterThanOrEqual(32);
      expect(statSync(join(dir, SIGNING_KEY_FILE)).mode & 0o777).toBe(0o600);
      expect(loadSigningKey({ configured: undefined, dataDir: dir }).equals(first)).toBe(true);
      const configured = 'c'.repeat(40);
      expect(loadSigningKey({ configured, dataDir: dir }).toString()).toBe(configured);
      expect(() => loadSigningKey({ configured: 'short', dataDir: dir })).toThrow(/at least 32/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
