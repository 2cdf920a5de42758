// Stances, Δ credits, persuasion points and common ground against the real server,
// SQLite file and emulator tokens: every rule through REST and push, and the privacy of one
// person's stance (REST, pull and the live stream never give it to anyone else).
import { createParser } from 'eventsource-parser';
import { SYNC_PROTOCOL_VERSION } from '../../shared/sync-protocol.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DELTAS_PER_CHANGE, PERSUASION_POINTS_PER_DELTA, STANCES } from '../../shared/constants.js';
import { MSG } from '../../shared/messages.js';
import { STANDING_MIN_AGE_DAYS, STANDING_MIN_POINTS } from '../../shared/rules/standing.js';
import type { ProfileDoc, PullResponse, PushResponse, ResponseDoc, StanceDoc, StreamEvent, TopicDoc } from '../../shared/sync-protocol.js';
import type { CommonGroundEntry, LeaderboardEntry, MyStance, TopicStances, UserProfile } from '../../shared/types.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { countRows, makeResponse, makeTopic, unvote, upvote } from '../fixtures/builders.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

const SYNC = { headers: { 'x-crux-sync': String(SYNC_PROTOCOL_VERSION) } };

describe('stances', () => {
  let server: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  const as = (user?: TestUser) => apiClient(server.url, user?.token);
  const put = (user: TestUser, topicId: string, body: unknown) =>
    as(user).put<MyStance & { error?: string }>(`/topics/${topicId}/stance`, body);
  const aggregate = async (topicId: string) => (await as().get<TopicStances>(`/topics/${topicId}/stances`)).body;
  const page = async (user: TestUser) => (await as().get<UserProfile>(`/users/${user.uid}`)).body;
  const responseDoc = async (topicId: string, id: string) => {
    const res = await as().get<PullResponse<ResponseDoc>>(`/sync/responses/pull?topic_id=${topicId}&limit=1000`, SYNC);
    return res.body.documents.filter((doc) => doc.id === id).at(-1)!;
  };
  const pushStance = (user: TestUser, doc: Partial<StanceDoc> & { id: string }, assumed: StanceDoc | null = null) =>
    as(user).post<PushResponse<StanceDoc>>(
      '/sync/stances/push',
      [{ assumedMasterState: assumed, newDocumentState: { topic_id: doc.id, credits: [], history: [], seq: 0, _deleted: false, ...doc } }],
      SYNC,
    );

  beforeAll(async () => {
    server = await startTestServer();
    [ada, bob, carol] = await Promise.all([createTestUser('Ada'), createTestUser('Bob'), createTestUser('Carol')]);
    // Ada and Bob give Δ credits that count: they need standing (shared/rules/standing.ts), an
    // account seen long enough ago with enough points (tests/sync-server/delta-rules.test.ts ages
    // accounts with the server's clock instead).
    const voters = await Promise.all(Array.from({ length: STANDING_MIN_POINTS }, (_, i) => createTestUser(`Voter ${i}`)));
    for (const creditor of [ada, bob]) {
      const topic = await makeTopic(as(creditor));
      for (const voter of voters) await upvote(as(voter), 'topic', topic.id);
      const longAgo = new Date(Date.now() - (STANDING_MIN_AGE_DAYS + 1) * 24 * 60 * 60 * 1000).toISOString();
      await server.db.run('UPDATE users SET created_at = ? WHERE uid = ?', longAgo, creditor.uid);
    }
  });
  afterAll(() => server.stop());

  describe('where I stand', () => {
    it('needs a token (401 with its message) and a live topic (404)', async () => {
      const topic = await makeTopic(as(ada));
      for (const res of [await as().get(`/topics/${topic.id}/stance`), await as().put(`/topics/${topic.id}/stance`, { stance: 'agree' })]) {
        expect(res.status).toBe(401);
        expect(res.body.error).toBe(MSG.loginToRecordStance);
      }
      const missing = await put(bob, 'no-such-topic', { stance: 'agree' });
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ error: MSG.topicNotFound });
      expect((await as(bob).get(`/topics/${topic.id}/stance`)).body).toMatchObject({ error: MSG.noStanceYet });
      expect((await as(bob).get(`/topics/${topic.id}/stance`)).status).toBe(404);
    });

    it('keeps one stance per user and topic: the first is the "before", each change is appended with its time', async () => {
      const topic = await makeTopic(as(ada));
      const first = await put(bob, topic.id, { stance: 'agree' });
      expect(first.status, first.text).toBe(200);
      expect(first.body).toEqual({
        topic_id: topic.id,
        stance: 'agree',
        first_stance: 'agree',
        history: [{ stance: 'agree', at: expect.any(String) }],
        credits: [],
        updated_at: expect.any(String),
      });
      // The same stance again changes nothing.
      const again = await put(bob, topic.id, { stance: 'agree' });
      expect(again.body).toEqual(first.body);
      const changed = await put(bob, topic.id, { stance: 'disagree' });
      expect(changed.body).toMatchObject({ stance: 'disagree', first_stance: 'agree' });
      expect(changed.body.history.map((entry) => entry.stance)).toEqual(['agree', 'disagree']);
      const back = await put(bob, topic.id, { stance: 'unsure' });
      expect(back.body.first_stance).toBe('agree');
      expect(back.body.history.map((entry) => entry.stance)).toEqual(['agree', 'disagree', 'unsure']);
      expect((await as(bob).get(`/topics/${topic.id}/stance`)).body).toEqual(back.body);
      expect(await countRows(server.db, 'stances', 'topic_id = ?', topic.id)).toBe(1);
    });

    it('shows the topic only the counts: agree, disagree, unsure, minds changed, and responses by type', async () => {
      const topic = await makeTopic(as(ada));
      await makeResponse(as(ada), { topic_id: topic.id, type: 'for' });
      await makeResponse(as(bob), { topic_id: topic.id, type: 'against' });
      await makeResponse(as(bob), { topic_id: topic.id, type: 'against' });
      await put(ada, topic.id, { stance: 'agree' });
      await put(bob, topic.id, { stance: 'agree' });
      await put(bob, topic.id, { stance: 'disagree' });
      await put(carol, topic.id, { stance: 'unsure' });
      expect(await aggregate(topic.id)).toEqual({
        topic_id: topic.id,
        agree: 1,
        disagree: 1,
        unsure: 1,
        minds_changed: 1,
        responses: { for: 1, against: 2, neutral: 0 },
      });
      // Back to the first stance: no longer a changed mind.
      await put(bob, topic.id, { stance: 'agree' });
      expect(await aggregate(topic.id)).toMatchObject({ agree: 2, disagree: 0, minds_changed: 0 });
      // The replicated topic carries the same counts.
      const pulled = await as().get<PullResponse<TopicDoc>>('/sync/topics/pull?limit=1000', SYNC);
      expect(pulled.body.documents.filter((doc) => doc.id === topic.id).at(-1)).toMatchObject({
        stance_agree: 2,
        stance_disagree: 0,
        stance_unsure: 1,
        minds_changed: 0,
      });
      expect((await as().get(`/topics/no-such-topic/stances`)).status).toBe(404);
    });
  });

  describe('Δ: this changed my view', () => {
    it('refuses credits before a change, more than 3, one’s own, another topic’s and unknown responses', async () => {
      const topic = await makeTopic(as(ada));
      const other = await makeTopic(as(ada));
      const mine = await makeResponse(as(bob), { topic_id: topic.id });
      const elsewhere = await makeResponse(as(carol), { topic_id: other.id });
      const theirs = await Promise.all([1, 2, 3, 4].map(() => makeResponse(as(carol), { topic_id: topic.id })));

      const before = await put(bob, topic.id, { stance: 'agree', credits: [theirs[0]!.id] });
      expect(before.status).toBe(400);
      expect(before.body.error).toBe(MSG.deltaBeforeChange);
      await put(bob, topic.id, { stance: 'agree' });
      const sameStance = await put(bob, topic.id, { stance: 'agree', credits: [theirs[0]!.id] });
      expect(sameStance.body.error).toBe(MSG.deltaBeforeChange);

      const cases: [string[], number, string][] = [
        [theirs.map((r) => r.id), 400, MSG.deltaTooMany],
        [[theirs[0]!.id, theirs[0]!.id], 400, MSG.deltaTooMany],
        [[mine.id], 403, MSG.deltaOwnResponse],
        [[elsewhere.id], 400, MSG.deltaOtherTopic],
        [['no-such-response'], 404, MSG.responseNotFound],
      ];
      for (const [credits, status, error] of cases) {
        const res = await put(bob, topic.id, { stance: 'disagree', credits });
        expect(res.status, JSON.stringify(credits)).toBe(status);
        expect(res.body.error).toBe(error);
      }
      // Nothing of the refused writes landed: still the first stance, no credit.
      expect((await as(bob).get<MyStance>(`/topics/${topic.id}/stance`)).body.history).toHaveLength(1);
      expect(await countRows(server.db, 'deltas', 'topic_id = ?', topic.id)).toBe(0);

      const ok = await put(bob, topic.id, { stance: 'disagree', credits: theirs.slice(0, MAX_DELTAS_PER_CHANGE).map((r) => r.id) });
      expect(ok.status, ok.text).toBe(200);
      expect(ok.body.credits).toHaveLength(MAX_DELTAS_PER_CHANGE);
    });

    it('counts on the response, earns its author persuasion points (in points, rank, leaderboard and user page)', async () => {
      const topic = await makeTopic(as(ada));
      const [r1, r2, r3] = await Promise.all([1, 2, 3].map(() => makeResponse(as(carol), { topic_id: topic.id })));
      const carolBefore = await page(carol);

      await put(ada, topic.id, { stance: 'agree' });
      await put(ada, topic.id, { stance: 'disagree', credits: [r1!.id] });
      expect((await responseDoc(topic.id, r1!.id)).delta_count).toBe(1);
      let carolNow = await page(carol);
      expect(carolNow.persuasion_points).toBe(carolBefore.persuasion_points + PERSUASION_POINTS_PER_DELTA);
      expect(carolNow.points).toBe(carolBefore.points + PERSUASION_POINTS_PER_DELTA);

      // Same stance: the credits replace this change's list.
      await put(ada, topic.id, { stance: 'disagree', credits: [r2!.id] });
      expect((await responseDoc(topic.id, r1!.id)).delta_count).toBe(0);
      expect((await responseDoc(topic.id, r2!.id)).delta_count).toBe(1);
      expect((await page(carol)).persuasion_points).toBe(carolBefore.persuasion_points + PERSUASION_POINTS_PER_DELTA);

      // A new change starts a new list; the earlier change's credit still shows. Points: one Δ per
      // creditor and topic (docs/COMMON-GROUND.md), so Ada's second credit to Carol here adds none.
      const changed = await put(ada, topic.id, { stance: 'unsure', credits: [r3!.id] });
      expect(changed.body.credits).toEqual([r3!.id]);
      expect((await responseDoc(topic.id, r2!.id)).delta_count).toBe(1);
      expect((await responseDoc(topic.id, r3!.id)).delta_count).toBe(1);
      carolNow = await page(carol);
      expect(carolNow.persuasion_points).toBe(carolBefore.persuasion_points + PERSUASION_POINTS_PER_DELTA);
      expect(carolNow.points).toBe(carolBefore.points + PERSUASION_POINTS_PER_DELTA);
      // Bob's Δ in the same topic counts: another creditor.
      await put(bob, topic.id, { stance: 'agree' });
      await put(bob, topic.id, { stance: 'disagree', credits: [r3!.id] });
      expect((await responseDoc(topic.id, r3!.id)).delta_count).toBe(2);
      carolNow = await page(carol);
      expect(carolNow.persuasion_points).toBe(carolBefore.persuasion_points + 2 * PERSUASION_POINTS_PER_DELTA);
      expect(carolNow.points).toBe(carolBefore.points + 2 * PERSUASION_POINTS_PER_DELTA);

      // Rank and leaderboard use the total; ?include=persuasion adds the part, the default shape stays.
      const score = await as(ada).get(`/users/${carol.uid}/score`);
      expect(score.body).toEqual({ uid: carol.uid, points: carolNow.points, rank: carolNow.rank });
      const scoreWithPersuasion = await as(ada).get(`/users/${carol.uid}/score?include=persuasion`);
      expect(scoreWithPersuasion.body).toEqual({ ...score.body, persuasion_points: carolNow.persuasion_points });
      expect((await as(ada).get(`/users/${carol.uid}/score?include=nope`)).status).toBe(400);
      const plain = await as().get<LeaderboardEntry[]>('/users/leaderboard');
      const entry = plain.body.find((row) => row.uid === carol.uid)!;
      expect(entry).toEqual({ uid: carol.uid, display_name: 'Carol', points: carolNow.points, rank: carolNow.rank });
      const withPersuasion = await as().get<LeaderboardEntry[]>('/users/leaderboard?include=persuasion');
      expect(withPersuasion.body.find((row) => row.uid === carol.uid)).toEqual({ ...entry, persuasion_points: carolNow.persuasion_points });
      expect((await as().get('/users/leaderboard?include=everything')).status).toBe(400);

      // Carol's profile replicates the new points to her devices.
      const profile = await as(carol).get<PullResponse<ProfileDoc>>('/sync/profile/pull', SYNC);
      expect(profile.body.documents[0]).toMatchObject({ points: carolNow.points, persuasion_points: carolNow.persuasion_points });

      // Deleting a credited response takes its Δ away, as its votes are: Bob's only credit goes,
      // Ada's credit of r2 still counts for her.
      expect((await as(carol).del(`/responses/${r3!.id}`)).status).toBe(204);
      expect((await page(carol)).persuasion_points).toBe(carolBefore.persuasion_points + PERSUASION_POINTS_PER_DELTA);
      expect((await page(carol)).points).toBe(carolBefore.points + PERSUASION_POINTS_PER_DELTA);
      // The credit given before stays in Ada's list and does not block her other writes.
      const still = await put(ada, topic.id, { stance: 'unsure', credits: [r3!.id, r1!.id] });
      expect(still.status, still.text).toBe(200);
      expect((await responseDoc(topic.id, r1!.id)).delta_count).toBe(1);
      expect((await page(carol)).persuasion_points).toBe(carolBefore.persuasion_points + PERSUASION_POINTS_PER_DELTA);

      // Deleting the topic takes the rest away.
      expect((await as(ada).del(`/topics/${topic.id}`)).status).toBe(204);
      expect((await page(carol)).persuasion_points).toBe(carolBefore.persuasion_points);
      expect((await page(carol)).points).toBe(carolBefore.points);
    });

    it('counts one Δ per person and topic: changing back and forth and crediting again earns nothing more', async () => {
      const topic = await makeTopic(as(ada));
      const response = await makeResponse(as(carol), { topic_id: topic.id });
      const before = await page(carol);
      await put(ada, topic.id, { stance: 'agree' });
      for (const stance of ['disagree', 'agree', 'disagree', 'unsure'] as const) {
        const res = await put(ada, topic.id, { stance, credits: [response.id] });
        expect(res.status, res.text).toBe(200);
      }
      expect((await responseDoc(topic.id, response.id)).delta_count).toBe(1);
      expect((await page(carol)).persuasion_points).toBe(before.persuasion_points + PERSUASION_POINTS_PER_DELTA);
      // A second person's Δ counts.
      await put(bob, topic.id, { stance: 'disagree' });
      await put(bob, topic.id, { stance: 'agree', credits: [response.id] });
      expect((await responseDoc(topic.id, response.id)).delta_count).toBe(2);
      const after = await page(carol);
      expect(after.persuasion_points).toBe(before.persuasion_points + 2 * PERSUASION_POINTS_PER_DELTA);
      expect(after.points).toBe(before.points + 2 * PERSUASION_POINTS_PER_DELTA);
    });
  });

  describe('common ground', () => {
    it('counts each upvote by the voter’s stance at the time, and a later change does not move it', async () => {
      const topic = await makeTopic(as(ada));
      const response = await makeResponse(as(carol), { topic_id: topic.id });
      await put(ada, topic.id, { stance: 'agree' });
      await upvote(as(ada), 'response', response.id);
      await upvote(as(bob), 'response', response.id); // no stance yet: counted on neither side
      expect(await responseDoc(topic.id, response.id)).toMatchObject({ score: 2, upvotes_agree: 1, upvotes_disagree: 0 });

      await put(ada, topic.id, { stance: 'disagree' });
      expect(await responseDoc(topic.id, response.id)).toMatchObject({ upvotes_agree: 1, upvotes_disagree: 0 });
      // Taken back: off the side it was counted on; cast again: on the side the voter is on now.
      await unvote(as(ada), 'response', response.id);
      expect(await responseDoc(topic.id, response.id)).toMatchObject({ score: 1, upvotes_agree: 0, upvotes_disagree: 0 });
      await upvote(as(ada), 'response', response.id);
      expect(await responseDoc(topic.id, response.id)).toMatchObject({ score: 2, upvotes_agree: 0, upvotes_disagree: 1 });
    });

    it('counts a self-upvote in the score but on no side, through REST and push', async () => {
      const topic = await makeTopic(as(ada));
      await put(ada, topic.id, { stance: 'disagree' });
      await put(bob, topic.id, { stance: 'agree' });
      const mine = await makeResponse(as(ada), { topic_id: topic.id });
      await upvote(as(ada), 'response', mine.id);
      expect(await responseDoc(topic.id, mine.id)).toMatchObject({ score: 1, upvotes_agree: 0, upvotes_disagree: 0 });
      const ground = await as().get<CommonGroundEntry[]>(`/topics/${topic.id}/common-ground`);
      expect(ground.body.find((entry) => entry.response_id === mine.id)).toMatchObject({ upvotes_agree: 0, upvotes_disagree: 0 });
      // Someone else's upvote still counts on their side; taking the self-upvote back leaves it.
      await upvote(as(bob), 'response', mine.id);
      expect(await responseDoc(topic.id, mine.id)).toMatchObject({ score: 2, upvotes_agree: 1, upvotes_disagree: 0 });
      await unvote(as(ada), 'response', mine.id);
      expect(await responseDoc(topic.id, mine.id)).toMatchObject({ score: 1, upvotes_agree: 1, upvotes_disagree: 0 });

      const bobs = await makeResponse(as(bob), { topic_id: topic.id });
      const vote = {
        id: `response_${bobs.id}`,
        target_type: 'response',
        target_id: bobs.id,
        topic_id: topic.id,
        upvoted: true,
        updated_at: '',
        seq: 0,
        _deleted: false,
      };
      const pushed = await as(bob).post<PushResponse<unknown>>('/sync/votes/push', [{ newDocumentState: vote }], SYNC);
      expect(pushed.status, pushed.text).toBe(200);
      expect(await responseDoc(topic.id, bobs.id)).toMatchObject({ score: 1, upvotes_agree: 0, upvotes_disagree: 0 });
    });

    it('counts disagrees by the voter’s stance too: a response one side disagrees with is not common ground', async () => {
      const topic = await makeTopic(as(ada));
      await put(ada, topic.id, { stance: 'agree' });
      await put(bob, topic.id, { stance: 'disagree' });
      const [both, split] = await Promise.all([
        makeResponse(as(carol), { topic_id: topic.id }),
        makeResponse(as(carol), { topic_id: topic.id }),
      ]);
      const vote = (user: TestUser, kind: 'upvotes' | 'downvotes' | 'passes', id: string) =>
        as(user).post(`/${kind}`, { target_type: 'response', target_id: id });
      const entry = async (id: string) =>
        (await as().get<CommonGroundEntry[]>(`/topics/${topic.id}/common-ground`)).body.find((e) => e.response_id === id)!;
      await vote(ada, 'upvotes', both.id);
      await vote(bob, 'upvotes', both.id);
      await vote(ada, 'upvotes', split.id);
      await vote(bob, 'downvotes', split.id);
      // Carol's own disagree counts on no side (it would tell her stance).
      await put(carol, topic.id, { stance: 'disagree' });
      await vote(carol, 'downvotes', both.id);

      expect(await responseDoc(topic.id, split.id)).toMatchObject({ upvotes_agree: 1, downvotes_disagree: 1, downvotes_agree: 0 });
      expect(await responseDoc(topic.id, both.id)).toMatchObject({
        upvotes_agree: 1,
        upvotes_disagree: 1,
        downvotes_agree: 0,
        downvotes_disagree: 0,
      });
      expect(await entry(split.id)).toMatchObject({ downvotes_agree: 0, downvotes_disagree: 1, score: 0, common_ground: false });
      expect((await entry(both.id)).score).toBeGreaterThan(0);

      // A pass is "seen, no opinion": it replaces the disagree, which leaves the side it was counted on.
      await vote(bob, 'passes', split.id);
      expect(await responseDoc(topic.id, split.id)).toMatchObject({ downvotes_agree: 0, downvotes_disagree: 0 });
      // A disagree cast after a change of stance counts on the new side; an agree replacing it takes it off.
      await put(bob, topic.id, { stance: 'agree' });
      await vote(bob, 'downvotes', split.id);
      expect(await responseDoc(topic.id, split.id)).toMatchObject({ downvotes_agree: 1, downvotes_disagree: 0 });
      expect((await entry(split.id)).score).toBe(0);
      await vote(bob, 'upvotes', split.id);
      expect(await responseDoc(topic.id, split.id)).toMatchObject({ upvotes_agree: 2, downvotes_agree: 0, downvotes_disagree: 0 });
      // The counters kept vote by vote equal a recount from the votes.
      const kept = await server.db.row(
        'SELECT upvotes_agree, upvotes_disagree, downvotes_agree, downvotes_disagree FROM responses WHERE id = ?',
        split.id,
      );
      await server.db.run('UPDATE responses SET downvotes_agree = 7, downvotes_disagree = 7 WHERE id = ?', split.id);
      await server.store.transaction(async () => server.store.responses.refreshAggregates(split.id, await server.store.nextSeq()));
      expect(
        await server.db.row(
          'SELECT upvotes_agree, upvotes_disagree, downvotes_agree, downvotes_disagree FROM responses WHERE id = ?',
          split.id,
        ),
      ).toEqual(kept);
    });

    it('ranks responses approved by both sides first; ties by created_at, then id', async () => {
      const topic = await makeTopic(as(ada));
      const [oneSided, both, none, alsoNone] = await Promise.all([
        makeResponse(as(carol), { topic_id: topic.id }),
        makeResponse(as(carol), { topic_id: topic.id }),
        makeResponse(as(carol), { topic_id: topic.id }),
        makeResponse(as(carol), { topic_id: topic.id }),
      ]);
      await put(ada, topic.id, { stance: 'agree' });
      await put(bob, topic.id, { stance: 'disagree' });
      await upvote(as(ada), 'response', both.id);
      await upvote(as(bob), 'response', both.id);
      await upvote(as(ada), 'response', oneSided.id);

      const res = await as().get<CommonGroundEntry[]>(`/topics/${topic.id}/common-ground`);
      expect(res.status).toBe(200);
      expect(res.body[0]).toMatchObject({ response_id: both.id, upvotes_agree: 1, upvotes_disagree: 1, delta_count: 0 });
      expect(res.body[0]!.score).toBeGreaterThan(0);
      const rest = res.body.slice(1);
      expect(rest.every((entry) => entry.score === 0)).toBe(true);
      const created = new Map([oneSided, none, alsoNone].map((r) => [r.id, r.created_at]));
      const expected = [...created.entries()].sort(([ida, a], [idb, b]) => a.localeCompare(b) || ida.localeCompare(idb)).map(([id]) => id);
      expect(rest.map((entry) => entry.response_id)).toEqual(expected);

      expect((await as().get<CommonGroundEntry[]>(`/topics/${topic.id}/common-ground?limit=2`)).body).toHaveLength(2);
      for (const limit of ['0', '101', 'abc', '1.5']) {
        expect((await as().get(`/topics/${topic.id}/common-ground?limit=${limit}`)).status).toBe(400);
      }
      expect((await as().get('/topics/no-such-topic/common-ground')).status).toBe(404);
    });
  });

  describe('replication', () => {
    it('a push made offline keeps the true first stance, records its credit once (no points: the server never saw the before), and lands once when retried', async () => {
      const topic = await makeTopic(as(ada));
      const response = await makeResponse(as(carol), { topic_id: topic.id });
      const carolBefore = await page(carol);
      const doc = { id: topic.id, stance: 'disagree' as const, first_stance: 'agree' as const, credits: [response.id] };

      const first = await pushStance(bob, doc);
      expect(first.body.rejected).toEqual([]);
      const landed = first.body.conflicts[0]!;
      expect(landed).toMatchObject({ id: topic.id, topic_id: topic.id, stance: 'disagree', first_stance: 'agree', credits: [response.id] });
      expect(landed.history.map((entry) => entry.stance)).toEqual(['agree', 'disagree']);

      const retry = await pushStance(bob, doc);
      expect(retry.body).toEqual({ conflicts: [landed], rejected: [] });
      expect(await countRows(server.db, 'deltas', 'topic_id = ?', topic.id)).toBe(1);
      expect((await responseDoc(topic.id, response.id)).delta_count).toBe(1);
      // The offline "before" is shown, but the server never saw it: that change earns no points.
      expect((await page(carol)).persuasion_points).toBe(carolBefore.persuasion_points);
      expect(await aggregate(topic.id)).toMatchObject({ disagree: 1, minds_changed: 1 });

      // Another device's "before" never replaces the server's.
      const later = await pushStance(bob, { id: topic.id, stance: 'unsure', first_stance: 'unsure' }, landed);
      expect(later.body.conflicts[0]).toMatchObject({ stance: 'unsure', first_stance: 'agree', credits: [] });

      // The owner pulls it.
      const pulled = await as(bob).get<PullResponse<StanceDoc>>('/sync/stances/pull', SYNC);
      expect(pulled.body.documents.filter((d) => d.id === topic.id).at(-1)).toMatchObject({ stance: 'unsure', first_stance: 'agree' });
    });

    it('refuses a push the REST call would refuse (400/403/404 in rejected, never 500)', async () => {
      const topic = await makeTopic(as(ada));
      const own = await makeResponse(as(bob), { topic_id: topic.id });
      const cases: [Partial<StanceDoc> & { id: string }, number][] = [
        [{ id: topic.id, stance: 'maybe' as never }, 400],
        [{ id: topic.id, stance: 'agree', first_stance: 'maybe' as never }, 400],
        [{ id: topic.id, stance: 'agree', credits: [own.id] }, 400],
        [{ id: topic.id, stance: 'disagree', first_stance: 'agree', credits: [own.id] }, 403],
        [{ id: topic.id, stance: 'agree', credits: [42 as never, {} as never] }, 400],
        [{ id: 'no-such-topic', stance: 'agree' }, 404],
      ];
      for (const [doc, status] of cases) {
        const res = await pushStance(bob, doc);
        expect(res.status, JSON.stringify(doc)).toBe(200);
        expect(res.body.rejected[0]?.status, JSON.stringify(doc)).toBe(status);
      }
      expect(await countRows(server.db, 'stances', 'topic_id = ?', topic.id)).toBe(0);
      // A stance is never deleted: nothing to delete before the first; after it the answer is the live stance.
      expect((await pushStance(bob, { id: topic.id, stance: 'agree', _deleted: true })).body).toEqual({ conflicts: [], rejected: [] });
      const recorded = (await pushStance(bob, { id: topic.id, stance: 'agree' })).body.conflicts[0]!;
      const deleted = await pushStance(bob, { ...recorded, _deleted: true }, recorded);
      expect(deleted.body).toEqual({ conflicts: [recorded], rejected: [] });
      const deletedAndChanged = await pushStance(bob, { ...recorded, stance: 'unsure', _deleted: true }, recorded);
      expect(deletedAndChanged.body.rejected[0]).toMatchObject({ status: 400, master: recorded });
      // A malformed push body is a 400 for the whole request.
      const malformed = await as(bob).post('/sync/stances/push', [{ newDocumentState: { id: topic.id, stance: 7 } }], SYNC);
      expect(malformed.status).toBe(400);
    });
  });

  describe('bad input', () => {
    it('answers 400 with a message, never 500', async () => {
      const topic = await makeTopic(as(ada));
      const bodies: unknown[] = [
        {},
        { stance: 'maybe' },
        { stance: 'agree', credits: 'r1' },
        { stance: 'agree', credits: [{}] },
        { stance: 'agree', extra: 1 },
        { stance: 'agree', credits: Array.from({ length: 51 }, (_, i) => `r${i}`) },
        [],
        'null',
        'not json',
      ];
      for (const body of bodies) {
        const res = await put(bob, topic.id, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(typeof res.body.error).toBe('string');
      }
      expect((await put(bob, topic.id, {})).body.error).toBe(MSG.stanceMissing);
    });
  });

  describe('privacy', () => {
    it('nobody else gets anything of a user’s stance through REST, pull or the live stream', async () => {
      const topic = await makeTopic(as(carol));
      const response = await makeResponse(as(carol), { topic_id: topic.id, content: 'Something both sides may like' });
      const bobStream = await openStream(server.url, bob.token);
      const adaStream = await openStream(server.url, ada.token);
      const anonStream = await openStream(server.url, null);
      await Promise.all([bobStream, adaStream, anonStream].map((s) => s.next((e) => e.collection === '*')));

      // Ada's stance: first "disagree" (her "before"), an upvote counted on that side, then "agree".
      await put(ada, topic.id, { stance: 'disagree' });
      await upvote(as(ada), 'response', response.id);
      expect((await put(ada, topic.id, { stance: 'agree' })).status).toBe(200);
      await adaStream.next((e) => e.collection === 'stances');
      await bobStream.next((e) => e.collection === 'topics'); // the count changed, so later events have arrived
      // What a leak looks like: her own answer has every private field (the check below finds them).
      const own = await as(ada).get<MyStance>(`/topics/${topic.id}/stance`);
      expect(own.body).toMatchObject({ stance: 'agree', first_stance: 'disagree' });
      expect(stanceLeaks(own.body)).toEqual(expect.arrayContaining(['$.stance', '$.first_stance', '$.history', '$.credits']));

      // REST: there is no call for another user's stance; Bob's own is "none yet".
      expect((await as(bob).get(`/topics/${topic.id}/stance`)).body.error).toBe(MSG.noStanceYet);
      expect((await as().get(`/topics/${topic.id}/stance?uid=${ada.uid}`)).status).toBe(401);
      // Every public answer that mentions the topic, its response or Ada: counts only, no one's stance
      // (no private field, no stance value anywhere, her "before" included).
      const publicViews = {
        stances: await as(bob).get<TopicStances>(`/topics/${topic.id}/stances`),
        topic: await as(bob).get(`/topics/${topic.id}`),
        topics: await as().get('/topics?limit=100'),
        responses: await as(bob).get(`/responses?topic_id=${topic.id}`),
        response: await as().get(`/responses/${response.id}`),
        user: await as(bob).get(`/users/${ada.uid}`),
        score: await as(bob).get(`/users/${ada.uid}/score`),
        leaderboard: await as().get('/users/leaderboard'),
        commonGround: await as(bob).get<CommonGroundEntry[]>(`/topics/${topic.id}/common-ground`),
      };
      for (const [name, view] of Object.entries(publicViews)) {
        expect(view.status, `${name}: ${view.text}`).toBe(200);
        expect(stanceLeaks(view.body), name).toEqual([]);
      }
      // The aggregate itself: her current side is counted, as a number, and the change.
      expect(publicViews.stances.body).toMatchObject({ agree: 1, disagree: 0, unsure: 0, minds_changed: 1 });
      expect(publicViews.commonGround.body).toEqual([
        expect.objectContaining({ response_id: response.id, upvotes_disagree: 1, upvotes_agree: 0 }),
      ]);

      // Pull: a private collection, the caller's own only; the public and Bob's private pulls carry no stance.
      expect((await as().get('/sync/stances/pull', SYNC)).status).toBe(401);
      const bobPull = await as(bob).get<PullResponse<StanceDoc>>('/sync/stances/pull?limit=1000', SYNC);
      expect(bobPull.status).toBe(200);
      expect(bobPull.body.documents.filter((doc) => doc.id === topic.id || doc.topic_id === topic.id)).toEqual([]);
      const pulls = {
        topics: await as().get('/sync/topics/pull?limit=1000', SYNC),
        responses: await as().get(`/sync/responses/pull?topic_id=${topic.id}&limit=1000`, SYNC),
        bobResponses: await as(bob).get(`/sync/responses/pull?topic_id=${topic.id}&limit=1000`, SYNC),
        bobVotes: await as(bob).get('/sync/votes/pull?limit=1000', SYNC),
        bobProfile: await as(bob).get('/sync/profile/pull?limit=1000', SYNC),
        bobNotifications: await as(bob).get('/sync/notifications/pull?limit=1000', SYNC),
      };
      for (const [name, pull] of Object.entries(pulls)) {
        expect(pull.status, `${name}: ${pull.text}`).toBe(200);
        expect(stanceLeaks(pull.body), name).toEqual([]);
        expect(pull.text, name).not.toContain(`"voter_uid":"${ada.uid}"`);
      }
      // Push answers: Bob's push for the same topic is his own document, never Ada's.
      const bobPush = await pushStance(bob, { id: topic.id, stance: 'unsure' });
      expect(bobPush.body.conflicts).toEqual([
        expect.objectContaining({
          id: topic.id,
          stance: 'unsure',
          first_stance: 'unsure',
          history: [expect.objectContaining({ stance: 'unsure' })],
        }),
      ]);
      expect((await as(ada).get<MyStance>(`/topics/${topic.id}/stance`)).body).toMatchObject({ stance: 'agree', first_stance: 'disagree' });
      await bobStream.next((e) => e.collection === 'stances'); // his own change: yes

      // The stream: only the owner hears of her stance, and an event says which collection (and topic)
      // to pull again, nothing more: no document, no user, no stance.
      const adaHeard = adaStream.events.length;
      await put(ada, topic.id, { stance: 'unsure' });
      await adaStream.next((e) => e.collection === 'stances' && adaStream.events.indexOf(e) >= adaHeard);
      await adaStream.next((e) => e.collection === 'topics' && adaStream.events.indexOf(e) >= adaHeard);
      await anonStream.next((e) => e.collection === 'topics');
      const allowed = ['type', 'collection', 'topic_id'];
      for (const [name, stream] of Object.entries({ bob: bobStream, ada: adaStream, anon: anonStream })) {
        for (const event of stream.events) {
          expect(
            Object.keys(event).every((k) => allowed.includes(k)),
            `${name}: ${JSON.stringify(event)}`,
          ).toBe(true);
          expect(event.type).toBe('RESYNC');
          expect(JSON.stringify(event), name).not.toContain(ada.uid);
        }
      }
      expect(anonStream.events.filter((e) => e.collection === 'stances')).toEqual([]);
      // Bob hears of stances once (his own push), never of Ada's three changes.
      expect(bobStream.events.filter((e) => e.collection === 'stances')).toEqual([{ type: 'RESYNC', collection: 'stances' }]);
      [bobStream, adaStream, anonStream].forEach((s) => s.close());
    });
  });
});

