// The server's hot paths stay correct once fast: verified tokens are
// remembered until they expire (and the account check still applies), counters are
// maintained instead of recounted (and equal a recount), a push is one transaction that
// still answers row by row, a page of responses reads its sources in one query, and a
// title search has a plan that does not rank every match (the plan: SQLite only; the rest runs
// on the lane's engine, PostgreSQL in server-pg).
import { describe, expect, it, vi } from 'vitest';
import { createTokenVerifier, DEFAULT_STATUS_CACHE_MS, type AuthBackend } from '../../sync-server/src/auth/verifier.js';
import { createChangeFeed } from '../../sync-server/src/domain/change-feed.js';
import type { DomainContext } from '../../sync-server/src/domain/context.js';
import { createResponse, deleteResponse, rootResponsesPage } from '../../sync-server/src/domain/responses.js';
import { topicStances } from '../../sync-server/src/domain/common-ground.js';
import { createTopic, deleteTopic, listTopics } from '../../sync-server/src/domain/topics.js';
import { rememberUser } from '../../sync-server/src/domain/users.js';
import { setVote } from '../../sync-server/src/domain/votes.js';
import { push } from '../../sync-server/src/sync/push.js';
import type { SqliteStore } from '../../sync-server/src/store/sqlite/store.js';
import { openTestStore } from '../fixtures/test-db.js';
import { hotScore } from '../../shared/rules/hot.js';
import { SORTS } from '../../shared/constants.js';

const users = ['ada', 'bob', 'cy', 'dee'].map((uid) => ({ uid, name: uid.toUpperCase(), email: null }));

async function setup() {
  const testStore = await openTestStore();
  const { db, store } = testStore;
  let ids = 0;
  let ms = Date.UTC(2026, 0, 1);
  const ctx: DomainContext = {
    store,
    clock: () => new Date((ms += 1000)),
    newId: () => `id-${++ids}`,
    changes: createChangeFeed(),
  };
  for (const user of users) await rememberUser(ctx, user);
  return { db, store, ctx, testStore };
}

describe('verified tokens are remembered until they expire', () => {
  function backend(exp: number) {
    const calls = { verify: 0, getUser: 0 };
    const state = { disabled: false, tokensValidAfterTime: undefined as string | undefined };
    const auth: AuthBackend = {
      verifyIdToken: async (token) => {
        calls.verify++;
        if (token !== 't') throw new Error('forged');
        return { uid: 'u1', auth_time: 1_000, exp, name: 'Ada', email: 'ada@example.com' };
      },
      getUser: async () => {
        calls.getUser++;
        return { ...state };
      },
    };
    return { auth, calls, state };
  }

  it('a token is verified once, then again only after its exp', async () => {
    let now = 1_000_000;
    const { auth, calls } = backend(2_000); // exp 2,000 s
    const verifier = createTokenVerifier(auth, { now: () => now });
    for (let i = 0; i < 5; i++) await expect(verifier.verify('t')).resolves.toMatchObject({ uid: 'u1', name: 'Ada' });
    expect(calls.verify).toBe(1);
    now = 2_000_000; // the token's exp: verified again (firebase-admin refuses it then)
    await verifier.verify('t');
    expect(calls.verify).toBe(2);
    await expect(verifier.verify('other')).rejects.toThrow(/forged/);
    await expect(verifier.verify('other')).rejects.toThrow(/forged/);
    expect(calls.verify).toBe(4); // a refused token is never remembered
  });

  it('a remembered token of a disabled or revoked account is refused within the status window', async () => {
    let now = 1_000_000;
    const { auth, calls, state } = backend(10_000);
    const verifier = createTokenVerifier(auth, { now: () => now });
    await verifier.verify('t');
    state.disabled = true;
    now += DEFAULT_STATUS_CACHE_MS - 1; // still inside the window: the cached state
    await expect(verifier.verify('t')).resolves.toMatchObject({ uid: 'u1' });
    now += 1;
    await expect(verifier.verify('t')).rejects.toThrow(/disabled/);
    state.disabled = false;
    state.tokensValidAfterTime = new Date(5_000_000).toUTCString(); // sessions revoked after auth_time
    now += DEFAULT_STATUS_CACHE_MS;
    await expect(verifier.verify('t')).rejects.toThrow(/revoked/);
    expect(calls.verify).toBe(1);
    expect(calls.getUser).toBe(3);
  });

  it('the cache is bounded (least recently used forgotten first)', async () => {
    const calls = { verify: 0 };
    const auth: AuthBackend = {
      verifyIdToken: async (token) => {
        calls.verify++;
        return { uid: token, auth_time: 1, exp: 4_000_000_000 };
      },
      getUser: async () => ({ disabled: false }),
    };
    const verifier = createTokenVerifier(auth, { maxCachedTokens: 2, checkAccountStatus: false, now: () => 0 });
    await verifier.verify('a');
    await verifier.verify('b');
    await verifier.verify('a');
    await verifier.verify('c'); // forgets b
    expect(calls.verify).toBe(3);
    await verifier.verify('a');
    expect(calls.verify).toBe(3);
    await verifier.verify('b');
    expect(calls.verify).toBe(4);
  });
});

