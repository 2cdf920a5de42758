// Disagree (/api/downvotes) and pass (/api/passes) beside the upvote (/api/upvotes, the agree), against
// the real server and emulator tokens: one vote per person and response, changeable, idempotent,
// `user_has_downvoted` true in REST and the value in the synced vote, and a disagree never costs its
// author a point nor moves a score.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages.js';
import { SYNC_PROTOCOL_VERSION, type PullResponse, type PushResponse, type ResponseDoc, type VoteDoc } from '../../shared/sync-protocol.js';
import type { Response, VoteResult } from '../../shared/types.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { countRows, makeResponse, makeTopic, upvote } from '../fixtures/builders.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

const SYNC = { headers: { 'x-crux-sync': String(SYNC_PROTOCOL_VERSION) } };

describe('disagree and pass', () => {
  let server: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  const as = (user?: TestUser) => apiClient(server.url, user?.token);
  const points = async (user: TestUser) => (await as(user).get<{ points: number; rank: number }>(`/users/${user.uid}/score`)).body;
  const seen = async (user: TestUser | undefined, id: string) => (await as(user).get<Response>(`/responses/${id}`)).body;
  const target = (id: string) => ({ target_type: 'response', target_id: id });
  const stored = async (voter: TestUser, id: string) =>
    await server.db.row<{ value: number; deleted: number }>(
      'SELECT value, deleted FROM votes WHERE voter_uid = ? AND target_type = ? AND target_id = ?',
      voter.uid,
      'response',
      id,
    );
  const pulledVote = async (voter: TestUser, id: string) =>
    (await as(voter).get<PullResponse<VoteDoc>>('/sync/votes/pull?limit=1000', SYNC)).body.documents.find(
      (doc) => doc.id === `response_${id}`,
    );
  const pushVote = (voter: TestUser, doc: Partial<VoteDoc> & { id: string }, assumed?: VoteDoc) =>
    as(voter).post<PushResponse<VoteDoc>>('/sync/votes/push', [{ assumedMasterState: assumed ?? null, newDocumentState: doc }], SYNC);
  const responseDoc = async (topicId: string, id: string) =>
    (await as().get<PullResponse<ResponseDoc>>(`/sync/responses/pull?topic_id=${topicId}&limit=1000`, SYNC)).body.documents
      .filter((doc) => doc.id === id)
      .at(-1)!;

  beforeAll(async () => {
    server = await startTestServer();
    [ada, bob, carol] = await Promise.all([createTestUser('Ada'), createTestUser('Bob'), createTestUser('Carol')]);
  });
  afterAll(() => server.stop());

  it('POST /downvotes → 201, again → 200; the voter (only) sees user_has_downvoted; the score does not move', async () => {
    const topic = await makeTopic(as(ada));
    const response = await makeResponse(as(ada), { topic_id: topic.id });
    const cast = await as(bob).post<VoteResult>('/downvotes', { ...target(response.id), target_creator_uid: ada.uid });
    expect(cast.status).toBe(201);
    expect(cast.body).toEqual({
      target_type: 'response',
      target_id: response.id,
      score: 0,
      user_has_upvoted: false,
      user_has_downvoted: true,
      user_has_passed: false,
    });
    const again = await as(bob).post<VoteResult>('/downvotes', target(response.id));
    expect(again.status).toBe(200);
    expect(again.body).toEqual(cast.body);
    expect(await seen(bob, response.id)).toMatchObject({ score: 0, user_has_upvoted: false, user_has_downvoted: true });
    expect(await seen(carol, response.id)).toMatchObject({ user_has_upvoted: false, user_has_downvoted: false });
    expect(await seen(undefined, response.id)).toMatchObject({ user_has_upvoted: false, user_has_downvoted: false });
    expect(await stored(bob, response.id)).toEqual({ value: -1, deleted: 0 });
    expect(await countRows(server.db, 'votes', 'target_id = ?', response.id)).toBe(1);
  });

  it('an upvote clears the downvote (and the other way round): one row, changed in place', async () => {
    const topic = await makeTopic(as(ada));
    const response = await makeResponse(as(ada), { topic_id: topic.id });
    await as(bob).post('/downvotes', target(response.id));
    const up = await as(bob).post('/upvotes', target(response.id));
    expect(up.status).toBe(201);
    expect(up.body).toEqual({ target_type: 'response', target_id: response.id, score: 1, user_has_upvoted: true });
    expect(await seen(bob, response.id)).toMatchObject({ score: 1, user_has_upvoted: true, user_has_downvoted: false });

    const down = await as(bob).post<VoteResult>('/downvotes', target(response.id));
    expect(down.status).toBe(201);
    expect(down.body).toMatchObject({ score: 0, user_has_upvoted: false, user_has_downvoted: true, user_has_passed: false });
    expect(await countRows(server.db, 'votes', 'target_id = ?', response.id)).toBe(1);
    expect(await stored(bob, response.id)).toEqual({ value: -1, deleted: 0 });
  });

  it('pass: read, no opinion; it replaces a disagree, and each DELETE takes back only its own kind', async () => {
    const topic = await makeTopic(as(ada));
    const response = await makeResponse(as(ada), { topic_id: topic.id });
    await as(bob).post('/downvotes', target(response.id));
    const pass = await as(bob).post<VoteResult>('/passes', target(response.id));
    expect(pass.status).toBe(201);
    expect(pass.body).toMatchObject({ score: 0, user_has_upvoted: false, user_has_downvoted: false, user_has_passed: true });
    expect((await as(bob).post('/passes', target(response.id))).status).toBe(200);
    expect(await stored(bob, response.id)).toEqual({ value: 0, deleted: 0 });

    // DELETE /downvotes and /upvotes leave a pass alone.
    expect((await as(bob).del('/downvotes', target(response.id))).status).toBe(204);
    expect((await as(bob).del('/upvotes', target(response.id))).status).toBe(204);
    expect(await stored(bob, response.id)).toEqual({ value: 0, deleted: 0 });
    expect((await as(bob).del('/passes', target(response.id))).status).toBe(204);
    expect((await stored(bob, response.id))!.deleted).toBe(1);
    expect((await as(bob).del('/passes', target(response.id))).status).toBe(204);

    // DELETE /upvotes leaves a disagree alone; DELETE /downvotes takes it back.
    await as(bob).post('/downvotes', target(response.id));
    expect((await as(bob).del('/upvotes', target(response.id))).status).toBe(204);
    expect(await seen(bob, response.id)).toMatchObject({ user_has_downvoted: true });
    expect((await as(bob).del('/downvotes', target(response.id))).status).toBe(204);
    expect(await seen(bob, response.id)).toMatchObject({ user_has_upvoted: false, user_has_downvoted: false });
  });

  it('a disagree never costs its author a point; changing an agree to a disagree takes back only the agree’s point', async () => {
    const topic = await makeTopic(as(carol));
    const response = await makeResponse(as(carol), { topic_id: topic.id });
    const before = await points(carol);
    await as(ada).post('/downvotes', target(response.id));
    await as(bob).post('/passes', target(response.id));
    expect(await points(carol)).toEqual(before);

    await upvote(as(ada), 'response', response.id);
    expect((await points(carol)).points).toBe(before.points + 1);
    await as(ada).post('/downvotes', target(response.id));
    expect(await points(carol)).toEqual(before);
    expect((await seen(undefined, response.id)).score).toBe(0);

    // Deleting the response takes its votes away: still no point lost for the disagree and the pass.
    await upvote(as(bob), 'response', response.id);
    expect((await points(carol)).points).toBe(before.points + 1);
    expect((await as(carol).del(`/responses/${response.id}`)).status).toBe(204);
    expect(await points(carol)).toEqual(before);
  });

  it('the upvotes by side count agrees only: a voter who changes to disagree leaves the side count', async () => {
    const topic = await makeTopic(as(ada));
    const response = await makeResponse(as(carol), { topic_id: topic.id });
    expect((await as(bob).put(`/topics/${topic.id}/stance`, { stance: 'agree' })).status).toBe(200);
    await upvote(as(bob), 'response', response.id);
    expect(await responseDoc(topic.id, response.id)).toMatchObject({ score: 1, upvotes_agree: 1, upvotes_disagree: 0 });
    await as(bob).post('/downvotes', target(response.id));
    expect(await responseDoc(topic.id, response.id)).toMatchObject({ score: 0, upvotes_agree: 0, upvotes_disagree: 0 });
    await as(bob).post('/passes', target(response.id));
    expect(await responseDoc(topic.id, response.id)).toMatchObject({ score: 0, upvotes_agree: 0, upvotes_disagree: 0 });
  });

  it.each([
    ['a topic', 400, MSG.onlyResponsesTakeOpinionVotes, (topicId: string) => ({ target_type: 'topic', target_id: topicId })],
    ['an unknown response', 404, MSG.targetNotFound, () => target('no-such-response')],
    ['a missing target_id', 400, 'target_id is required.', () => ({ target_type: 'response' })],
    ['an unknown field', 400, 'Unknown field: weight.', () => ({ ...target('x'), weight: 10 })],
  ])('on %s → %d, nothing written', async (_label, status, message, body) => {
    const topic = await makeTopic(as(ada));
    const before = await countRows(server.db, 'votes');
    for (const path of ['/downvotes', '/passes']) {
      for (const res of [await as(bob).post(path, body(topic.id)), await as(bob).del(path, body(topic.id))]) {
        expect(res.status, `${path} ${res.text}`).toBe(status);
        expect(res.body.error).toBe(message);
      }
    }
    expect(await countRows(server.db, 'votes')).toBe(before);
  });

  it('without a token → 401 "You must be logged in to vote."', async () => {
    const topic = await makeTopic(as(ada));
    const response = await makeResponse(as(ada), { topic_id: topic.id });
    for (const path of ['/downvotes', '/passes']) {
      for (const res of [await as().post(path, target(response.id)), await as().del(path, target(response.id))]) {
        expect(res.status).toBe(401);
        expect(res.body.error).toBe(MSG.loginToVote);
      }
    }
    expect(await countRows(server.db, 'votes', 'target_id = ?', response.id)).toBe(0);
  });

  describe('sync', () => {
    it('the pulled vote carries the value (null once taken back) and upvoted for an agree only', async () => {
      const topic = await makeTopic(as(ada));
      const response = await makeResponse(as(ada), { topic_id: topic.id });
      await as(bob).post('/downvotes', target(response.id));
      expect(await pulledVote(bob, response.id)).toMatchObject({ value: -1, upvoted: false, _deleted: false });
      await as(bob).post('/passes', target(response.id));
      expect(await pulledVote(bob, response.id)).toMatchObject({ value: 0, upvoted: false });
      await upvote(as(bob), 'response', response.id);
      expect(await pulledVote(bob, response.id)).toMatchObject({ value: 1, upvoted: true });
      await as(bob).del('/upvotes', target(response.id));
      expect(await pulledVote(bob, response.id)).toMatchObject({ value: null, upvoted: false, _deleted: false });
      expect(await pulledVote(carol, response.id)).toBeUndefined();
    });

    it('a pushed value is cast, changed and taken back; a replayed push changes nothing', async () => {
      const topic = await makeTopic(as(carol));
      const response = await makeResponse(as(carol), { topic_id: topic.id });
      const before = await points(carol);
      const doc = { id: `response_${response.id}`, target_type: 'response' as const, target_id: response.id, topic_id: topic.id };
      const down = await pushVote(bob, { ...doc, upvoted: false, value: -1, updated_at: '', seq: 0, _deleted: false });
      expect(down.body.rejected).toEqual([]);
      const master = down.body.conflicts[0]!;
      expect(master).toMatchObject({ value: -1, upvoted: false });
      expect(await seen(bob, response.id)).toMatchObject({ user_has_downvoted: true, score: 0 });
      expect(await points(carol)).toEqual(before);

      // The same row again (a retry of a row that landed): nothing changes.
      const seqBefore = await server.db.seq();
      await pushVote(bob, { ...doc, upvoted: false, value: -1, updated_at: '', seq: 0, _deleted: false });
      expect(await server.db.seq()).toBe(seqBefore);

      const pass = await pushVote(bob, { ...master, value: 0 }, master);
      expect(pass.body.conflicts[0]).toMatchObject({ value: 0, upvoted: false });
      const none = await pushVote(bob, { ...pass.body.conflicts[0]!, value: null }, pass.body.conflicts[0]);
      expect(none.body.conflicts[0]).toMatchObject({ value: null, upvoted: false });
      expect((await stored(bob, response.id))!.deleted).toBe(1);
    });

    it('a client from before the disagree vote (no value, upvoted only) still agrees and takes it back', async () => {
      const topic = await makeTopic(as(carol));
      const response = await makeResponse(as(carol), { topic_id: topic.id });
      const doc = { id: `response_${response.id}`, target_type: 'response' as const, target_id: response.id, topic_id: topic.id };
      const up = await pushVote(bob, { ...doc, upvoted: true, updated_at: '', seq: 0, _deleted: false });
      expect(up.body.conflicts[0]).toMatchObject({ value: 1, upvoted: true });
      const { value: _value, ...asOldClientHasIt } = up.body.conflicts[0]!;
      const off = await pushVote(bob, { ...asOldClientHasIt, upvoted: false }, asOldClientHasIt);
      expect(off.body.conflicts[0]).toMatchObject({ value: null, upvoted: false });
      expect((await seen(undefined, response.id)).score).toBe(0);
    });

    it('a pushed disagree on a topic is refused (400), never dropped silently', async () => {
      const topic = await makeTopic(as(carol));
      const res = await pushVote(bob, {
        id: `topic_${topic.id}`,
        target_type: 'topic',
        target_id: topic.id,
        topic_id: topic.id,
        upvoted: false,
        value: -1,
        updated_at: '',
        seq: 0,
        _deleted: false,
      });
      expect(res.body.rejected[0]).toMatchObject({ status: 400, error: MSG.onlyResponsesTakeOpinionVotes });
      expect(await countRows(server.db, 'votes', 'target_id = ?', topic.id)).toBe(0);
    });
  });
});
