// A real Polis conversation loaded through Crux's REST API (brexit-consensus,
// tests/data/polis, CC BY 4.0): each participant an account, each comment a response, each vote an
// agree, disagree or pass. The grouping job's summary on the topic must show the groups Polis published:
// the groups the job computed from what the store holds are compared with Polis's (adjusted Rand index),
// and the replicated summary carries exactly those groups' sizes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OPINION_GROUPS, voteMatrix, type OpinionGroupsSummary } from '../../shared/rules/opinion-groups.js';
import { groupParticipants } from '../../shared/rules/polis-groups.js';
import { SYNC_PROTOCOL_VERSION, type PullResponse, type TopicDoc } from '../../shared/sync-protocol.js';
import { startGroupingJob } from '../../sync-server/src/domain/opinion-groups.js';
import { readRateLimits } from '../../sync-server/src/http/rate-limit.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { makeTopic } from '../fixtures/builders.js';
import { adjustedRand, loadPolis } from '../fixtures/polis.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

const NAME = 'brexit-consensus';
const SYNC = { headers: { 'x-crux-sync': String(SYNC_PROTOCOL_VERSION) } };
const CALL = { 1: '/upvotes', [-1]: '/downvotes', 0: '/passes' } as const;

/** The comments' texts (brexit-consensus keeps them), by comment id. */
function commentTexts(): Map<string, string> {
  const file = join(dirname(fileURLToPath(import.meta.url)), '..', 'data', 'polis', NAME, 'comments.csv');
  const texts = new Map<string, string>();
  // One comment per line; the text is the last field, quoted when it holds a comma.
  for (const line of readFileSync(file, 'utf8').split(/\r?\n/).slice(1)) {
    const match = /^[^,]*,[^,]*,([^,]*),[^,]*,[^,]*,[^,]*,[^,]*,(.*)$/.exec(line);
    if (match) texts.set(match[1]!, match[2]!.replace(/^"|"$/g, '').replace(/""/g, '"'));
  }
  return texts;
}

/** Runs `work` on every item, `width` at a time. */
async function inBatches<T>(items: readonly T[], width: number, work: (item: T, index: number) => Promise<void>) {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map((item, j) => work(item, i + j)));
}

describe('opinion groups of a real Polis conversation loaded through the REST API', () => {
  const conversation = loadPolis(NAME);
  let server: TestServer;
  let author: TestUser;
  const accounts = new Map<string, TestUser>();
  let topicId = '';
  const as = (user?: TestUser) => apiClient(server.url, user?.token);

  beforeAll(async () => {
    // Thousands of votes from one address in a minute: the per-address limits would refuse them.
    server = await startTestServer({ rateLimits: readRateLimits({ RATE_LIMITS: 'off' }) });
    author = await createTestUser('Polis comments');
    const topic = await makeTopic(as(author));
    topicId = topic.id;
    const texts = commentTexts();
    const responseOf = new Map<string, string>();
    for (const comment of conversation.comments) {
      const res = await as(author).post<{ id: string }>('/responses', {
        topic_id: topicId,
        type: 'neutral',
        content: texts.get(comment) ?? `Comment ${comment}`,
      });
      expect(res.status, res.text).toBe(201);
      responseOf.set(comment, res.body.id);
    }
    await inBatches(conversation.participants, 20, async (p) => {
      accounts.set(p.id, await createTestUser(`Polis ${p.id}`));
    });
    await inBatches(conversation.participants, 10, async (p) => {
      const api = as(accounts.get(p.id));
      for (const [comment, value] of p.votes) {
        const res = await api.post(CALL[value], { target_type: 'response', target_id: responseOf.get(comment)! });
        expect([200, 201], res.text).toContain(res.status);
      }
    });
  }, 900_000);
  afterAll(() => server?.stop());

  it("the topic's summary shows the groups Polis published", async () => {
    const job = startGroupingJob(server.ctx, { tickMs: 3_600_000, minGapMs: 0 });
    try {
      await job.runDue();
    } finally {
      await job.stop();
    }
    const pulled = await as(author).get<PullResponse<TopicDoc>>('/sync/topics/pull?limit=1000', SYNC);
    const doc = pulled.body.documents.filter((d) => d.id === topicId).at(-1)!;
    const summary = JSON.parse(doc.opinion_groups!) as OpinionGroupsSummary;
    const counted = conversation.participants.filter((p) => p.votes.size >= OPINION_GROUPS.MIN_VOTES);
    expect(summary).toMatchObject({ status: 'groups', participants: counted.length });

    // The groups behind the summary: the job's own computation on what the store holds.
    const { voters, matrix, counted: isCounted } = voteMatrix(await server.ctx.store.groups.votes(topicId));
    const found = groupParticipants(matrix, isCounted, OPINION_GROUPS.MIN_GROUP_SIZE, OPINION_GROUPS.SEED)!;
    const sizes = [...Array(found.k).keys()].map((g) => found.labels.filter((l) => l === g).length).sort((a, b) => b - a);
    expect(summary.groups.map((g) => g.size)).toEqual(sizes);
    const groupOf = new Map(voters.map((uid, i) => [uid, found.labels[i]!]));
    const both = conversation.participants.filter((p) => p.group !== null && groupOf.has(accounts.get(p.id)!.uid));
    expect(both.length).toBeGreaterThan(150);
    const ari = adjustedRand(
      both.map((p) => p.group!),
      both.map((p) => groupOf.get(accounts.get(p.id)!.uid)!),
    );
    expect(ari).toBeGreaterThanOrEqual(0.8);
  });
});