describe('maintained counters', () => {
  // Hundreds of operations on PostgreSQL with a busy machine take past Vitest's default 30 s.
  it('equal a full recount after a random mix of creates, deletes and votes', { timeout: 240_000 }, async () => {
    const { db, ctx, store, testStore } = await setup();
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const topics: string[] = [];
    const responses: { id: string; creator: string }[] = [];
    for (let step = 0; step < 600; step++) {
      const actor = users[random(users.length)]!;
      const action = random(10);
      // One query each for what is still live (a read per item was a round trip each on PostgreSQL:
      // tens of thousands over the run), kept in creation order so the random picks stay the same.
      const topicsLive = new Set((await db.rows<{ id: string }>('SELECT id FROM topics WHERE deleted = 0')).map((t) => t.id));
      const responsesLive = new Set((await db.rows<{ id: string }>('SELECT id FROM responses WHERE deleted = 0')).map((r) => r.id));
      const liveTopics = topics.filter((id) => topicsLive.has(id));
      const liveResponses = responses.filter((r) => responsesLive.has(r.id));
      try {
        if (action === 0 || liveTopics.length === 0) {
          topics.push((await createTopic(ctx, actor, { title: `Topic ${step}`, categories: ['Science'] })).id);
        } else if (action <= 3) {
          const parent = liveResponses.length > 0 && random(2) === 0 ? liveResponses[random(liveResponses.length)]! : null;
          const input = parent
            ? { parent_response_id: parent.id, type: 'for' as const, content: `Reply ${step}` }
            : { topic_id: liveTopics[random(liveTopics.length)]!, type: 'against' as const, content: `Root ${step}` };
          responses.push({ id: (await createResponse(ctx, actor, input)).id, creator: actor.uid });
        } else if (action <= 7) {
          const onTopic = random(3) === 0 || liveResponses.length === 0;
          const target = onTopic ? liveTopics[random(liveTopics.length)]! : liveResponses[random(liveResponses.length)]!.id;
          await setVote(ctx, actor, onTopic ? 'topic' : 'response', target, random(3) !== 0);
        } else if (action === 8 && liveResponses.length > 0) {
          const victim = liveResponses[random(liveResponses.length)]!;
          await deleteResponse(
            ctx,
            users.find((u) => u.uid === victim.creator)!,
            victim.id,
          );
        } else if (action === 9 && liveTopics.length > 3 && random(4) === 0) {
          const id = liveTopics[random(liveTopics.length)]!;
          const creator = (await store.topics.get(id, null))!.creator_uid;
          await deleteTopic(
            ctx,
            users.find((u) => u.uid === creator)!,
            id,
          );
        }
      } catch (error) {
        if (!(error instanceof Error) || !/not|own/i.test(error.message)) throw error;
      }
    }
    const topicDrift = await db.rows<{
      id: string;
      score: number;
      responses_count: number;
      hot: number;
      created_at: string;
      real_score: number;
      real_responses: number;
    }>(
      `SELECT t.id, t.score, t.responses_count, t.hot, t.created_at,
           (SELECT count(*) FROM votes v WHERE v.target_type = 'topic' AND v.target_id = t.id AND v.deleted = 0) AS real_score,
           (SELECT count(*) FROM responses r WHERE r.topic_id = t.id AND r.deleted = 0) AS real_responses
         FROM topics t WHERE t.deleted = 0`,
    );
    expect(topicDrift.length).toBeGreaterThan(3);
    for (const row of topicDrift) {
      expect({ id: row.id, score: row.score, responses: row.responses_count }).toEqual({
        id: row.id,
        score: row.real_score,
        responses: row.real_responses,
      });
      expect(row.hot).toBe(hotScore(row.real_score, row.real_responses, row.created_at));
    }
    const responseDrift = await db.rows(
      `SELECT * FROM (SELECT r.id, r.score, r.comment_count,
           (SELECT count(*) FROM votes v WHERE v.target_type = 'response' AND v.target_id = r.id AND v.deleted = 0) AS real_score,
           (SELECT count(*) FROM responses c WHERE c.parent_response_id = r.id AND c.deleted = 0) AS real_comments
         FROM responses r WHERE r.deleted = 0) AS counted WHERE score <> real_score OR comment_count <> real_comments`,
    );
    expect(responseDrift).toEqual([]);
    const pointsDrift = await db.rows(
      `SELECT * FROM (SELECT uid, points,
           (SELECT count(*) FROM votes WHERE target_creator_uid = users.uid AND voter_uid <> users.uid AND deleted = 0) AS counted
         FROM users) AS u WHERE points <> counted`,
    );
    expect(pointsDrift).toEqual([]);
    expect((await db.row<{ n: number }>('SELECT count(*) AS n FROM responses'))!.n).toBeGreaterThan(20);
    await testStore.close();
  });
});

