// Opinion groups on the server, against the real server and store (both engines):
// the background job recomputes a topic marked by its votes, the summary replicates with the topic,
// and no answer, public or signed in, tells one person's group or votes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPINION_GROUPS, type OpinionGroupsSummary } from '../../shared/rules/opinion-groups.js';
import { SYNC_PROTOCOL_VERSION, type PullResponse, type TopicDoc } from '../../shared/sync-protocol.js';
import { startGroupingJob } from '../../sync-server/src/domain/opinion-groups.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { makeResponse, makeTopic, unvote, upvote } from '../fixtures/builders.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

const SYNC = { headers: { 'x-crux-sync': String(SYNC_PROTOCOL_VERSION) } };

describe('opinion groups', () => {
  let server: TestServer;
  let authors: TestUser[];
  let voters: TestUser[];
  const as = (user?: TestUser) => apiClient(server.url, user?.token);
  const topicDoc = async (topicId: string, user?: TestUser) => {
    const res = await as(user).get<PullResponse<TopicDoc>>('/sync/topics/pull?limit=1000', SYNC);
    expect(res.status).toBe(200);
    return res.body.documents.filter((doc) => doc.id === topicId).at(-1)!;
  };
  const summaryOf = async (topicId: string) => JSON.parse((await topicDoc(topicId)).opinion_groups!) as OpinionGroupsSummary;

  beforeAll(async () => {
    server = await startTestServer();
    authors = await Promise.all([createTestUser('Author A'), createTestUser('Author B')]);
    // Voters write nothing: their uid may then appear in no public answer at all.
    voters = await Promise.all(Array.from({ length: 24 }, (_, i) => createTestUser(`Voter ${i}`)));
  });
  afterAll(() => server.stop());

  /**
   * Two planted camps of 12: each upvotes its own three responses and the two shared ones, and
   * disagrees with the other camp's three (a response someone has not voted on tells nothing).
   */
  async function plantedTopic() {
    const topic = await makeTopic(as(authors[0]));
    const make = (author: TestUser, type: string) => makeResponse(as(author), { topic_id: topic.id, type });
    const campA = [await make(authors[0]!, 'for'), await make(authors[0]!, 'for'), await make(authors[1]!, 'for')];
    const campB = [await make(authors[1]!, 'against'), await make(authors[1]!, 'against'), await make(authors[0]!, 'against')];
    const shared = [await make(authors[0]!, 'neutral'), await make(authors[1]!, 'neutral')];
    for (const [i, voter] of voters.entries()) {
      for (const response of [...(i < 12 ? campA : campB), ...shared]) await upvote(as(voter), 'response', response.id);
      for (const response of i < 12 ? campB : campA)
        await as(voter).post('/downvotes', { target_type: 'response', target_id: response.id });
    }
    return { topic, campA, campB, shared };
  }

  it('the job recomputes a topic its votes marked, and the summary replicates with the topic', async () => {
    // No gap (tests): the job's timer is far off, runDue stands for its tick.
    const job = startGroupingJob(server.ctx, { tickMs: 3_600_000, minGapMs: 0 });
    try {
      const { topic, campA, campB, shared } = await plantedTopic();
      const before = await topicDoc(topic.id);
      expect(before.opinion_groups).toBeNull();
      expect(await job.runDue()).toBeGreaterThanOrEqual(1);

      const after = await topicDoc(topic.id);
      expect(after.seq).toBeGreaterThan(before.seq);
      const summary = JSON.parse(after.opinion_groups!) as OpinionGroupsSummary;
      expect(summary).toMatchObject({ version: 1, status: 'groups', participants: 24 });
      expect(summary.groups.map((g) => g.size)).toEqual([12, 12]);
      const camps = summary.groups.map((g) => g.representative.map((r) => r.response_id).sort());
      expect(camps).toContainEqual(campA.map((r) => r.id).sort());
      expect(camps).toContainEqual(campB.map((r) => r.id).sort());
      expect(summary.consensus.map((c) => c.response_id).sort()).toEqual(shared.map((r) => r.id).sort());
      for (const group of summary.groups) for (const r of group.representative) expect(r).toMatchObject({ share: 1, others_share: 0 });

      // A topic vote does not mark the topic's groups.
      await upvote(as(voters[0]), 'topic', topic.id);
      expect(await job.runDue()).toBe(0);
      // Nor does a new response or its edit: an unvoted response is in no one's row (a recompute for
      // every new reply was a tenth of the server's samples in the replies benchmark).
      const late = await makeResponse(as(authors[1]), { topic_id: topic.id, type: 'neutral' });
      expect((await as(authors[1]).put(`/responses/${late.id}`, { content: 'Edited, and still unvoted.' })).status).toBe(200);
      expect(await job.runDue()).toBe(0);
      // Its author deleting a voted response takes its votes out: that marks the topic again.
      const voted = await makeResponse(as(authors[1]), { topic_id: topic.id, type: 'neutral' });
      await upvote(as(voters[1]), 'response', voted.id);
      expect(await job.runDue()).toBe(1);
      expect((await as(authors[1]).del(`/responses/${voted.id}`)).status).toBe(204);
      expect(await job.runDue()).toBe(1);
      // A vote taken back marks it, but nothing moved: the run writes nothing (no new seq to pull).
      await upvote(as(voters[0]), 'response', campB[0]!.id);
      await unvote(as(voters[0]), 'response', campB[0]!.id);
      const unchanged = await topicDoc(topic.id);
      expect(await job.runDue()).toBe(1);
      expect(await topicDoc(topic.id)).toEqual(unchanged);
    } finally {
      await job.stop();
    }
  }, 120_000); // 24 people cast 192 votes through the REST API first

  it('waits for the gap before a topic is computed again', async () => {
    let now = Date.now();
    const job = startGroupingJob(
      { ...server.ctx, clock: () => new Date(now) },
      { tickMs: 3_600_000, minGapMs: OPINION_GROUPS.RECOMPUTE_MS },
    );
    try {
      const topic = await makeTopic(as(authors[0]));
      const responses = [];
      for (let i = 0; i < 3; i++) responses.push(await makeResponse(as(authors[1]), { topic_id: topic.id }));
      for (const r of responses) await upvote(as(voters[0]), 'response', r.id);
      await job.runDue();
      expect(await summaryOf(topic.id)).toMatchObject({ status: 'too-few', participants: 1, groups: [], consensus: [] });

      for (const r of responses) await upvote(as(voters[1]), 'response', r.id);
      await job.runDue(); // marked, but inside the gap
      expect((await summaryOf(topic.id)).participants).toBe(1);
      now += OPINION_GROUPS.RECOMPUTE_MS;
      await job.runDue();
      expect((await summaryOf(topic.id)).participants).toBe(2);
    } finally {
      await job.stop();
    }
  });

  it('a starting job computes the topics voted on while no job heard it (a restart)', async () => {
    const topic = await makeTopic(as(authors[0]));
    const responses = [];
    for (let i = 0; i < 3; i++) responses.push(await makeResponse(as(authors[1]), { topic_id: topic.id }));
    for (const r of responses) await upvote(as(voters[2]), 'response', r.id);
    expect((await topicDoc(topic.id)).opinion_groups).toBeNull();
    const job = startGroupingJob(server.ctx, { tickMs: 3_600_000, minGapMs: 0 });
    try {
      expect(await job.runDue()).toBeGreaterThanOrEqual(1);
      expect(await summaryOf(topic.id)).toMatchObject({ status: 'too-few', participants: 1 });
    } finally {
      await job.stop();
    }
  });

  it('no answer tells one person their group or votes: voters appear nowhere but in their own answers', async () => {
    const job = startGroupingJob(server.ctx, { tickMs: 3_600_000, minGapMs: 0 });
    const { topic, campA } = await plantedTopic();
    await job.runDue();
    await job.stop();
    expect((await summaryOf(topic.id)).status).toBe('groups');

    const stranger = await createTestUser('Stranger');
    const paths = [
      `/topics/${topic.id}`,
      `/topics?limit=100`,
      `/responses?topic_id=${topic.id}`,
      `/responses/${campA[0]!.id}`,
      `/responses/mappings?topic_id=${topic.id}`,
      `/topics/${topic.id}/stances`,
      `/topics/${topic.id}/common-ground`,
      `/users/${authors[0]!.uid}`,
      `/users/leaderboard`,
    ];
    const syncPaths = ['/sync/topics/pull?limit=1000', `/sync/responses/pull?topic_id=${topic.id}&limit=1000`];
    for (const viewer of [undefined, stranger, authors[0]]) {
      for (const path of paths) {
        const res = await as(viewer).get(path);
        expect(res.status, path).toBe(200);
        for (const voter of voters) expect(res.text, `${path} names a voter`).not.toContain(voter.uid);
      }
      for (const path of syncPaths) {
        const res = await as(viewer).get(path, SYNC);
        expect(res.status, path).toBe(200);
        for (const voter of voters) expect(res.text, `${path} names a voter`).not.toContain(voter.uid);
      }
    }
    // A voter's own votes replicate to that voter only; their public page says nothing of groups or votes.
    const votes = await as(stranger).get('/sync/votes/pull?limit=1000', SYNC);
    for (const voter of voters) expect(votes.text).not.toContain(voter.uid);
    const page = await as(stranger).get(`/users/${voters[0]!.uid}`);
    expect(page.text).not.toMatch(/group|upvoted|opinion/i);
    // The summary itself holds sizes, response ids and shares only.
    const summary = await summaryOf(topic.id);
    expect(Object.keys(summary).sort()).toEqual(['consensus', 'groups', 'participants', 'status', 'version']);
    for (const group of summary.groups) expect(Object.keys(group).sort()).toEqual(['representative', 'size']);
  });
});
