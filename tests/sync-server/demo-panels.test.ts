// The demo debates show every panel of the topic page: seeded into a real store (SQLite, or
// PostgreSQL on the server-pg lane) as `npm start` seeds them, then read back through the server's
// own answers (the sync pulls a device keeps, the stances and common-ground endpoints) and run
// through the rules the panels run: the strongest case has an argument on each side of every
// debate, and the free-transport debate has opinion groups, a common-ground response, a Δ and a
// restated point the "already said" hint catches.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../sync-server/src/app.js';
import { demoResponseTexts, seedDemoIfEmpty } from '../../sync-server/src/seed/demo.js';
import type { CommonGroundEntry, TopicStances } from '../../shared/types.js';
import type { ResponseDoc, TopicDoc } from '../../shared/sync-protocol.js';
import { parseOpinionGroups } from '../../shared/rules/opinion-groups.js';
import { strongestCase } from '../../shared/rules/strongest-case.js';
import { buildSimilarityIndex } from '../../shared/rules/similarity.js';
import { openTestStore, type TestStore } from '../fixtures/test-db.js';

const TRANSPORT = 'Should cities make public transport free at the point of use?';

let testStore: TestStore;
let app: ReturnType<typeof createApp>['app'];

async function get<T>(path: string): Promise<T> {
  const answer = await app.request(path);
  expect(answer.status, path).toBe(200);
  return (await answer.json()) as T;
}

/** Every topic as a device keeps it (TopicDoc: counts and the opinion groups summary). */
async function topics(): Promise<TopicDoc[]> {
  const listed = await get<{ documents: TopicDoc[] }>('/api/sync/topics/page?sort=new&limit=50');
  return listed.documents;
}

/** A topic's responses as a device pulls them: what the strongest case and the hint read. */
async function responsesOf(topicId: string): Promise<ResponseDoc[]> {
  const pulled = await get<{ documents: ResponseDoc[] }>(`/api/sync/responses/pull?topic_id=${topicId}&id=&seq=0&limit=1000`);
  return pulled.documents.filter((doc) => !doc._deleted);
}

beforeAll(async () => {
  testStore = await openTestStore();
  const created = createApp({
    store: testStore.store,
    verifier: { verify: () => Promise.reject(new Error('no tokens here')) },
    log: () => {},
  });
  app = created.app;
  expect(await seedDemoIfEmpty(created.ctx)).toBe(true);
}, 60_000);

afterAll(async () => {
  await testStore?.close();
});

describe('the demo debates fill the topic page', () => {
  it('every debate has stances on both sides and a strongest argument for each side', async () => {
    const all = await topics();
    expect(all).toHaveLength(demoResponseTexts().length);
    for (const topic of all) {
      const stances = await get<TopicStances>(`/api/topics/${topic.id}/stances`);
      expect(stances.agree, topic.title).toBeGreaterThan(0);
      expect(stances.disagree, topic.title).toBeGreaterThan(0);
      const best = strongestCase(await responsesOf(topic.id), { agree: stances.agree, disagree: stances.disagree });
      expect(best.for.length, `${topic.title}: for`).toBeGreaterThan(0);
      expect(best.against.length, `${topic.title}: against`).toBeGreaterThan(0);
    }
  });

  it('the free-transport debate has clear opinion groups of twelve or more voters', async () => {
    const topic = (await topics()).find((t) => t.title === TRANSPORT)!;
    const summary = parseOpinionGroups(topic.opinion_groups);
    expect(summary?.status).toBe('groups');
    expect(summary!.participants).toBeGreaterThanOrEqual(12);
    expect(summary!.groups.length).toBeGreaterThanOrEqual(2);
    // Each group is set apart by something it approves.
    for (const group of summary!.groups) expect(group.representative.length).toBeGreaterThan(0);
  });

  it('the free-transport debate has a common-ground response and a response credited with Δ', async () => {
    const topic = (await topics()).find((t) => t.title === TRANSPORT)!;
    const ranked = await get<CommonGroundEntry[]>(`/api/topics/${topic.id}/common-ground`);
    const byId = new Map((await responsesOf(topic.id)).map((r) => [r.id, r]));
    const common = ranked.filter((entry) => entry.common_ground).map((entry) => byId.get(entry.response_id)!.content);
    expect(common).toEqual([expect.stringMatching(/^Whatever the price, frequency decides/)]);
    const credited = [...byId.values()].filter((r) => r.delta_count > 0).map((r) => r.content);
    expect(credited).toEqual([expect.stringMatching(/^Tallinn has run fare-free transit/)]);
    const stances = await get<TopicStances>(`/api/topics/${topic.id}/stances`);
    expect(stances.minds_changed).toBe(1);
  });

  it('the restated point is caught as already said, and no other demo response flags another', async () => {
    for (const topic of await topics()) {
      const responses = await responsesOf(topic.id);
      const index = buildSimilarityIndex(responses, (r) => r.content);
      const pairs = responses.flatMap((r) =>
        index.similarTo(r.content, { exclude: (other) => other.id === r.id }).map((match) => [r.content, match.item.content].sort()),
      );
      const expected =
        topic.title === TRANSPORT
          ? [
              [
                'Fares fund a large share of operating costs. Without them, service frequency is the first thing cut in a budget squeeze.',
                'Fares pay for a big share of running costs. Take them away and frequency is the first thing to be cut when the budget gets squeezed.',
              ],
            ]
          : [];
      // Each pair once from either side.
      expect(pairs.length, topic.title).toBe(expected.length * 2);
      expect(new Set(pairs.map((pair) => JSON.stringify(pair))), topic.title).toEqual(
        new Set(expected.map((pair) => JSON.stringify(pair))),
      );
    }
  });

  it('seeds once: a second start leaves the site as it was', async () => {
    const before = await topics();
    const ctx = createApp({
      store: testStore.store,
      verifier: { verify: () => Promise.reject(new Error('no tokens here')) },
      log: () => {},
    }).ctx;
    expect(await seedDemoIfEmpty(ctx)).toBe(false);
    expect(await topics()).toEqual(before);
  });
});