describe('sync push applies a batch in one transaction', () => {
  const topicDoc = (id: string, title: string, category = 'Science') => ({
    newDocumentState: {
      id,
      title,
      category,
      creator_uid: 'ada',
      username: null,
      created_at: '',
      score: 0,
      responses_count: 0,
      seq: 0,
      _deleted: false,
    },
  });

  it('one write transaction for the batch, a refused row answered alone, a retry recognised', async () => {
    const { store, ctx, testStore } = await setup();
    let depth = 0;
    let outer = 0;
    const transaction = store.transaction;
    const transactionEach = store.transactionEach;
    // A top-level call either way: transactionEach commits its items together (the store contract).
    const counted = async <T>(run: () => Promise<T>): Promise<T> => {
      if (depth === 0) outer++;
      depth++;
      try {
        return await run();
      } finally {
        depth--;
      }
    };
    ctx.store = {
      ...store,
      transaction: <T>(fn: () => Promise<T>) => counted(() => transaction(fn)),
      transactionEach: <I, R>(items: readonly I[], fn: (item: I) => Promise<R>) => counted(() => transactionEach(items, fn)),
    };
    const ada = users[0]!;
    const rows = [topicDoc('p1', 'One'), topicDoc('p2', 'Two', 'Not a category'), topicDoc('p3', 'Three')];
    const first = await push(ctx, ada, 'topics', rows as any);
    expect(outer).toBe(1);
    expect(first.rejected.map((r) => r.id)).toEqual(['p2']);
    expect(first.rejected[0]!.status).toBe(400);
    // Applied rows answer with the server's state, as before (the contract of pushOne).
    expect(first.conflicts.map((doc) => doc.id)).toEqual(['p1', 'p3']);
    expect((await store.topics.get('p1', null))?.title).toBe('One');
    expect(await store.topics.get('p2', null)).toBeUndefined();
    expect((await store.topics.get('p3', null))?.title).toBe('Three');
    // The retry of the same batch: the landed rows answer with the server's state, nothing twice.
    const retry = await push(ctx, ada, 'topics', rows as any);
    expect(retry.conflicts.map((doc) => doc.id).sort()).toEqual(['p1', 'p3']);
    expect(retry.rejected.map((r) => r.id)).toEqual(['p2']);
    expect((await listTopics(ctx, { sort: 'new', limit: 50, offset: 0 }, null)).filter((t) => t.id === 'p1')).toHaveLength(1);
    await testStore.close();
  });

  it('an unexpected error keeps the rows before it and fails the request', async () => {
    const { store, ctx, testStore } = await setup();
    const ada = users[0]!;
    const insert = store.topics.insert;
    store.topics.insert = async (row) => {
      if (row.id === 'boom') throw new Error('disk on fire');
      return insert(row);
    };
    await expect(push(ctx, ada, 'topics', [topicDoc('ok', 'Fine'), topicDoc('boom', 'Bad')] as any)).rejects.toThrow(/disk on fire/);
    expect((await store.topics.get('ok', null))?.title).toBe('Fine');
    await testStore.close();
  });
});

