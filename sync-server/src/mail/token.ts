// One-click unsubscribe tokens: "u1.<uid, base64url>.<expiry, unix seconds>.<HMAC-SHA256, base64url>".
// The MAC covers a purpose label, the uid and the expiry, so a token can neither be
// altered nor reused for anything else; it needs no session because the mail is the proof.
// A token is issued TOKEN_LIFETIME_MS before its expiry; one issued before the user last turned
// the summary on again (users.weekly_summary_since) is dead, so a link from an old mail cannot
// undo a later choice (issuedBefore).
import { createHmac, timingSafeEqual } from 'node:crypto';

const VERSION = 'u1';
const PURPOSE = 'crux-unsubscribe';
/** How long a mailed link works: well past the next few mails, as RFC 8058 expects. */
export const TOKEN_LIFETIME_MS = 60 * 24 * 60 * 60 * 1000;

export type TokenCheck = { ok: true; uid: string } | { ok: false; reason: 'invalid' | 'expired' };

const mac = (key: Buffer, uid: string, expiry: string) =>
  createHmac('sha256', key).update(`${PURPOSE}\n${VERSION}\n${uid}\n${expiry}`).digest();

export function signUnsubscribeToken(key: Buffer, uid: string, now: Date, lifetimeMs = TOKEN_LIFETIME_MS): string {
  const expiry = String(Math.floor((now.getTime() + lifetimeMs) / 1000));
  return [VERSION, Buffer.from(uid, 'utf8').toString('base64url'), expiry, mac(key, uid, expiry).toString('base64url')].join('.');
}

export function verifyUnsubscribeToken(key: Buffer, token: string, now: Date): TokenCheck {
  const parts = token.split('.');
  if (parts.length !== 4 || parts[0] !== VERSION || !/^\d{1,12}$/.test(parts[2]!)) return { ok: false, reason: 'invalid' };
  const [, encodedUid, expiry, signature] = parts as [string, string, string, string];
  const uid = Buffer.from(encodedUid, 'base64url').toString('utf8');
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(key, uid, expiry);
  // Re-encoding catches non-canonical base64url spellings of the same bytes.
  if (uid === '' || Buffer.from(uid, 'utf8').toString('base64url') !== encodedUid || given.toString('base64url') !== signature) {
    return { ok: false, reason: 'invalid' };
  }
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'invalid' };
  // Checked after the MAC, so "expired" is only ever said of a token we issued.
  if (Number(expiry) * 1000 <= now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, uid };
}

/**
 * Whether a token verifyUnsubscribeToken accepted was issued before `sinceIso` (the user's last
 * resubscribe). The expiry is kept in whole seconds, so a token issued within the second of the
 * resubscribe still counts as after it.
 */
export function issuedBefore(token: string, sinceIso: string | null): boolean {
  if (sinceIso === null) return false;
  const issuedSeconds = Number(token.split('.')[2]) - TOKEN_LIFETIME_MS / 1000;
  return issuedSeconds < Math.floor(Date.parse(sinceIso) / 1000);
}
