// The one-click unsubscribe (RFC 8058) over the real server. The signed token turns the
// preference off with no cookie and no Authorization header, re-stamps the profile so devices
// pull it, and tampered, expired or missing tokens get a clear 400/410 in the error shape.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUnsubscribeToken } from '../../sync-server/src/mail/token.js';
import { UNSUBSCRIBE_MSG } from '../../sync-server/src/routes/unsubscribe.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { startMailTestServer, type MailTestServer } from '../fixtures/mail.js';

const KEY = Buffer.from('unsubscribe-test-key-0123456789abcdef0123456789', 'utf8');
let server: MailTestServer;
let ada: TestUser;

beforeAll(async () => {
  [server, ada] = await Promise.all([startMailTestServer({ signingKey: KEY }), createTestUser('Ada Unsub')]);
}, 60_000);
afterAll(() => server?.stop());

const api = () => apiClient(server.url, () => ada.token);
const subscribe = async () => expect((await api().post('/users/preferences', { receive_weekly_summary: true })).status).toBe(200);
const preference = async () => (await api().get('/users/preferences')).body.receive_weekly_summary as boolean;

function oneClick(token: string, body = 'List-Unsubscribe=One-Click') {
  // Exactly what a mail client sends: no cookie, no Authorization header.
  return fetch(`${server.url}/api/unsubscribe?token=${encodeURIComponent(token)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
}

describe('GET /api/unsubscribe (the List-Unsubscribe URL opened in a browser)', () => {
  it('redirects to the /unsubscribe page with the token, and changes nothing itself', async () => {
    await subscribe();
    const token = signUnsubscribeToken(KEY, ada.uid, new Date());
    const res = await fetch(`${server.url}/api/unsubscribe?token=${encodeURIComponent(token)}`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!, server.url);
    expect(location.pathname).toBe('/unsubscribe');
    expect(location.searchParams.get('token')).toBe(token);
    // A GET is followed by link checkers and previews: only the page's POST turns the mail off.
    expect(await preference()).toBe(true);
  });

  it('without a token, redirects to the plain page', async () => {
    const res = await fetch(`${server.url}/api/unsubscribe`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/unsubscribe');
  });
});

describe('POST /api/unsubscribe', () => {
  it('RFC 8058 one-click POST with no session turns the preference off and re-stamps the profile', async () => {
    await subscribe();
    expect(await preference()).toBe(true);
    const seqBefore = (await server.store.users.get(ada.uid))!.seq;
    const res = await oneClick(signUnsubscribeToken(KEY, ada.uid, new Date()));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, receive_weekly_summary: false });
    expect(await preference()).toBe(false);
    const row = (await server.store.users.get(ada.uid))!;
    expect(row.seq).toBeGreaterThan(seqBefore);
    // A device that had pulled the profile before gets the change (sync/collections/profile.ts pulls changedSince).
    expect((await server.store.users.changedSince(ada.uid, seqBefore))?.receive_weekly_summary).toBe(0);
  });

  it('accepts the token in a form or JSON body too, and is idempotent', async () => {
    await subscribe();
    const token = signUnsubscribeToken(KEY, ada.uid, new Date());
    const form = await fetch(`${server.url}/api/unsubscribe`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `List-Unsubscribe=One-Click&token=${encodeURIComponent(token)}`,
    });
    expect(form.status).toBe(200);
    expect(await preference()).toBe(false);
    const json = await fetch(`${server.url}/api/unsubscribe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    expect(json.status).toBe(200);
    expect(await preference()).toBe(false);
  });

  it.each([
    ['a changed signature', (t: string) => t.slice(0, -2) + (t.endsWith('AA') ? 'BB' : 'AA')],
    [
      'another uid under the same signature',
      (t: string) => t.replace(/^u1\.[^.]+/, `u1.${Buffer.from('someone-else').toString('base64url')}`),
    ],
    ['a later expiry', (t: string) => t.replace(/\.(\d+)\./, (_m, e: string) => `.${Number(e) + 1000}.`)],
    ['garbage', () => 'not-a-token'],
    ['an empty token', () => ''],
  ])('rejects %s with 400 and leaves the preference alone', async (_name, tamper) => {
    await subscribe();
    const res = await oneClick(tamper(signUnsubscribeToken(KEY, ada.uid, new Date())));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: UNSUBSCRIBE_MSG.invalid, code: 'invalid-argument' });
    expect(await preference()).toBe(true);
  });

  it('rejects a token signed with another key, and one without any token', async () => {
    await subscribe();
    const other = await oneClick(signUnsubscribeToken(Buffer.from('x'.repeat(40)), ada.uid, new Date()));
    expect(other.status).toBe(400);
    const none = await fetch(`${server.url}/api/unsubscribe`, { method: 'POST' });
    expect(none.status).toBe(400);
    expect(((await none.json()) as { error: string }).error).toBe(UNSUBSCRIBE_MSG.invalid);
    expect(await preference()).toBe(true);
  });

  it('rejects an expired token with 410', async () => {
    await subscribe();
    const issued = new Date(Date.now() - 61 * 24 * 60 * 60 * 1000);
    const res = await oneClick(signUnsubscribeToken(KEY, ada.uid, issued));
    expect(res.status).toBe(410);
    expect(await res.json()).toEqual({ error: UNSUBSCRIBE_MSG.expired, code: 'link-expired' });
    expect(await preference()).toBe(true);
  });
});

describe('a link dies when its user subscribes again', () => {
  /** This server's clock runs this far ahead of the real one (time passing between the mails). */
  let ahead = 0;
  let later: MailTestServer;
  let bo: TestUser;
  const now = () => new Date(Date.now() + ahead);
  beforeAll(async () => {
    [later, bo] = await Promise.all([startMailTestServer({ signingKey: KEY, clock: now }), createTestUser('Bo Resubscriber')]);
  }, 60_000);
  afterAll(() => later?.stop());
  const bosApi = () => apiClient(later.url, () => bo.token);
  const setPreference = async (on: boolean) =>
    expect((await bosApi().post('/users/preferences', { receive_weekly_summary: on })).status).toBe(200);
  const click = (token: string) =>
    fetch(`${later.url}/api/unsubscribe?token=${encodeURIComponent(token)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });

  it('the old link answers as an invalid one after a resubscribe; a link mailed since works', async () => {
    await setPreference(true);
    const first = signUnsubscribeToken(KEY, bo.uid, now());
    expect((await click(first)).status).toBe(200);
    ahead += 5_000;
    await setPreference(true);
    const replayed = await click(first);
    expect(replayed.status).toBe(400);
    expect(await replayed.json()).toEqual({ error: UNSUBSCRIBE_MSG.invalid, code: 'invalid-argument' });
    expect((await bosApi().get('/users/preferences')).body.receive_weekly_summary).toBe(true);
    // Off and on again kills the link mailed between, as often as it happens.
    ahead += 5_000;
    const second = signUnsubscribeToken(KEY, bo.uid, now());
    expect((await click(second)).status).toBe(200);
    expect((await bosApi().get('/users/preferences')).body.receive_weekly_summary).toBe(false);
    ahead += 5_000;
    await setPreference(true);
    expect((await click(second)).status).toBe(400);
    // Saving the preference while it is on already is no resubscribe: a current link keeps working.
    ahead += 5_000;
    const third = signUnsubscribeToken(KEY, bo.uid, now());
    ahead += 5_000;
    await setPreference(true);
    expect((await click(third)).status).toBe(200);
  });
});
