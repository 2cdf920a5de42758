// A new device's first sync costs the server the same whatever the number of topics: it reads the
// page of the list it shows (GET /api/sync/topics/page) and pulls the topics it keeps by id (POST
// /api/sync/topics/pull), never every topic from a checkpoint. Measured as the topic rows the store
// answers for those calls, on a site of 1,000 topics and again once it holds 6,000.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES, PAGE_SIZE } from '../../shared/constants.js';
import type { TopicsAnswer } from '../../shared/sync-protocol.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { makeTopic } from '../fixtures/builders.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

describe('a first sync reads a bounded number of rows', () => {
  let server: TestServer;
  let ada: TestUser;
  let made = 0;
  let rowsRead = 0;

  /** Adds topics straight into the store until the site holds `total`. */
  async function growTo(total: number) {
    const base = Date.parse('2026-01-01T00:00:00.000Z');
    await server.store.transaction(async () => {
      for (; made < total; made++) {
        await server.store.topics.insert({
          id: `bounded-${String(made).padStart(6, '0')}`,
          title: `Bounded topic ${made}`,
          category: CATEGORIES[made % CATEGORIES.length]!,
          creator_uid: ada.uid,
          created_at: new Date(base + made * 1000).toISOString(),
          seq: await server.store.nextSeq(),
        });
      }
    });
  }

  /** What a new device asks for when it opens `/` and then keeps the topics fresh; the rows it cost. */
  async function firstSync() {
    const anon = apiClient(server.url);
    rowsRead = 0;
    const page = await anon.get<TopicsAnswer>(`/sync/topics/page?sort=hot&limit=${PAGE_SIZE}&offset=0`);
    expect(page.status).toBe(200);
    expect(page.body.documents).toHaveLength(PAGE_SIZE);
    const kept = Object.fromEntries(page.body.documents.map((doc) => [doc.id, doc.seq]));
    // The kept topics pulled again as the live stream connects: nothing newer, nothing sent.
    const pull = await anon.post<TopicsAnswer>('/sync/topics/pull', { topics: kept });
    expect(pull.status).toBe(200);
    expect(pull.body.documents).toEqual([]);
    // A topic the device never had comes in full.
    const fresh = await anon.post<TopicsAnswer>('/sync/topics/pull', { topics: { 'bounded-000000': 0 } });
    expect(fresh.body.documents.map((doc) => doc.id)).toEqual(['bounded-000000']);
    return rowsRead;
  }

  beforeAll(async () => {
    server = await startTestServer();
    ada = await createTestUser('Ada');
    await makeTopic(apiClient(server.url, ada.token), { title: 'Who writes the first topic?' });
    // Every topic row the store answers, whichever read it came from.
    const topics = server.store.topics as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    for (const name of ['list', 'search', 'get', 'changesSince'] as const) {
      const read = topics[name]!.bind(topics);
      topics[name] = async (...args: unknown[]) => {
        const answer = await read(...args);
        rowsRead += Array.isArray(answer) ? answer.length : answer ? 1 : 0;
        return answer;
      };
    }
  }, 120_000);
  afterAll(() => server.stop());

  // Growing the site is 12,000 statements, each a round trip on PostgreSQL: more than the default 30 s there.
  it('costs the same rows at 1,000 and at 6,000 topics, and never pulls the site', { timeout: 240_000 }, async () => {
    await growTo(1_000);
    const small = await firstSync();
    await growTo(6_000);
    const large = await firstSync();
    expect(large).toBe(small);
    // One page, one row per kept topic, and the one fresh topic.
    expect(small).toBe(2 * PAGE_SIZE + 1);
  });

  it('refuses more kept ids than one pull takes, and answers a deleted topic as its tombstone', async () => {
    const anon = apiClient(server.url);
    const many = Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`bounded-${String(i).padStart(6, '0')}`, 0]));
    expect((await anon.post('/sync/topics/pull', { topics: many })).status).toBe(400);
    const doomed = await makeTopic(apiClient(server.url, ada.token), { title: 'Soon to be deleted' });
    expect((await apiClient(server.url, ada.token).del(`/topics/${doomed.id}`)).status).toBe(204);
    const answer = await anon.post<TopicsAnswer>('/sync/topics/pull', { topics: { [doomed.id]: 1 } });
    expect(answer.body.documents).toEqual([expect.objectContaining({ id: doomed.id, _deleted: true })]);
    expect(answer.body.documents[0]).not.toHaveProperty('title');
  });
});
