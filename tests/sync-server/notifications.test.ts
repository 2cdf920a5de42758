// /api/notifications: both reply types with their summaries, never for yourself,
// newest first, and marking read with the authorization matrix.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages.js';
import { NOTIFY_PER_PAIR } from '../../sync-server/src/domain/notify.js';
import type { NotificationDoc, PullResponse } from '../../shared/sync-protocol.js';
import type { Notification } from '../../shared/types.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { makeResponse, makeTopic } from '../fixtures/builders.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

describe('notifications', () => {
  let server: TestServer;
  let now = new Date('2026-04-01T00:00:00.000Z');
  const as = (user?: TestUser) => apiClient(server.url, user?.token);
  const inbox = async (user: TestUser) => {
    const res = await as(user).get<Notification[]>(`/notifications/user/${user.uid}`);
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    server = await startTestServer({ clock: () => (now = new Date(now.getTime() + 1_000)) });
  });
  afterAll(() => server.stop());

  it('reply_to_topic: another user answers your topic at root level', async () => {
    const [ada, bob] = await Promise.all([createTestUser('Ada'), createTestUser('Bob')]);
    const topic = await makeTopic(as(ada), { title: 'Should we colonise Mars?' });
    const answer = await makeResponse(as(bob), { topic_id: topic.id, content: 'Yes, eventually.' });
    expect(await inbox(ada)).toEqual([
      {
        id: expect.any(String),
        type: 'reply_to_topic',
        actor_display_name: 'Bob',
        target_summary: 'Should we colonise Mars?',
        target_id: topic.id,
        created_at: answer.created_at,
        is_read: false,
      },
    ]);
    expect(await inbox(bob)).toEqual([]);
  });

  it('reply_to_comment: another user replies to your response; the topic author is not told', async () => {
    const [ada, bob, carol] = await Promise.all([createTestUser('Ada'), createTestUser('Bob'), createTestUser('Carol')]);
    const topic = await makeTopic(as(ada), { title: 'Four-day week?' });
    const root = await makeResponse(as(bob), { topic_id: topic.id, content: '  Productivity stays the same.  ' });
    await makeResponse(as(carol), { parent_response_id: root.id, content: 'Not in every job.', type: 'against' });
    expect(await inbox(bob)).toEqual([
      expect.objectContaining({
        type: 'reply_to_comment',
        actor_display_name: 'Carol',
        target_summary: '  Productivity stays the same.  ',
        target_id: topic.id,
        is_read: false,
      }),
    ]);
    expect((await inbox(ada)).map((n) => n.type)).toEqual(['reply_to_topic']); // Bob's root answer only
    expect(await inbox(carol)).toEqual([]);
  });

  it('never notifies yourself: self-answers and self-replies make nothing', async () => {
    const [ada, bob] = await Promise.all([createTestUser('Ada'), createTestUser('Bob')]);
    const topic = await makeTopic(as(ada));
    const own = await makeResponse(as(ada), { topic_id: topic.id });
    await makeResponse(as(ada), { parent_response_id: own.id });
    const bobs = await makeResponse(as(bob), { topic_id: topic.id });
    await makeResponse(as(bob), { parent_response_id: bobs.id });
    expect((await inbox(ada)).map((n) => n.type)).toEqual(['reply_to_topic']);
    expect(await inbox(bob)).toEqual([]);
  });

  it('target_summary is the first 100 characters, emoji counted whole', async () => {
    const [ada, bob] = await Promise.all([createTestUser('Ada'), createTestUser('Bob')]);
    const title = `${'🎉'.repeat(90)}${'x'.repeat(20)}`;
    const topic = await makeTopic(as(ada), { title });
    const content = `${'é'.repeat(99)}😀 and then more text after the hundredth character`;
    const root = await makeResponse(as(ada), { topic_id: topic.id, content });
    await makeResponse(as(bob), { topic_id: topic.id });
    await makeResponse(as(bob), { parent_response_id: root.id });
    const summaries = (await inbox(ada)).map((n) => [n.type, n.target_summary]);
    expect(summaries).toEqual([
      ['reply_to_comment', `${'é'.repeat(99)}😀`],
      ['reply_to_topic', `${'🎉'.repeat(90)}${'x'.repeat(10)}`],
    ]);
  });

  it('lists newest first, and names an actor without a display name "Anonymous"', async () => {
    const [ada, bob, anonymous] = await Promise.all([createTestUser('Ada'), createTestUser('Bob'), createTestUser(null)]);
    const topic = await makeTopic(as(ada));
    await makeResponse(as(bob), { topic_id: topic.id });
    await makeResponse(as(anonymous), { topic_id: topic.id });
    await makeResponse(as(bob), { topic_id: topic.id });
    const list = await inbox(ada);
    expect(list.map((n) => n.actor_display_name)).toEqual(['Bob', 'Anonymous', 'Bob']);
    const times = list.map((n) => n.created_at);
    expect(times).toEqual([...times].sort().reverse());
  });

  it('the list pages with limit and offset', async () => {
    const [ada, bob] = await Promise.all([createTestUser('Ada'), createTestUser('Bob')]);
    const topic = await makeTopic(as(ada));
    for (let i = 0; i < 5; i++) await makeResponse(as(bob), { topic_id: topic.id });
    const all = await inbox(ada);
    expect(all).toHaveLength(5);
    const page = (await as(ada).get<Notification[]>(`/notifications/user/${ada.uid}?limit=2&offset=2`)).body;
    expect(page).toEqual(all.slice(2, 4));
    const bad = await as(ada).get(`/notifications/user/${ada.uid}?limit=abc`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('limit must be a whole number.');
  });

  it("sync carries the reply a notification is about, and says when that reply is deleted (the REST shape stays SPEC's)", async () => {
    const [ada, bob] = await Promise.all([createTestUser('Ada'), createTestUser('Bob')]);
    const topic = await makeTopic(as(ada), { title: 'Trains or planes?' });
    const root = await makeResponse(as(ada), { topic_id: topic.id, content: 'Trains, for the view.' });
    const answer = await makeResponse(as(bob), { topic_id: topic.id, content: 'Planes are faster.' });
    const reply = await makeResponse(as(bob), { parent_response_id: root.id, content: 'Night trains exist.' });
    const pull = async () => {
      const res = await as(ada).get<PullResponse<NotificationDoc>>('/sync/notifications/pull?limit=1000');
      expect(res.status, res.text).toBe(200);
      return res.body.documents;
    };
    const before = await pull();
    expect(before.map((n) => [n.response_id, n.response_deleted]).sort()).toEqual(
      [
        [answer.id, false],
        [reply.id, false],
      ].sort(),
    );
    const seqBefore = before.find((n) => n.response_id === root.id || n.response_id === reply.id)!.seq;

    // Ada deletes her own response: Bob's reply under it goes with the subtree.
    expect((await as(ada).del(`/responses/${root.id}`)).status).toBe(204);
    const after = await pull();
    const aboutReply = after.find((n) => n.response_id === reply.id)!;
    expect(aboutReply).toMatchObject({ response_deleted: true, _deleted: false, target_id: topic.id });
    expect(aboutReply.seq).toBeGreaterThan(seqBefore); // re-stamped, so devices pull the change
    expect(after.find((n) => n.response_id === answer.id)).toMatchObject({ response_deleted: false });
    // REST keeps the plain fields only.
    for (const n of await inbox(ada))
      expect(Object.keys(n).sort()).toEqual(['actor_display_name', 'created_at', 'id', 'is_read', 'target_id', 'target_summary', 'type']);
  });

  it('one person cannot flood another: past NOTIFY_PER_PAIR an hour, replies land without notifications', async () => {
    const [ada, bob, cy] = await Promise.all([createTestUser('Ada'), createTestUser('Bob'), createTestUser('Cy')]);
    const topic = await makeTopic(as(ada), { title: 'Flood me?' });
    for (let n = 0; n < NOTIFY_PER_PAIR + 5; n++) await makeResponse(as(bob), { topic_id: topic.id, content: `Reply ${n}` });
    await makeResponse(as(cy), { topic_id: topic.id, content: 'Someone else still gets through.' });
    const list = await as(ada).get<Notification[]>(`/notifications/user/${ada.uid}?limit=100`);
    expect(list.body.filter((n) => n.actor_display_name === 'Bob')).toHaveLength(NOTIFY_PER_PAIR);
    expect(list.body.filter((n) => n.actor_display_name === 'Cy')).toHaveLength(1);
    const replies = await as(ada).get<unknown[]>(`/responses?topic_id=${topic.id}`);
    expect(replies.body).toHaveLength(NOTIFY_PER_PAIR + 6);
  });

  describe('authorization', () => {
    let ada: TestUser;
    let bob: TestUser;
    let note: Notification;
    beforeAll(async () => {
      [ada, bob] = await Promise.all([createTestUser('Ada'), createTestUser('Bob')]);
      const topic = await makeTopic(as(ada));
      await makeResponse(as(bob), { topic_id: topic.id });
      note = (await inbox(ada))[0]!;
    });

    it('GET without a token → 401 "You need to be logged in to see notifications."', async () => {
      const res = await as().get(`/notifications/user/${ada.uid}`);
      expect(res.status).toBe(401);
      expect(res.body.error).toBe(MSG.loginToSeeNotifications);
    });

    it("GET another user's list → 403", async () => {
      const res = await as(bob).get(`/notifications/user/${ada.uid}`);
      expect(res.status).toBe(403);
      expect(res.body.error).toBe(MSG.notYourNotifications);
    });

    it('GET with an invalid token → 401', async () => {
      const res = await as().get(`/notifications/user/${ada.uid}`, { headers: { authorization: 'Bearer invalid' } });
      expect(res.status).toBe(401);
    });

    it('PUT read: no token → 401, another user → 403, unknown → 404, all leaving it unread', async () => {
      const anon = await as().put(`/notifications/${note.id}/read`);
      expect(anon.status).toBe(401);
      expect(anon.body.error).toBe(MSG.loginToSeeNotifications);
      const other = await as(bob).put(`/notifications/${note.id}/read`);
      expect(other.status).toBe(403);
      expect(other.body.error).toBe(MSG.notYourNotification);
      const unknown = await as(ada).put('/notifications/no-such-notification/read');
      expect(unknown.status).toBe(404);
      expect(unknown.body.error).toBe(MSG.notificationNotFound);
      expect((await inbox(ada)).find((n) => n.id === note.id)?.is_read).toBe(false);
    });
  });

  it.each([
    ['an empty body', undefined],
    ['an empty JSON object', {}],
    ['any JSON', { is_read: true }],
  ])('PUT read with %s marks it read (200) and is idempotent', async (_label, body) => {
    const [ada, bob] = await Promise.all([createTestUser('Ada'), createTestUser('Bob')]);
    const topic = await makeTopic(as(ada));
    await makeResponse(as(bob), { topic_id: topic.id });
    await makeResponse(as(bob), { topic_id: topic.id });
    const [first, second] = await inbox(ada);
    const res = await as(ada).put<Notification>(`/notifications/${first!.id}/read`, body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...first, is_read: true });
    const again = await as(ada).put(`/notifications/${first!.id}/read`, body);
    expect(again.status).toBe(200);
    expect(again.body.is_read).toBe(true);
    const after = await inbox(ada);
    expect(after.map((n) => [n.id, n.is_read])).toEqual([
      [first!.id, true],
      [second!.id, false],
    ]);
  });
});
