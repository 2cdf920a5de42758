// Deleting one's own account (DELETE /api/me), on either engine (the server-pg lane runs this file
// on PostgreSQL): each choice for the content, everything private gone, the points the votes gave
// taken back, the Δ credits given recounted, the push device, quiet hours and mail records gone,
// others' quotes keeping their place without the text, the pull carrying the change, a suspended
// account allowed (its suspension reason gone), a bad body refused, and the sign-in account gone
// from the emulator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUSPENDED_FOR_GOOD } from '../../shared/constants.js';
import { MSG } from '../../shared/messages.js';
import { DEFAULT_PUSH_SETTINGS } from '../../shared/push.js';
import type { PullResponse, ResponseDoc } from '../../shared/sync-protocol.js';
import { PROJECT_ID } from '../../scripts/auth-emulator.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, emulatorHost, type TestUser } from '../fixtures/auth.js';
import { makeResponse, makeTopic, uniqueId } from '../fixtures/builders.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

/** Whether the emulator still knows the account (as firebase-admin's getUser would ask). */
async function firebaseKnows(uid: string): Promise<boolean> {
  const res = await fetch(`http://${emulatorHost()}/identitytoolkit.googleapis.com/v1/projects/${PROJECT_ID}/accounts:lookup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
    body: JSON.stringify({ localId: [uid] }),
  });
  const body = (await res.json()) as { users?: unknown[] };
  return (body.users ?? []).length > 0;
}

describe('deleting my account', () => {
  let server: TestServer;
  const as = (user?: TestUser) => apiClient(server.url, user?.token);
  const count = async (sql: string, ...params: unknown[]) => (await server.db.row<{ n: number }>(sql, ...params))!.n;
  const pull = async (topicId: string) =>
    (await as().get<PullResponse<ResponseDoc>>(`/sync/responses/pull?topic_id=${topicId}&id=&seq=0&limit=1000`)).body.documents;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  /**
   * What the server keeps of a person outside their content: a push device, quiet hours in their time
   * zone, and the weekly mail's records (a send to their address, their points then, their side's
   * common ground), as a mail run and a subscribed browser leave them.
   */
  async function seedDeviceAndMail(uid: string, topicId: string) {
    await server.db.run(
      'INSERT INTO push_subscriptions (endpoint, uid, p256dh, auth, created_at) VALUES (?, ?, ?, ?, ?)',
      `https://fcm.googleapis.com/fcm/send/${uniqueId()}`,
      uid,
      'key',
      'auth',
      '2026-01-01T00:00:00.000Z',
    );
    const quiet = { start: '22:00', end: '07:00', time_zone: 'Europe/Lisbon' };
    await server.db.run(
      'UPDATE users SET push_settings = ? WHERE uid = ?',
      JSON.stringify({ ...DEFAULT_PUSH_SETTINGS, quiet_hours: quiet }),
      uid,
    );
    const runId = `run-${uniqueId()}`;
    await server.db.run(
      "INSERT INTO mail_runs (id, kind, period_start, period_end, status, created_at) VALUES (?, 'manual', ?, ?, 'done', ?)",
      runId,
      '2026-01-01T00:00:00.000Z',
      '2026-01-08T00:00:00.000Z',
      '2026-01-08T00:00:00.000Z',
    );
    await server.db.run(
      "INSERT INTO mail_sends (run_id, uid, email, status, attempts, at) VALUES (?, ?, ?, 'sent', 1, ?)",
      runId,
      uid,
      `${uid}@example.com`,
      '2026-01-08T00:00:00.000Z',
    );
    await server.db.run('INSERT INTO mail_points (run_id, uid, points, rank) VALUES (?, ?, 3, 7)', runId, uid);
    await server.db.run('INSERT INTO mail_common_ground (run_id, uid, topic_id, common) VALUES (?, ?, ?, 2)', runId, uid, topicId);
    expect(await count('SELECT count(*) AS n FROM push_subscriptions WHERE uid = ?', uid)).toBe(1);
  }

  /** Ann writes a topic and a response, votes for Bob's response, takes a stance, follows, blocks, reports; Bob quotes Ann. */
  async function annWithEverything(secret: string) {
    const [ann, bob] = await Promise.all([createTestUser(`Ann ${uniqueId()}`), createTestUser(`Bob ${uniqueId()}`)]);
    const annTopic = await makeTopic(as(ann), { title: `Ann asks ${secret}` });
    const bobTopic = await makeTopic(as(bob), { title: `Bob asks ${uniqueId()}` });
    const annResponse = await makeResponse(as(ann), { topic_id: bobTopic.id, content: `Ann says ${secret}` });
    const bobResponse = await makeResponse(as(bob), { topic_id: bobTopic.id, content: 'Bob answers', quoted_response_id: annResponse.id });
    const bobReply = await makeResponse(as(bob), { topic_id: annTopic.id, content: 'Bob under Ann' });
    expect((await as(ann).post('/upvotes', { target_type: 'response', target_id: bobResponse.id })).status).toBe(201);
    expect((await as(ann).put(`/topics/${bobTopic.id}/stance`, { stance: 'agree' })).status).toBe(200);
    // A disagree, counted on Ann's side (she took her stance first).
    const bobSecond = await makeResponse(as(bob), { topic_id: bobTopic.id, content: 'Bob again' });
    expect((await as(ann).post('/downvotes', { target_type: 'response', target_id: bobSecond.id })).status).toBeLessThan(300);
    expect(await count('SELECT downvotes_agree AS n FROM responses WHERE id = ?', bobSecond.id)).toBe(1);
    expect((await as(ann).put(`/blocks/${bob.uid}`)).status).toBeLessThan(300);
    expect((await as(ann).post('/reports', { target_type: 'response', target_id: bobReply.id, reason: 'spam' })).status).toBeLessThan(300);
    expect((await as(ann).post('/users/preferences', { receive_weekly_summary: true })).status).toBe(200);
    expect((await as(bob).get(`/users/${bob.uid}/score`)).body.points).toBe(1);
    // Ann changes her mind and credits Bob's response with it: a Δ on his response.
    expect((await as(ann).put(`/topics/${bobTopic.id}/stance`, { stance: 'disagree', credits: [bobResponse.id] })).status).toBe(200);
    expect(await count('SELECT delta_count AS n FROM responses WHERE id = ?', bobResponse.id)).toBe(1);
    await seedDeviceAndMail(ann.uid, bobTopic.id);
    return { ann, bob, annTopic, bobTopic, annResponse, bobResponse, bobReply, bobSecond };
  }

  async function expectPrivateRowsGone(uid: string) {
    expect(await count('SELECT count(*) AS n FROM votes WHERE voter_uid = ?', uid)).toBe(0);
    expect(await count('SELECT count(*) AS n FROM stances WHERE uid = ?', uid)).toBe(0);
    expect(await count('SELECT count(*) AS n FROM blocks WHERE blocker_uid = ?', uid)).toBe(0);
    expect(await count('SELECT count(*) AS n FROM reports WHERE reporter_uid = ?', uid)).toBe(0);
    expect(await count('SELECT count(*) AS n FROM topic_follows WHERE uid = ?', uid)).toBe(0);
    expect(await count('SELECT count(*) AS n FROM notifications WHERE recipient_uid = ?', uid)).toBe(0);
    expect(await count('SELECT count(*) AS n FROM push_subscriptions WHERE uid = ?', uid)).toBe(0);
    expect(await count('SELECT count(*) AS n FROM deltas WHERE uid = ?', uid)).toBe(0);
    for (const table of ['mail_sends', 'mail_points', 'mail_common_ground']) {
      expect(await count(`SELECT count(*) AS n FROM ${table} WHERE uid = ?`, uid), table).toBe(0);
    }
    const user = await server.db.row<Record<string, unknown>>('SELECT * FROM users WHERE uid = ?', uid);
    expect(user).toMatchObject({
      display_name: MSG.deletedUser,
      email: null,
      points: 0,
      persuasion_points: 0,
      receive_weekly_summary: 0,
      weekly_summary_since: null,
      suspended_until: null,
      suspension_reason: null,
    });
    // The quiet hours (and the time zone they name) went with the rest: the defaults again.
    expect(JSON.parse(user!.push_settings as string)).toEqual(DEFAULT_PUSH_SETTINGS);
    expect(user!.deleted_at).not.toBeNull();
    expect(await firebaseKnows(uid)).toBe(false);
  }

  it('"delete" erases the texts in place, takes back the votes and removes the sign-in account', async () => {
    const secret = `secret-${uniqueId()}`;
    const { ann, bob, annTopic, bobTopic, annResponse, bobResponse, bobReply, bobSecond } = await annWithEverything(secret);
    expect(await firebaseKnows(ann.uid)).toBe(true);
    // An earlier version of Ann's response, as an edit after the grace period keeps it.
    await server.db.run(
      'INSERT INTO response_versions (response_id, version, content, created_at) VALUES (?, ?, ?, ?)',
      annResponse.id,
      1,
      `Ann first said ${secret}`,
      '2026-01-01T00:00:00.000Z',
    );

    const res = await as(ann).del('/me', { content: 'delete' });
    expect(res.status).toBe(204);

    await expectPrivateRowsGone(ann.uid);
    // Bob's point from Ann's vote is taken back, and the response's score with it.
    expect((await as(bob).get(`/users/${bob.uid}/score`)).body.points).toBe(0);
    expect((await as().get(`/responses/${bobResponse.id}`)).body.score).toBe(0);
    // Her Δ no longer shows on Bob's response, over the pull too.
    expect(await count('SELECT delta_count AS n FROM responses WHERE id = ?', bobResponse.id)).toBe(0);
    expect((await pull(bobTopic.id)).find((doc) => doc.id === bobResponse.id)?.delta_count).toBe(0);
    // Her disagree no longer counts against Bob's other response.
    expect(await count('SELECT downvotes_agree AS n FROM responses WHERE id = ?', bobSecond.id)).toBe(0);
    // Ann's stance no longer counts.
    expect((await as().get(`/topics/${bobTopic.id}`)).body.stance_agree ?? 0).toBe(0);
    // No word of Ann's is left anywhere in the database; the places stay.
    const dump = JSON.stringify(await server.db.rows('SELECT title AS t FROM topics UNION ALL SELECT content FROM responses'));
    expect(dump).not.toContain(secret);
    expect(await count('SELECT count(*) AS n FROM moderated_originals WHERE text LIKE ?', `%${secret}%`)).toBe(0);
    expect(await count('SELECT count(*) AS n FROM response_versions WHERE content LIKE ?', `%${secret}%`)).toBe(0);
    // Nor in search (the full-text index follows the rows).
    expect((await as().get(`/topics?search=${secret}`)).body).toEqual([]);
    // Over the pull (what other devices get): Ann's response blanked, Bob's quote of it still points at it.
    const docs = await pull(bobTopic.id);
    expect(docs.find((doc) => doc.id === annResponse.id)).toMatchObject({ content: MSG.deletedWithAccount, username: MSG.deletedUser });
    expect(docs.find((doc) => doc.id === bobResponse.id)).toMatchObject({ quoted_response_id: annResponse.id, content: 'Bob answers' });
    // Ann's topic keeps its place and Bob's reply under it; its title is gone.
    expect((await as().get(`/topics/${annTopic.id}`)).body.title).toBe(MSG.deletedWithAccount);
    expect((await pull(annTopic.id)).find((doc) => doc.id === bobReply.id)).toMatchObject({ content: 'Bob under Ann' });
    // The old token is refused from now on (the verifier asks Firebase).
    expect((await as(ann).get('/users/preferences')).status).toBe(401);
  });

  it('"anonymise" keeps the texts under "deleted user"', async () => {
    const secret = `kept-${uniqueId()}`;
    const { ann, bob, bobTopic, annResponse, bobResponse } = await annWithEverything(secret);
    expect((await as(ann).del('/me', { content: 'anonymise' })).status).toBe(204);
    await expectPrivateRowsGone(ann.uid);
    expect((await as(bob).get(`/users/${bob.uid}/score`)).body.points).toBe(0);
    expect(await count('SELECT delta_count AS n FROM responses WHERE id = ?', bobResponse.id)).toBe(0);
    const doc = (await pull(bobTopic.id)).find((item) => item.id === annResponse.id);
    expect(doc).toMatchObject({ content: `Ann says ${secret}`, username: MSG.deletedUser });
    expect((await as().get(`/users/${ann.uid}`)).body).toMatchObject({ display_name: MSG.deletedUser, points: 0 });
    // Nobody's vote brings the stub back onto the leaderboard.
    expect((await as(bob).post('/upvotes', { target_type: 'response', target_id: annResponse.id })).status).toBe(201);
    expect((await as().get('/users/leaderboard')).body.map((entry: { uid: string }) => entry.uid)).not.toContain(ann.uid);
  });

  it('works for a suspended account', async () => {
    const sam = await createTestUser(`Sam ${uniqueId()}`);
    const topic = await makeTopic(as(sam), { title: `Sam asks ${uniqueId()}` });
    await server.db.run(
      'UPDATE users SET suspended_until = ?, suspension_reason = ? WHERE uid = ?',
      SUSPENDED_FOR_GOOD,
      'Sam spammed',
      sam.uid,
    );
    expect((await as(sam).post('/topics', { title: 'Refused', categories: ['Other'] })).status).toBe(403);
    expect((await as(sam).del('/me', { content: 'delete' })).status).toBe(204);
    expect((await as().get(`/topics/${topic.id}`)).body.title).toBe(MSG.deletedWithAccount);
    expect(await firebaseKnows(sam.uid)).toBe(false);
    // The moderator's words about Sam leave with the account.
    expect(await server.db.row('SELECT suspended_until, suspension_reason FROM users WHERE uid = ?', sam.uid)).toEqual({
      suspended_until: null,
      suspension_reason: null,
    });
  });

  it('refuses a missing or unknown choice with a clear message, and a caller without a token', async () => {
    const kim = await createTestUser(`Kim ${uniqueId()}`);
    for (const body of [{}, { content: 'erase' }]) {
      const res = await as(kim).del('/me', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(MSG.deleteAccountContentChoice);
    }
    expect((await as(kim).del('/me', { content: 'delete', extra: 1 })).body).toMatchObject({ error: 'Unknown field: extra.' });
    expect((await as().del('/me', { content: 'delete' })).status).toBe(401);
    expect(await firebaseKnows(kim.uid)).toBe(true);
  });
});