describe('a page of responses reads its sources in one query', () => {
  it('no query per response, the citations in their order', async () => {
    const { store, ctx, testStore } = await setup();
    const ada = users[0]!;
    const topic = await createTopic(ctx, ada, { title: 'Cited', categories: ['Science'] });
    for (let i = 0; i < 30; i++) {
      await createResponse(ctx, ada, {
        topic_id: topic.id,
        type: 'for',
        content: `Argument ${i}`,
        sources: i % 3 === 0 ? [] : [{ url: `https://example.org/${i}`, name: `Source ${i}` }, { url: 'https://example.org/shared' }],
      });
    }
    const one = vi.spyOn(store.sources, 'forResponse');
    const many = vi.spyOn(store.sources, 'forResponses');
    const page = await rootResponsesPage(ctx, topic.id, null, null, 25);
    expect(page.items).toHaveLength(25);
    expect(one).not.toHaveBeenCalled();
    expect(many).toHaveBeenCalledTimes(1);
    for (const item of page.items) {
      const i = Number(item.content.split(' ')[1]);
      expect(item.sources.map((s) => s.url)).toEqual(i % 3 === 0 ? [] : [`https://example.org/${i}`, 'https://example.org/shared']);
      if (i % 3 !== 0) expect(item.sources[0]!.name).toBe(`Source ${i}`);
    }
    await testStore.close();
  });
});

describe('title search', () => {
  it('walks the sort index for common words (no sort of every match) and finds what a plain scan finds', async () => {
    const { store, ctx, testStore } = await setup();
    // The plan is SQLite's (EXPLAIN QUERY PLAN); PostgreSQL's own is measured by npm run bench -- postgres.
    const plans = testStore.engine === 'sqlite' ? (store as SqliteStore).topics : undefined;
    for (const sort of plans ? SORTS : []) {
      const plan = (await plans!.searchPlan(sort, false, 'walk')).join(' | ');
      expect(plan).toMatch(`topics_${sort}`);
      expect(plan).not.toMatch(/TEMP B-TREE/);
      expect((await plans!.searchPlan(sort, true, 'walk')).join(' | ')).toMatch(`topics_category_${sort}`);
    }
    const ada = users[0]!;
    for (let i = 0; i < 120; i++) {
      await createTopic(ctx, ada, {
        title: `${i % 2 === 0 ? 'Energy' : 'Water'} question ${i}${i % 40 === 0 ? ' rare' : ''}`,
        categories: ['Science'],
      });
      if (i % 5 === 0) await setVote(ctx, users[1]!, 'topic', `id-${i + 1}`, true);
    }
    for (const search of ['energy', 'rare', 'question', 'nothing']) {
      for (const sort of SORTS) {
        const all = await listTopics(ctx, { sort, limit: 200, offset: 0 }, null);
        const expected = all.filter((t) =>
          t.title
            .toLowerCase()
            .split(' ')
            .some((w) => w.startsWith(search)),
        );
        const found = await listTopics(ctx, { sort, limit: 10, offset: 5, search }, null);
        expect(found.map((t) => t.id)).toEqual(expected.slice(5, 15).map((t) => t.id));
      }
    }
    await testStore.close();
  });
});

