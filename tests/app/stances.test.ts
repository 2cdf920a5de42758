// Where I stand, Δ and common ground in the data layer, against the real server: a
// stance recorded and changed offline and a Δ credit land exactly once, the "before" is kept, the
// credit rules refuse on the device, the common-ground order follows both sides' upvotes, the
// response balance counts the local store, and old local documents migrate to the new schemas.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { createRxDatabase } from 'rxdb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { wrappedValidateZSchemaStorage } from 'rxdb/plugins/validate-z-schema';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { profileSchemaV0 } from '../../app/src/data/collections/profile.schema.v0.js';
import { responseSchemaV0 } from '../../app/src/data/collections/response.schema.v0.js';
import { topicSchemaV1 } from '../../app/src/data/collections/topic.schema.v1.js';
import { openUserDb, userDbName } from '../../app/src/data/db.js';
import type { Change } from '../../sync-server/src/domain/change-feed.js';
import { MSG } from '../../shared/messages.js';
import type { CommonGroundEntry, MyStance, TopicStances, UserProfile } from '../../shared/types.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { countRows, makeResponse, makeTopic, upvote } from '../fixtures/builders.js';
import { startClient, until, type TestClient } from '../fixtures/client.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

describe('stances, Δ and common ground in the data layer', () => {
  let server: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  const clients: TestClient[] = [];
  const client = async (...args: Parameters<typeof startClient>) => {
    const c = await startClient(...args);
    clients.push(c);
    return c;
  };
  const api = (user: TestUser) => apiClient(server.url, () => user.token);

  beforeAll(async () => {
    server = await startTestServer();
    [ada, bob, carol] = await Promise.all([createTestUser('Ada'), createTestUser('Bob'), createTestUser('Carol')]);
  });
  // RxDB opens at most 13 collections per process: a signed-in client holds 8.
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close().catch(() => {});
  });
  afterAll(() => server.stop());

  /** A topic by Bob with his responses, opened on the client (its responses on the device). */
  async function debate(c: TestClient, responses: number) {
    const topic = await makeTopic(api(bob), { title: 'Should cities ban cars?' });
    const made = [];
    for (let i = 0; i < responses; i++) made.push(await makeResponse(api(bob), { topic_id: topic.id, content: `Argument ${i}` }));
    await c.data.openTopic(topic.id);
    await until(c.data.topic$(topic.id), (t) => !!t);
    await until(c.data.topicResponses$(topic.id), (list) => list.length === responses);
    return { topic, responses: made };
  }

  it('a stance set and changed offline, with a Δ credit, lands exactly once; the first stance is kept', async () => {
    const a = await client(server.url, { user: ada });
    const { topic, responses } = await debate(a, 1);
    const moving = responses[0]!;
    const bobPointsBefore = (await api(bob).get<UserProfile>(`/users/${bob.uid}`)).body.points;

    a.goOffline();
    await until(a.data.status$, (s) => !s.online);
    const requestsWhileOffline = a.requests.length;
    await a.data.setStance(topic.id, 'agree');
    expect(await until(a.data.stance$(topic.id), (s) => s !== null)).toMatchObject({
      topic_id: topic.id,
      stance: 'agree',
      first_stance: 'agree',
      history: [expect.objectContaining({ stance: 'agree' })],
      credits: [],
      isPending: true,
    });
    // The same stance again is nothing.
    await a.data.setStance(topic.id, 'agree');
    expect((await until(a.data.stance$(topic.id), (s) => s !== null))!.history).toHaveLength(1);
    // A Δ needs a change of stance first.
    await expect(a.data.creditDeltas(topic.id, [moving.id])).rejects.toMatchObject({
      code: 'invalid-argument',
      message: MSG.deltaBeforeChange,
    });

    await a.data.setStance(topic.id, 'disagree');
    await a.data.creditDeltas(topic.id, [moving.id]);
    const local = await until(a.data.stance$(topic.id), (s) => s?.credits.length === 1);
    expect(local).toMatchObject({ stance: 'disagree', first_stance: 'agree', credits: [moving.id], isPending: true });
    expect(local!.history.map((change) => change.stance)).toEqual(['agree', 'disagree']);
    // One document waits, counted in the status; nothing touched the network.
    expect((await until(a.data.status$, (s) => s.pending === 1)).online).toBe(false);
    expect(a.requests.length).toBe(requestsWhileOffline);

    const published: Change[][] = [];
    const unsubscribe = server.ctx.changes.subscribe((changes) => published.push(changes));
    a.goOnline();
    await until(a.data.status$, (s) => s.online && s.pending === 0, 15_000);
    const confirmed = await until(a.data.stance$(topic.id), (s) => s !== null && !s.isPending);
    expect(confirmed).toMatchObject({ stance: 'disagree', first_stance: 'agree', credits: [moving.id] });
    expect(confirmed!.history.map((change) => change.stance)).toEqual(['agree', 'disagree']);

    // The server: the "before" kept, one change, one Δ — which earns no points: the server never saw
    // that offline "before", so the change opens no credit window (docs/COMMON-GROUND.md).
    const mine = await api(ada).get<MyStance>(`/topics/${topic.id}/stance`);
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body).toMatchObject({ stance: 'disagree', first_stance: 'agree', credits: [moving.id] });
    expect(mine.body.history.map((change) => change.stance)).toEqual(['agree', 'disagree']);
    const aggregate = (await api(carol).get<TopicStances>(`/topics/${topic.id}/stances`)).body;
    expect(aggregate).toMatchObject({ agree: 0, disagree: 1, unsure: 0, minds_changed: 1 });
    const author = (await api(bob).get<UserProfile>(`/users/${bob.uid}`)).body;
    expect(author.persuasion_points).toBe(0);
    expect(author.points).toBe(bobPointsBefore);
    // Exactly once: one stance row, one Δ row, one committed stance operation.
    expect(await countRows(server.db, 'stances', 'uid = ? AND topic_id = ?', ada.uid, topic.id)).toBe(1);
    expect(await countRows(server.db, 'deltas', 'response_id = ?', moving.id)).toBe(1);
    // A push batch the replication took while offline may carry the stance before its Δ was added: then
    // the two successive states land, each once. Never more operations than distinct states sent (an
    // attempt the offline network refused is recorded too, so the same state may appear twice here).
    const statesSent = new Set(a.requests.filter((r) => r.path.startsWith('/api/sync/stances/push')).map((r) => r.body));
    const operations = published.filter((changes) => changes.some((change) => change.collection === 'stances')).length;
    expect(operations).toBeGreaterThanOrEqual(1);
    expect(operations).toBeLessThanOrEqual(statesSent.size);
    unsubscribe();

    // The device hears the counters back: the topic's sides, the response's Δ.
    await until(a.data.topic$(topic.id), (t) => !!t && t.stance_disagree === 1 && t.minds_changed === 1 && t.stance_agree === 0);
    await until(a.data.topicResponses$(topic.id), (list) => list[0]?.delta_count === 1);

    // In "Download my data".
    const exported = await a.data.exportMyData();
    expect(exported.stances).toEqual([
      expect.objectContaining({ topic_id: topic.id, stance: 'disagree', first_stance: 'agree', credits: [moving.id], pending: false }),
    ]);
  });

  it('upvotes made offline are counted on the side the voter held when voting', async () => {
    const a = await client(server.url, { user: ada });
    const { topic, responses } = await debate(a, 3);
    const [beforeStance, afterAgree, afterChange] = responses as [(typeof responses)[0], (typeof responses)[0], (typeof responses)[0]];
    const sides = async () => {
      const res = await api(carol).get<CommonGroundEntry[]>(`/topics/${topic.id}/common-ground?limit=50`);
      expect(res.status, res.text).toBe(200);
      return new Map(res.body.map((e) => [e.response_id, [e.upvotes_agree, e.upvotes_disagree]]));
    };

    // Upvote with no stance yet, then take a stance and upvote again, all offline.
    a.goOffline();
    await until(a.data.status$, (s) => !s.online);
    await a.data.toggleVote('response', beforeStance.id);
    await a.data.setStance(topic.id, 'agree');
    await a.data.toggleVote('response', afterAgree.id);
    a.goOnline();
    await until(a.data.status$, (s) => s.online && s.pending === 0, 15_000);
    let counted = await sides();
    expect(counted.get(beforeStance.id)).toEqual([0, 0]);
    expect(counted.get(afterAgree.id)).toEqual([1, 0]);

    // The stance known to the server changes offline, then a vote: counted on the new side, not the old.
    a.goOffline();
    await until(a.data.status$, (s) => !s.online);
    await a.data.setStance(topic.id, 'disagree');
    await a.data.toggleVote('response', afterChange.id);
    a.goOnline();
    await until(a.data.status$, (s) => s.online && s.pending === 0, 15_000);
    counted = await sides();
    expect(counted.get(afterChange.id)).toEqual([0, 1]);
    // The earlier votes keep the side they were counted on.
    expect(counted.get(afterAgree.id)).toEqual([1, 0]);
    // The device hears the same counters back.
    const local = await until(
      a.data.topicResponses$(topic.id),
      (list) => list.find((r) => r.id === afterChange.id)?.upvotes_disagree === 1,
    );
    expect(local.find((r) => r.id === afterAgree.id)).toMatchObject({ upvotes_agree: 1, upvotes_disagree: 0 });
  });

  it('a stance changed and changed back offline sends nothing', async () => {
    const a = await client(server.url, { user: ada });
    const { topic } = await debate(a, 0);
    await a.data.setStance(topic.id, 'unsure');
    await until(a.data.status$, (s) => s.online && s.pending === 0, 15_000);
    await until(a.data.stance$(topic.id), (s) => s !== null && !s.isPending);

    a.goOffline();
    await a.data.setStance(topic.id, 'agree');
    await a.data.setStance(topic.id, 'unsure');
    const before = a.requests.length;
    a.goOnline();
    await until(a.data.status$, (s) => s.online && s.pending === 0, 15_000);
    expect(a.requests.slice(before).some((r) => r.path.startsWith('/api/sync/stances/push'))).toBe(false);
    // The server's history stays the device's: no change the server never saw is counted here.
    expect((await until(a.data.stance$(topic.id), (s) => s !== null && !s.isPending))!.history).toHaveLength(1);
    expect((await api(ada).get<MyStance>(`/topics/${topic.id}/stance`)).body.history).toHaveLength(1);
  });

  it('a stance the server refuses (topic deleted meanwhile) is kept in sync problems, never dropped', async () => {
    const a = await client(server.url, { user: ada });
    const { topic } = await debate(a, 0);
    a.goOffline();
    await a.data.setStance(topic.id, 'agree');
    expect((await api(bob).del(`/topics/${topic.id}`)).status).toBe(204);
    a.goOnline();
    const [problem] = await until(a.data.syncProblems$(), (list) => list.length === 1, 15_000);
    expect(problem).toMatchObject({
      kind: 'rejected',
      collection: 'stances',
      itemId: topic.id,
      action: 'stance',
      status: 404,
      localState: expect.objectContaining({ topic_id: topic.id, stance: 'agree', first_stance: 'agree' }),
    });
    // Never recorded on the server: the device no longer claims it.
    expect(await until(a.data.stance$(topic.id), (s) => s === null)).toBeNull();
    await until(a.data.status$, (s) => s.pending === 0);
    // Once the device has heard the topic is gone (its pull brings the deletion)...
    expect(await until(a.data.topic$(topic.id), (t) => t === null, 15_000)).toBeNull();
    // ...Fix sends it again through the same checks: the topic is gone, so it is refused at once.
    await expect(a.data.fixProblem(problem!.id)).rejects.toMatchObject({ code: 'not-found' });
  });

  it('refuses on the device what the server would refuse', async () => {
    const a = await client(server.url, { user: ada });
    const { topic, responses } = await debate(a, 4);
    const own = await makeResponse(api(ada), { topic_id: topic.id, content: 'My own point' });
    const elsewhere = await debate(a, 1);
    await until(a.data.topicResponses$(topic.id), (list) => list.length === 5);

    await expect(a.data.creditDeltas(topic.id, [responses[0]!.id])).rejects.toMatchObject({
      code: 'invalid-argument',
      message: MSG.noStanceYet,
    });
    await a.data.setStance(topic.id, 'agree');
    await expect(a.data.creditDeltas(topic.id, [responses[0]!.id])).rejects.toMatchObject({ message: MSG.deltaBeforeChange });
    await a.data.setStance(topic.id, 'disagree');
    await expect(a.data.creditDeltas(topic.id, [own.id])).rejects.toMatchObject({
      code: 'permission-denied',
      message: MSG.deltaOwnResponse,
    });
    await expect(
      a.data.creditDeltas(
        topic.id,
        responses.map((r) => r.id),
      ),
    ).rejects.toMatchObject({ message: MSG.deltaTooMany });
    await expect(a.data.creditDeltas(topic.id, [elsewhere.responses[0]!.id])).rejects.toMatchObject({ message: MSG.deltaOtherTopic });
    await expect(a.data.creditDeltas(topic.id, ['no-such-response'])).rejects.toMatchObject({ code: 'not-found' });
    await expect(a.data.setStance('no-such-topic', 'agree')).rejects.toMatchObject({ code: 'not-found' });
    // Nothing refused entered the outbox: the stance lands with no credit.
    const landed = await until(a.data.stance$(topic.id), (s) => s !== null && !s.isPending, 15_000);
    expect(landed!.credits).toEqual([]);
    // Three is the most, and [] withdraws them.
    await a.data.creditDeltas(
      topic.id,
      responses.slice(0, 3).map((r) => r.id),
    );
    await until(a.data.stance$(topic.id), (s) => s?.credits.length === 3 && !s.isPending, 15_000);
    await a.data.creditDeltas(topic.id, []);
    await until(a.data.stance$(topic.id), (s) => s?.credits.length === 0 && !s.isPending, 15_000);
    expect(await countRows(server.db, 'deltas', 'uid = ? AND topic_id = ?', ada.uid, topic.id)).toBe(0);

    await a.data.signOut();
    expect(await until(a.data.stance$(topic.id), () => true)).toBeNull();
    await expect(a.data.setStance(topic.id, 'agree')).rejects.toMatchObject({ code: 'unauthenticated', message: MSG.loginToRecordStance });
    await expect(a.data.creditDeltas(topic.id, [])).rejects.toMatchObject({ code: 'unauthenticated', message: MSG.loginToRecordStance });
  });

  it('orders roots by common ground when both sides upvote, and counts the balance from the local store', async () => {
    // Carol writes; Ada agrees and Bob disagrees, recorded before they vote (votes count by the stance then).
    const topic = await makeTopic(api(carol), { title: 'Is nuclear power green?' });
    const first = await makeResponse(api(carol), { topic_id: topic.id, type: 'for', content: 'Oldest, no votes' });
    const oneSide = await makeResponse(api(carol), { topic_id: topic.id, type: 'against', content: 'Only the agree side likes it' });
    const bothSides = await makeResponse(api(carol), { topic_id: topic.id, type: 'neutral', content: 'Both sides like it' });
    await makeResponse(api(carol), { topic_id: topic.id, parent_response_id: first.id, type: 'for', content: 'A reply' });
    for (const [user, stance] of [
      [ada, 'agree'],
      [bob, 'disagree'],
    ] as const) {
      const res = await api(user).put(`/topics/${topic.id}/stance`, { stance });
      expect(res.status, res.text).toBe(200);
    }
    await upvote(api(ada), 'response', oneSide.id);
    await upvote(api(ada), 'response', bothSides.id);
    await upvote(api(bob), 'response', bothSides.id);

    const reader = await client(server.url); // anonymous: the order comes from public counters only
    await reader.data.openTopic(topic.id);
    const byDefault = await until(reader.data.rootResponses$(topic.id), (list) => list.length === 3);
    expect(byDefault.map((r) => r.id)).toEqual([first.id, oneSide.id, bothSides.id]);
    // Approved by both sides first; the others score 0 and keep the default order.
    const common = await until(
      reader.data.rootResponses$(topic.id, 'common-ground'),
      (list) => list.length === 3 && list[0]!.id === bothSides.id,
    );
    expect(common.map((r) => r.id)).toEqual([bothSides.id, first.id, oneSide.id]);
    expect(common[0]).toMatchObject({ upvotes_agree: 1, upvotes_disagree: 1, score: 2 });
    expect(common[2]).toMatchObject({ upvotes_agree: 1, upvotes_disagree: 0 });
    expect(await until(reader.data.topic$(topic.id), (t) => !!t)).toMatchObject({ stance_agree: 1, stance_disagree: 1, stance_unsure: 0 });

    // Every live response of the topic by type, replies included.
    expect(await until(reader.data.responseBalance$(topic.id), (b) => b.for === 2)).toEqual({ for: 2, against: 1, neutral: 1 });
    // A response deleted elsewhere leaves the balance once the device hears of it.
    expect((await api(carol).del(`/responses/${oneSide.id}`)).status).toBe(204);
    expect(await until(reader.data.responseBalance$(topic.id), (b) => b.against === 0)).toEqual({ for: 2, against: 0, neutral: 1 });
    expect((await until(reader.data.rootResponses$(topic.id, 'common-ground'), (list) => list.length === 2)).map((r) => r.id)).toEqual([
      bothSides.id,
      first.id,
    ]);
  });

  it('migrates topics, responses and profile stored by the previous schemas (counters 0)', async () => {
    const indexedDB = new IDBFactory();
    const prefix = `stancemigrate${Date.now().toString(36)}`;
    const storage = () => wrappedValidateZSchemaStorage({ storage: getRxStorageDexie({ indexedDB, IDBKeyRange }) });
    const oldPublic = await createRxDatabase({ name: `${prefix}-public`, storage: storage(), multiInstance: false });
    await oldPublic.addCollections({
      // Version 1 as the previous app opened it (its own step from version 0 included).
      topics: { schema: topicSchemaV1 as never, migrationStrategies: { 1: (doc: unknown) => doc } },
      responses: { schema: responseSchemaV0 as never },
    });
    await oldPublic.topics!.insert({
      id: 'topic-from-v1',
      title: 'Kept by the previous app',
      category: 'Science',
      creator_uid: 'someone',
      username: 'Old Timer',
      created_at: '2020-01-02T03:04:05.000Z',
      score: 3,
      responses_count: 1,
      seq: 7,
      pending: false,
      pending_delete: false,
    });
    await oldPublic.responses!.insert({
      id: 'response-from-v0',
      topic_id: 'topic-from-v1',
      parent_response_id: null,
      quoted_response_id: null,
      type: 'for',
      content: 'An old argument',
      sources: [],
      creator_uid: 'someone',
      username: 'Old Timer',
      created_at: '2020-01-02T03:04:06.000Z',
      updated_at: '2020-01-02T03:04:06.000Z',
      score: 2,
      comment_count: 0,
      seq: 8,
      pending: false,
      pending_delete: false,
    });
    await oldPublic.close();
    const oldUser = await createRxDatabase({ name: userDbName(prefix, 'old-uid'), storage: storage(), multiInstance: false });
    await oldUser.addCollections({ profile: { schema: profileSchemaV0 as never } });
    await oldUser.profile!.insert({
      id: 'old-uid',
      display_name: 'Old Timer',
      receive_weekly_summary: false,
      points: 12,
      seq: 3,
      pending: false,
    });
    await oldUser.close();

    // The public database through the data layer (anonymous: nothing replicates over these ids).
    const c = await client(server.url, { indexedDB, prefix });
    expect(await until(c.data.topic$('topic-from-v1'), (t) => !!t)).toMatchObject({
      title: 'Kept by the previous app',
      score: 3,
      stance_agree: 0,
      stance_disagree: 0,
      stance_unsure: 0,
      minds_changed: 0,
    });
    expect((await until(c.data.topicResponses$('topic-from-v1'), (list) => list.length === 1))[0]).toMatchObject({
      content: 'An old argument',
      score: 2,
      delta_count: 0,
      upvotes_agree: 0,
      upvotes_disagree: 0,
    });
    await c.close();
    clients.splice(0);

    // The user database as the data layer opens it at sign-in (no replication: the profile is as stored).
    const user = await openUserDb(
      { storage: getRxStorageDexie({ indexedDB, IDBKeyRange }), prefix, devMode: true, multiInstance: false, duplicateInstances: 'close' },
      'old-uid',
    );
    try {
      expect((await user.profile.findOne('old-uid').exec())?.toJSON()).toMatchObject({
        points: 12,
        persuasion_points: 0,
        receive_weekly_summary: false,
      });
      expect(await user.stances.find().exec()).toEqual([]);
    } finally {
      await user.close();
    }
  });
});