const PRIVATE_STANCE_KEYS = new Set(['stance', 'first_stance', 'history', 'credits']);

/** Where a JSON answer tells someone's stance: a private field, or a stance value anywhere. */
function stanceLeaks(value: unknown, path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => stanceLeaks(item, `${path}[${i}]`));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => [
      ...(PRIVATE_STANCE_KEYS.has(key) ? [`${path}.${key}`] : []),
      ...stanceLeaks(item, `${path}.${key}`),
    ]);
  }
  return typeof value === 'string' && (STANCES as readonly string[]).includes(value) ? [`${path} = ${value}`] : [];
}

/** A live-stream reader: the events so far and a wait for the next matching one. */
async function openStream(url: string, token: string | null) {
  const abort = new AbortController();
  const res = await fetch(`${url}/api/sync/stream`, {
    headers: { 'x-crux-sync': String(SYNC_PROTOCOL_VERSION), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    signal: abort.signal,
  });
  expect(res.status).toBe(200);
  const events: StreamEvent[] = [];
  const waiters: (() => void)[] = [];
  const parser = createParser({
    onEvent: (message) => {
      events.push(JSON.parse(message.data) as StreamEvent);
      waiters.splice(0).forEach((wake) => wake());
    },
  });
  void (async () => {
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        parser.feed(value);
      }
    } catch {
      // aborted
    }
  })();
  return {
    events,
    async next(check: (event: StreamEvent) => boolean): Promise<StreamEvent> {
      for (;;) {
        const found = events.find(check);
        if (found) return found;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    close: () => abort.abort(),
  };
}