describe("a topic's stored response counts by type", () => {
  it('equal a full recount after a random mix of creates and deletes of every type', { timeout: 120_000 }, async () => {
    const { db, ctx, store, testStore } = await setup();
    let seed = 11;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const types = ['for', 'against', 'neutral'] as const;
    const topics: string[] = [];
    for (let i = 0; i < 3; i++) topics.push((await createTopic(ctx, users[i]!, { title: `Counted ${i}`, categories: ['Science'] })).id);
    const responses: { id: string; creator: string }[] = [];
    for (let step = 0; step < 300; step++) {
      const actor = users[random(users.length)]!;
      const liveIds = new Set((await db.rows<{ id: string }>('SELECT id FROM responses WHERE deleted = 0')).map((r) => r.id));
      const live = responses.filter((r) => liveIds.has(r.id));
      if (random(4) === 0 && live.length > 0) {
        // A delete takes the response's whole subtree, of any types.
        const victim = live[random(live.length)]!;
        await deleteResponse(
          ctx,
          users.find((u) => u.uid === victim.creator)!,
          victim.id,
        );
      } else {
        const parent = live.length > 0 && random(2) === 0 ? live[random(live.length)]! : null;
        const type = types[random(types.length)]!;
        const input = parent
          ? { parent_response_id: parent.id, type, content: `Reply ${step}` }
          : { topic_id: topics[random(topics.length)]!, type, content: `Root ${step}` };
        responses.push({ id: (await createResponse(ctx, actor, input)).id, creator: actor.uid });
      }
    }
    const drift = await db.rows(
      `SELECT * FROM (SELECT t.id, t.responses_count, t.responses_for, t.responses_against, t.responses_neutral,
           (SELECT count(*) FROM responses r WHERE r.topic_id = t.id AND r.deleted = 0) AS real_count,
           (SELECT count(*) FROM responses r WHERE r.topic_id = t.id AND r.deleted = 0 AND r.type = 'for') AS real_for,
           (SELECT count(*) FROM responses r WHERE r.topic_id = t.id AND r.deleted = 0 AND r.type = 'against') AS real_against,
           (SELECT count(*) FROM responses r WHERE r.topic_id = t.id AND r.deleted = 0 AND r.type = 'neutral') AS real_neutral
         FROM topics t WHERE t.deleted = 0) AS counted
       WHERE responses_count <> real_count OR responses_for <> real_for OR responses_against <> real_against
          OR responses_neutral <> real_neutral OR responses_count <> responses_for + responses_against + responses_neutral`,
    );
    expect(drift).toEqual([]);
    // The public totals are the stored counts, equal to counting the rows.
    for (const id of topics) {
      const recounted = Object.fromEntries(types.map((type) => [type, 0]));
      for (const { type, n } of await store.responses.countByType(id)) recounted[type] = Number(n);
      expect((await topicStances(ctx, id)).responses).toEqual(recounted);
    }
    expect((await db.row<{ n: number }>('SELECT count(*) AS n FROM responses WHERE deleted = 1'))!.n).toBeGreaterThan(10);
    // A repair recount writes the same values.
    const before = await db.rows('SELECT id, responses_for, responses_against, responses_neutral FROM topics ORDER BY id');
    for (const id of topics) {
      const createdAt = (await store.topics.get(id, null))!.created_at;
      await store.transaction(async () => await store.topics.refreshAggregates(id, createdAt, await store.nextSeq()));
    }
    expect(await db.rows('SELECT id, responses_for, responses_against, responses_neutral FROM topics ORDER BY id')).toEqual(before);
    await testStore.close();
  });
});
