// @mentions, on both engines: a response naming a participant of its topic ("@" and
// their display name, spaces and any case allowed) notifies them once per response; never the
// author, nor someone who blocked the author, nor a non-participant; at most MAX_MENTIONS_NOTIFIED
// per response; the reply's recipient keeps their one notification; an edit tells only the people it
// newly names; the push goes out under the 'mentions' kind and not when that kind is off.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_MENTIONS_NOTIFIED, NOTIFICATION_SUMMARY_CHARS } from '../../shared/constants.js';
import { DEFAULT_PUSH_SETTINGS, type PushPayload } from '../../shared/push.js';
import {
  SYNC_PROTOCOL_VERSION,
  type ProfileDoc,
  type PullResponse,
  type PushResponse,
  type ResponseDoc,
} from '../../shared/sync-protocol.js';
import type { Notification } from '../../shared/types.js';
import { startPushSender, type PushSender } from '../../sync-server/src/push/sender.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { makeResponse, makeTopic, uniqueId } from '../fixtures/builders.js';
import { startPushReceiver, type PushReceiver } from '../fixtures/push-receiver.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

const until = async (check: () => boolean | Promise<boolean>, what: string, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

/** Users of these names, one per name (a tuple, so each is defined). */
const users = <N extends string[]>(...names: N) =>
  Promise.all(names.map((name) => createTestUser(name))) as Promise<{ [K in keyof N]: TestUser }>;

describe('@mentions', () => {
  let server: TestServer;
  const as = (user?: TestUser) => apiClient(server.url, user?.token);
  /**
   * Who has a notification about the response, and of which type, sorted by name. Participants follow
   * the topic, so a root response also tells the ones it names nobody of as followers:
   * those are left out unless `withFollowers` (tests/sync-server/follows.test.ts is about them).
   */
  const told = async (responseId: string, users: TestUser[], withFollowers = false) => {
    const rows = (await server.store.notifications.aboutResponse(responseId)).filter(
      (row) => withFollowers || row.type !== 'reply_in_followed_topic',
    );
    return rows.map((row) => `${users.find((u) => u.uid === row.recipient_uid)?.name ?? row.recipient_uid}: ${row.type}`).sort();
  };
  /** A topic by `creator` in which each of `others` has posted (so each is a participant). */
  const debate = async (creator: TestUser, others: TestUser[]) => {
    const topic = await makeTopic(as(creator), { title: `Mentions ${Math.random().toString(36).slice(2, 8)}` });
    const posts: string[] = [];
    for (const user of others) posts.push((await makeResponse(as(user), { topic_id: topic.id, content: `${user.name} takes part` })).id);
    return Object.assign(topic, { posts });
  };

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it('names a participant once per response, in any case and with spaces; not the author, not a non-participant', async () => {
    const [ada, bob, cleo, dan, eve] = await users('Ada Mention', 'Bob the Builder', 'Cleo Smith', 'Dan Writer', 'Eve Outsider');
    const topic = await debate(ada, [bob, cleo]);
    // Eve is known to the server but never takes part in this topic.
    await makeTopic(as(eve), { title: 'Elsewhere' });
    const response = await makeResponse(as(dan), {
      topic_id: topic.id,
      content: '@bob the builder and @Cleo Smith, see @Eve Outsider; @Dan Writer thinks so, and again @Bob the Builder.',
    });
    // Bob and Cleo follow the topic (they took part) but, named, hear of it once: as a mention.
    expect(await told(response.id, [ada, bob, cleo, dan, eve], true)).toEqual([
      'Ada Mention: reply_to_topic',
      'Bob the Builder: mention',
      'Cleo Smith: mention',
    ]);
    const inbox = (await as(bob).get<Notification[]>(`/notifications/user/${bob.uid}`)).body;
    expect(inbox).toContainEqual(
      expect.objectContaining({
        type: 'mention',
        actor_display_name: 'Dan Writer',
        target_id: topic.id,
        target_summary: response.content.slice(0, NOTIFICATION_SUMMARY_CHARS),
      }),
    );
    // A name that is only the start of a longer word names nobody.
    const partial = await makeResponse(as(dan), { topic_id: topic.id, content: 'cc @Cleo Smithson' });
    expect(await told(partial.id, [ada, cleo])).toEqual(['Ada Mention: reply_to_topic']);
  });

  it("the reply's recipient named in it gets one notification, as named; someone who blocked the author gets none", async () => {
    const [ada, bob, cleo] = await users('Ada Replied', 'Bob Replier', 'Cleo Blocker');
    const topic = await debate(ada, [cleo]);
    // The topic's creator named in a response to the topic: told they were named, once.
    const root = await makeResponse(as(bob), { topic_id: topic.id, content: 'Hello @Ada Replied' });
    expect(await told(root.id, [ada, bob, cleo])).toEqual(['Ada Replied: mention']);
    // The author of the answered response, named in the reply: the same.
    const named = await makeResponse(as(bob), { parent_response_id: topic.posts[0]!, content: 'Fair, @Cleo Blocker.' });
    expect(await told(named.id, [ada, bob, cleo])).toEqual(['Cleo Blocker: mention']);
    // Not named: "replied to your topic" as before.
    const plain = await makeResponse(as(bob), { topic_id: topic.id, content: 'A point without names.' });
    expect(await told(plain.id, [ada, bob, cleo])).toEqual(['Ada Replied: reply_to_topic']);
    const reply = await makeResponse(as(bob), {
      parent_response_id: topic.posts[0]!,
      content: '@Cleo Blocker and @Ada Replied: both of you',
    });
    expect(await told(reply.id, [ada, bob, cleo])).toEqual(['Ada Replied: mention', 'Cleo Blocker: mention']);

    expect((await as(ada).put(`/blocks/${bob.uid}`)).status).toBe(200);
    const blocked = await makeResponse(as(bob), { parent_response_id: topic.posts[0]!, content: 'Still there, @Ada Replied?' });
    expect(await told(blocked.id, [ada, bob, cleo])).toEqual(['Cleo Blocker: reply_to_comment']);
  });

  it(`at most ${MAX_MENTIONS_NOTIFIED} people are notified per response, the first named, edits included; an edit tells only the newly named`, async () => {
    const people = await Promise.all(Array.from({ length: 8 }, (_, i) => createTestUser(`Many ${String.fromCharCode(65 + i)}`)));
    const [author, ...named] = people as [TestUser, ...TestUser[]];
    const topic = await debate(author, named);
    const seven = named.map((u) => `@${u.name}`).join(' ');
    const response = await makeResponse(as(author), { topic_id: topic.id, content: `Hello ${seven}` });
    expect(await told(response.id, people)).toEqual(['Many B', 'Many C', 'Many D', 'Many E', 'Many F'].map((n) => `${n}: mention`));

    // The cap holds for the response, edits included: the last two are never told.
    const edit = (content: string) => as(author).put(`/responses/${response.id}`, { content });
    expect((await edit(`Hi ${seven}!`)).status).toBe(200);
    // (The last two took part, so they follow the topic: they hear of this root response as followers.)
    expect(await told(response.id, people)).toHaveLength(MAX_MENTIONS_NOTIFIED);

    // Below the cap, an edit tells the newly named only, and a second edit nobody again.
    const [first, second] = await users('Edit One', 'Edit Two');
    const small = await debate(author, [first, second]);
    const answer = await makeResponse(as(author), { topic_id: small.id, content: 'Thanks @Edit One' });
    expect(await told(answer.id, [first, second])).toEqual(['Edit One: mention']);
    expect((await as(author).put(`/responses/${answer.id}`, { content: 'Thanks @Edit One and @Edit Two' })).status).toBe(200);
    expect((await as(author).put(`/responses/${answer.id}`, { content: 'Thanks again @Edit One and @Edit Two' })).status).toBe(200);
    expect(await told(answer.id, [first, second])).toEqual(['Edit One: mention', 'Edit Two: mention']);
  });

  it('a response written offline and pushed through the sync names them too', async () => {
    const [ada, bob, cleo] = await users('Ada Synced', 'Bob Synced', 'Cleo Synced');
    const topic = await debate(ada, [cleo]);
    const doc: ResponseDoc = {
      id: uniqueId('r'),
      topic_id: topic.id,
      parent_response_id: null,
      quoted_response_id: null,
      type: 'for',
      content: 'Written on the train, @cleo synced',
      sources: [],
      creator_uid: '',
      username: null,
      created_at: '',
      updated_at: '',
      edited_at: null,
      versions: [],
      score: 0,
      comment_count: 0,
      delta_count: 0,
      upvotes_agree: 0,
      upvotes_disagree: 0,
      downvotes_agree: 0,
      downvotes_disagree: 0,
      moderation: null,
      moderation_reason: null,
      seq: 0,
      _deleted: false,
    };
    const SYNC = { headers: { 'x-crux-sync': String(SYNC_PROTOCOL_VERSION) } };
    const pushed = await as(bob).post<PushResponse<ResponseDoc>>('/sync/responses/push', [{ newDocumentState: doc }], SYNC);
    expect(pushed.status, pushed.text).toBe(200);
    expect(pushed.body.rejected ?? [], pushed.text).toEqual([]);
    expect(await told(doc.id, [ada, bob, cleo])).toEqual(['Ada Synced: reply_to_topic', 'Cleo Synced: mention']);
  });

  describe('push', () => {
    let receiver: PushReceiver;
    let sender: PushSender | undefined;
    beforeAll(async () => {
      receiver = await startPushReceiver(server.vapid.publicKey);
    });
    afterEach(async () => {
      await sender?.stop();
      expect(receiver.problems).toEqual([]);
    });
    afterAll(() => receiver.close());

    it("is pushed as the bell says it, under the 'mentions' kind; not when that kind is off", async () => {
      const [ada, bob] = await users('Ada Pushed', 'Bob Pusher');
      const topic = await debate(bob, [ada]);
      const { subscription } = receiver.device('ada-mentions');
      expect((await as(ada).put('/push/subscription', subscription)).status).toBe(201);
      sender = startPushSender({
        store: server.store,
        changes: server.ctx.changes,
        vapid: server.vapid,
        allowLoopback: true,
        retryBaseMs: 100,
        log: () => {},
      });
      const pushedFor = async (content: string) => {
        const response = await makeResponse(as(bob), { topic_id: topic.id, content });
        expect(await told(response.id, [ada, bob])).toEqual(['Ada Pushed: mention']);
        await until(async () => (await server.store.push.depth()) === 0, 'the queue emptied');
        await new Promise((resolve) => setTimeout(resolve, 100));
        return receiver.received.filter((p) => (p.payload as PushPayload).response_id === response.id).map((p) => p.payload as PushPayload);
      };
      const [payload] = await pushedFor('What do you think, @Ada Pushed?');
      expect(payload).toMatchObject({
        type: 'mention',
        topic_id: topic.id,
        actor: 'Bob Pusher',
        text: 'mentioned you: "What do you think, @Ada Pushed?"',
      });

      const SYNC = { headers: { 'x-crux-sync': String(SYNC_PROTOCOL_VERSION) } };
      const master = (await as(ada).get<PullResponse<ProfileDoc>>('/sync/profile/pull?limit=10', SYNC)).body.documents[0]!;
      const off = await as(ada).post<PushResponse<ProfileDoc>>(
        '/sync/profile/push',
        [{ assumedMasterState: master, newDocumentState: { ...master, push_settings: { ...DEFAULT_PUSH_SETTINGS, mentions: false } } }],
        SYNC,
      );
      expect(off.body.rejected, off.text).toEqual([]);
      expect(await pushedFor('And now, @Ada Pushed?')).toEqual([]);
      await as(ada).del('/push/subscription', { endpoint: subscription.endpoint });
    });
  });
});
