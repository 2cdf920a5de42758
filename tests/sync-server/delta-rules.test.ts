// Δ worth what it claims, against the real server on either engine (the server-pg lane
// runs this file on PostgreSQL): persuasion points cannot be minted by flip-flopping, by a first
// push's offline "before", by crediting responses written after the change, or by accounts without
// standing (shared/rules/standing.ts). The server's clock is injected so accounts can age.
import { SYNC_PROTOCOL_VERSION } from '../../shared/sync-protocol.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DELTAS_PER_CHANGE, PERSUASION_POINTS_PER_DELTA } from '../../shared/constants.js';
import { MSG } from '../../shared/messages.js';
import { STANDING_MIN_AGE_DAYS, STANDING_MIN_POINTS } from '../../shared/rules/standing.js';
import type { PullResponse, PushResponse, ResponseDoc, StanceDoc } from '../../shared/sync-protocol.js';
import type { MyStance, UserProfile } from '../../shared/types.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { makeResponse, makeTopic, upvote } from '../fixtures/builders.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

const SYNC = { headers: { 'x-crux-sync': String(SYNC_PROTOCOL_VERSION) } };
const DAY_MS = 24 * 60 * 60 * 1000;

describe('Δ credits that earn persuasion points', () => {
  let server: TestServer;
  /** How far the server's clock runs ahead of the real one. */
  let ahead = 0;
  const advance = (ms: number) => {
    ahead += ms;
  };
  let ada: TestUser; // the author
  let bob: TestUser; // a creditor with standing
  let dave: TestUser; // old enough, but without points
  const as = (user?: TestUser) => apiClient(server.url, user?.token);
  const put = (user: TestUser, topicId: string, body: unknown) =>
    as(user).put<MyStance & { error?: string }>(`/topics/${topicId}/stance`, body);
  const persuasion = async (user: TestUser) => (await as().get<UserProfile>(`/users/${user.uid}`)).body.persuasion_points;
  const points = async (user: TestUser) => (await as().get<UserProfile>(`/users/${user.uid}`)).body.points;
  const deltaCount = async (topicId: string, id: string) => {
    const res = await as().get<PullResponse<ResponseDoc>>(`/sync/responses/pull?topic_id=${topicId}&limit=1000`, SYNC);
    return res.body.documents.filter((doc) => doc.id === id).at(-1)!.delta_count;
  };
  const pushStance = (user: TestUser, doc: Partial<StanceDoc> & { id: string }, assumed: StanceDoc | null = null) =>
    as(user).post<PushResponse<StanceDoc>>(
      '/sync/stances/push',
      [{ assumedMasterState: assumed, newDocumentState: { topic_id: doc.id, credits: [], history: [], seq: 0, _deleted: false, ...doc } }],
      SYNC,
    );
  /** Fresh responses by the author in the topic. */
  const fresh = (topicId: string, n: number) => Promise.all(Array.from({ length: n }, () => makeResponse(as(ada), { topic_id: topicId })));

  beforeAll(async () => {
    server = await startTestServer({ clock: () => new Date(Date.now() + ahead) });
    const voters = await Promise.all(Array.from({ length: STANDING_MIN_POINTS }, (_, i) => createTestUser(`Voter ${i}`)));
    [ada, bob, dave] = await Promise.all([createTestUser('Ada'), createTestUser('Bob'), createTestUser('Dave')]);
    // Bob earns the points standing needs (upvotes by others on his topic); Dave is only seen.
    const bobs = await makeTopic(as(bob));
    for (const voter of voters) await upvote(as(voter), 'topic', bobs.id);
    await makeTopic(as(dave));
    await makeTopic(as(ada));
    // Both accounts are now older than standing asks.
    advance((STANDING_MIN_AGE_DAYS + 1) * DAY_MS);
    expect(await points(bob)).toBeGreaterThanOrEqual(STANDING_MIN_POINTS);
    expect(await points(dave)).toBeLessThan(STANDING_MIN_POINTS);
  });
  afterAll(() => server.stop());

  it('two accounts flipping again and again, crediting fresh responses, earn one Δ per creditor and topic', async () => {
    const before = await persuasion(ada);
    const topics = [await makeTopic(as(dave)), await makeTopic(as(dave))];
    for (const topic of topics) {
      await put(bob, topic.id, { stance: 'agree' });
      for (const stance of ['disagree', 'agree', 'disagree', 'agree', 'unsure', 'agree'] as const) {
        const responses = await fresh(topic.id, MAX_DELTAS_PER_CHANGE);
        const res = await put(bob, topic.id, { stance, credits: responses.map((r) => r.id) });
        expect(res.status, res.text).toBe(200);
        // Every creditor still shows on the response.
        expect(await deltaCount(topic.id, responses[0]!.id)).toBe(1);
      }
    }
    // Today's code: 2 topics × 6 changes × 3 responses × 5 = 180 points. The rule: one per topic.
    expect(await persuasion(ada)).toBe(before + topics.length * PERSUASION_POINTS_PER_DELTA);
  });

  it('a first push’s offline "before" is shown, but opens no credit window: its credit earns nothing', async () => {
    const topic = await makeTopic(as(dave));
    const [r1, r2, r3] = await fresh(topic.id, 3);
    const before = await persuasion(ada);
    const pushed = await pushStance(bob, { id: topic.id, stance: 'disagree', first_stance: 'agree', credits: [r1!.id] });
    expect(pushed.body.rejected).toEqual([]);
    const landed = pushed.body.conflicts[0]!;
    expect(landed).toMatchObject({ stance: 'disagree', first_stance: 'agree', credits: [r1!.id] });
    expect(await deltaCount(topic.id, r1!.id)).toBe(1);
    expect(await persuasion(ada)).toBe(before);
    // Replacing that change's credits, by REST or push, earns nothing either.
    expect((await put(bob, topic.id, { stance: 'disagree', credits: [r2!.id] })).status).toBe(200);
    expect(await persuasion(ada)).toBe(before);
    // A change the server saw does.
    const changed = await put(bob, topic.id, { stance: 'unsure', credits: [r3!.id] });
    expect(changed.status, changed.text).toBe(200);
    expect(await persuasion(ada)).toBe(before + PERSUASION_POINTS_PER_DELTA);
  });

  it('refuses to credit a response written after the change (REST and push), with its message', async () => {
    const topic = await makeTopic(as(dave));
    const [older] = await fresh(topic.id, 1);
    await put(bob, topic.id, { stance: 'agree' });
    const changed = await put(bob, topic.id, { stance: 'disagree' });
    expect(changed.status).toBe(200);
    advance(1000);
    const [newer] = await fresh(topic.id, 1);
    const before = await persuasion(ada);

    const rest = await put(bob, topic.id, { stance: 'disagree', credits: [newer!.id] });
    expect(rest.status).toBe(400);
    expect(rest.body.error).toBe(MSG.deltaAfterChange);
    const master = (await as(bob).get<MyStance>(`/topics/${topic.id}/stance`)).body;
    const assumed = { id: topic.id, ...master, seq: 0, _deleted: false } as StanceDoc;
    const pushed = await pushStance(bob, { ...assumed, credits: [newer!.id] }, assumed);
    expect(pushed.body.rejected[0]).toMatchObject({ status: 400 });
    expect(await deltaCount(topic.id, newer!.id)).toBe(0);
    expect(await persuasion(ada)).toBe(before);

    // One written before the change is credited.
    const ok = await put(bob, topic.id, { stance: 'disagree', credits: [older!.id] });
    expect(ok.status, ok.text).toBe(200);
    expect(await persuasion(ada)).toBe(before + PERSUASION_POINTS_PER_DELTA);
  });

  it('a creditor without standing (a new account, or an old one without points) earns the author no points; one with standing does', async () => {
    const carol = await createTestUser('Carol'); // seen for the first time now
    const topic = await makeTopic(as(dave));
    const [response] = await fresh(topic.id, 1);
    const before = await persuasion(ada);
    for (const creditor of [carol, dave]) {
      await put(creditor, topic.id, { stance: 'agree' });
      const res = await put(creditor, topic.id, { stance: 'disagree', credits: [response!.id] });
      expect(res.status, res.text).toBe(200);
    }
    // Both show on the response; neither moves the author's points.
    expect(await deltaCount(topic.id, response!.id)).toBe(2);
    expect(await persuasion(ada)).toBe(before);

    await put(bob, topic.id, { stance: 'agree' });
    expect((await put(bob, topic.id, { stance: 'disagree', credits: [response!.id] })).status).toBe(200);
    expect(await deltaCount(topic.id, response!.id)).toBe(3);
    expect(await persuasion(ada)).toBe(before + PERSUASION_POINTS_PER_DELTA);
  });
});
