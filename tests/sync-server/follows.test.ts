// Following topics against the real server and emulator tokens, on both engines:
// following what one creates or replies to (unless turned off, and never again after an explicit
// unfollow), REST and sync push through one domain operation, the followers' notifications for new
// root responses only (not the author, not twice for one response, not from someone they blocked, at
// most FOLLOW_NOTIFY_PER_HOUR per topic and hour), a fan-out to many followers in one request, and
// the push of a followed-topic notification honouring its own setting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOLLOW_NOTIFY_PER_HOUR } from '../../shared/constants.js';
import { MSG } from '../../shared/messages.js';
import { DEFAULT_PUSH_SETTINGS, type PushPayload, type PushSettings } from '../../shared/push.js';
import {
  SYNC_PROTOCOL_VERSION,
  type FollowDoc,
  type NotificationDoc,
  type ProfileDoc,
  type PullResponse,
  type PushResponse,
} from '../../shared/sync-protocol.js';
import type { FollowedTopic } from '../../shared/types.js';
import { startPushSender } from '../../sync-server/src/push/sender.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { makeResponse, makeTopic } from '../fixtures/builders.js';
import { startPushReceiver, type PushReceiver } from '../fixtures/push-receiver.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

const SYNC = { headers: { 'x-crux-sync': String(SYNC_PROTOCOL_VERSION) } };
const unique = () => Math.random().toString(36).slice(2, 8);

describe('following topics', () => {
  let server: TestServer;
  let receiver: PushReceiver;
  let ada: TestUser;
  let bob: TestUser;
  let cy: TestUser;
  const as = (user?: TestUser) => apiClient(server.url, user?.token);
  const followed = async (user: TestUser) => (await as(user).get<FollowedTopic[]>('/follows')).body.map((f) => f.topic_id);
  const pull = async (user: TestUser) =>
    (await as(user).get<PullResponse<FollowDoc>>('/sync/follows/pull?limit=1000', SYNC)).body.documents;
  const notificationsOf = async (user: TestUser) =>
    (await as(user).get<PullResponse<NotificationDoc>>('/sync/notifications/pull?limit=1000', SYNC)).body.documents.filter(
      (n): n is NotificationDoc => !n._deleted,
    );
  const aboutResponse = async (user: TestUser, responseId: string) =>
    (await notificationsOf(user)).filter((n) => n.response_id === responseId);
  const setSettings = async (user: TestUser, settings: PushSettings) => {
    const current = (await as(user).get<PullResponse<ProfileDoc>>('/sync/profile/pull?limit=10', SYNC)).body.documents[0]!;
    const res = await as(user).post<PushResponse<ProfileDoc>>(
      '/sync/profile/push',
      [{ assumedMasterState: current, newDocumentState: { ...current, push_settings: settings } }],
      SYNC,
    );
    expect(res.body.rejected).toEqual([]);
  };

  beforeAll(async () => {
    server = await startTestServer();
    receiver = await startPushReceiver(server.vapid.publicKey);
    [ada, bob, cy] = await Promise.all([createTestUser('Ada'), createTestUser('Bob'), createTestUser('Cy')]);
    for (const user of [ada, bob, cy]) expect((await as(user).get('/follows')).status).toBe(200);
  });
  afterAll(async () => {
    await receiver.close();
    await server.stop();
  });

  it('follows what you create or reply to; an unfollow is kept; the setting turns it off; private to you', async () => {
    expect((await as().get('/follows')).status).toBe(401);
    expect((await as().get<{ error: string }>('/follows')).body.error).toBe(MSG.loginToFollow);

    const mine = await makeTopic(as(ada), { title: `Ada's own topic ${unique()}` });
    const theirs = await makeTopic(as(bob), { title: `Bob's topic ${unique()}` });
    expect(await followed(ada)).toContain(mine.id);
    expect(await followed(ada)).not.toContain(theirs.id);
    await makeResponse(as(ada), { topic_id: theirs.id, content: 'Ada joins in' });
    expect((await followed(ada)).slice(0, 2)).toEqual([theirs.id, mine.id]);

    // Unfollow: kept, so replying again does not follow behind Ada's back.
    expect((await as(ada).del(`/follows/${theirs.id}`)).status).toBe(204);
    await makeResponse(as(ada), { topic_id: theirs.id, content: 'Ada again, still unfollowed' });
    expect(await followed(ada)).not.toContain(theirs.id);
    expect((await pull(ada)).find((d) => d.id === theirs.id)).toMatchObject({ following: false, title: theirs.title });

    // Following by hand, again, and a topic that does not exist.
    const put = await as(ada).put<FollowedTopic>(`/follows/${theirs.id}`);
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ topic_id: theirs.id, title: theirs.title, following: true });
    expect((await as(ada).put(`/follows/${theirs.id}`)).status).toBe(200);
    expect((await as(ada).put('/follows/no-such-topic')).status).toBe(404);
    expect((await as(ada).del('/follows/no-such-topic')).status).toBe(204);

    // Turned off: creating and replying follow nothing.
    await setSettings(cy, { ...DEFAULT_PUSH_SETTINGS, follow_on_reply: false });
    const cyTopic = await makeTopic(as(cy), { title: `Cy does not follow ${unique()}` });
    await makeResponse(as(cy), { topic_id: theirs.id, content: 'Cy passes by' });
    expect(await followed(cy)).toEqual([]);
    await setSettings(cy, DEFAULT_PUSH_SETTINGS);

    // Private: nobody else pulls or lists Ada's follows.
    expect((await pull(bob)).map((d) => d.id)).not.toContain(mine.id);
    expect(await followed(bob)).not.toContain(cyTopic.id);
  });

  it('a follow travels by sync push too, once, and a follow cannot be deleted', async () => {
    const topic = await makeTopic(as(bob), { title: `Followed by push ${unique()}` });
    const doc: FollowDoc = {
      id: topic.id,
      topic_id: topic.id,
      title: null,
      following: true,
      updated_at: new Date().toISOString(),
      seq: 0,
      _deleted: false,
    };
    const pushed = await as(cy).post<PushResponse<FollowDoc>>(
      '/sync/follows/push',
      [{ assumedMasterState: null, newDocumentState: doc }],
      SYNC,
    );
    expect(pushed.status).toBe(200);
    expect(pushed.body.rejected).toEqual([]);
    expect(await followed(cy)).toContain(topic.id);
    // The same push again (a retry whose answer was lost) is a conflict with what landed, not a second follow.
    const again = await as(cy).post<PushResponse<FollowDoc>>(
      '/sync/follows/push',
      [{ assumedMasterState: null, newDocumentState: doc }],
      SYNC,
    );
    expect(again.body.rejected).toEqual([]);
    const landed = (await pull(cy)).filter((d) => d.id === topic.id);
    expect(landed).toEqual([expect.objectContaining({ following: true, title: topic.title })]);
    expect(again.body.conflicts).toEqual(landed);
    const deleted = await as(cy).post<PushResponse<FollowDoc>>(
      '/sync/follows/push',
      [{ assumedMasterState: landed[0]!, newDocumentState: { ...landed[0]!, _deleted: true } }],
      SYNC,
    );
    // Not applied: answered with the server's copy (a conflict) or refused, and the follow stays.
    expect([...deleted.body.conflicts, ...deleted.body.rejected].map((d) => d.id)).toEqual([topic.id]);
    expect(await followed(cy)).toContain(topic.id);
    // Unfollowing by push is following: false.
    const unfollow = await as(cy).post<PushResponse<FollowDoc>>(
      '/sync/follows/push',
      [{ assumedMasterState: landed[0]!, newDocumentState: { ...landed[0]!, following: false } }],
      SYNC,
    );
    expect(unfollow.body.rejected).toEqual([]);
    expect(await followed(cy)).not.toContain(topic.id);
  });

  it('followers hear of new root responses: not the author, not twice, not from someone they blocked, not of nested replies, within the hourly limit', async () => {
    const topic = await makeTopic(as(ada), { title: `A followed debate ${unique()}` });
    expect((await as(cy).put(`/follows/${topic.id}`)).status).toBe(200);

    const root = await makeResponse(as(bob), { topic_id: topic.id, content: 'A new root argument' });
    expect((await aboutResponse(cy, root.id)).map((n) => [n.type, n.target_summary, n.actor_display_name])).toEqual([
      ['reply_in_followed_topic', topic.title, 'Bob'],
    ]);
    // Ada follows her own topic and already heard of it as its author: one notification, not two.
    expect((await aboutResponse(ada, root.id)).map((n) => n.type)).toEqual(['reply_to_topic']);
    // Bob follows now (he replied), but never hears of his own response.
    expect(await aboutResponse(bob, root.id)).toEqual([]);

    // A nested reply tells whom it answers (Bob), not the followers.
    const nested = await makeResponse(as(ada), { topic_id: topic.id, parent_response_id: root.id, content: 'Ada answers Bob' });
    expect(await aboutResponse(cy, nested.id)).toEqual([]);
    expect((await aboutResponse(bob, nested.id)).map((n) => n.type)).toEqual(['reply_to_comment']);

    // Someone Cy blocked does not reach Cy this way either.
    const eve = await createTestUser('Eve');
    expect((await as(eve).get('/follows')).status).toBe(200); // the server knows Eve once she has called it
    expect((await as(cy).put(`/blocks/${eve.uid}`)).status).toBe(200);
    const fromEve = await makeResponse(as(eve), { topic_id: topic.id, content: 'Eve, blocked by Cy' });
    expect(await aboutResponse(cy, fromEve.id)).toEqual([]);
    expect((await aboutResponse(ada, fromEve.id)).map((n) => n.type)).toEqual(['reply_to_topic']);

    // At most FOLLOW_NOTIFY_PER_HOUR per topic and hour for one follower: the responses still land.
    for (let i = 0; i < FOLLOW_NOTIFY_PER_HOUR + 2; i++) await makeResponse(as(bob), { topic_id: topic.id, content: `Bob's point ${i}` });
    const inTopic = (await notificationsOf(cy)).filter((n) => n.target_id === topic.id && n.type === 'reply_in_followed_topic');
    expect(inTopic).toHaveLength(FOLLOW_NOTIFY_PER_HOUR);
    // A topic Cy does not follow tells Cy nothing.
    const other = await makeTopic(as(ada), { title: `Not followed ${unique()}` });
    const elsewhere = await makeResponse(as(bob), { topic_id: other.id, content: 'Elsewhere' });
    expect(await aboutResponse(cy, elsewhere.id)).toEqual([]);
  });

  it('one root response reaches many followers in its one request, and pushes to their devices with the follows kind', async () => {
    const topic = await makeTopic(as(ada), { title: `A crowded debate ${unique()}` });
    const crowd = await Promise.all(Array.from({ length: 30 }, (_, i) => createTestUser(`Follower ${i}`)));
    for (const user of crowd) expect((await as(user).put(`/follows/${topic.id}`)).status).toBe(200);
    const [first, second] = crowd as [TestUser, TestUser];
    const deviceName = `follower-${unique()}`;
    const device = receiver.device(deviceName).subscription;
    expect((await as(first).put('/push/subscription', device)).status).toBe(201);
    const quiet = receiver.device(`quiet-${unique()}`).subscription;
    expect((await as(second).put('/push/subscription', quiet)).status).toBe(201);
    await setSettings(second, { ...DEFAULT_PUSH_SETTINGS, follows: false });

    const sender = startPushSender({
      store: server.store,
      changes: server.ctx.changes,
      vapid: server.vapid,
      allowLoopback: true,
      log: () => {},
    });
    try {
      const root = await makeResponse(as(bob), { topic_id: topic.id, content: 'Everyone should hear this' });
      for (const user of crowd) expect((await aboutResponse(user, root.id)).map((n) => n.type)).toEqual(['reply_in_followed_topic']);
      const end = Date.now() + 10_000;
      while ((await server.store.push.depth()) > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
      await sender.idle();
      const mine = receiver.received.filter((p) => (p.payload as PushPayload).response_id === root.id);
      expect(mine.map((p) => [p.device, (p.payload as PushPayload).type, (p.payload as PushPayload).text])).toEqual([
        [deviceName, 'reply_in_followed_topic', `replied in a topic you follow: "${topic.title}"`],
      ]);
    } finally {
      await sender.stop();
    }
  });
});
