// The storage contract (sync-server/src/store/types.ts): what any engine behind
// the Store interface must do, checked through the interface only. Run it against
// an implementation with `runStoreContract(name, makeStore)` (sqlite.test.ts).
// Each test gets a fresh, empty store.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NOTIFICATION_TYPES, PERSUASION_POINTS_PER_DELTA, type NotificationType, type Sort } from '../../shared/constants.js';
import { hotScore } from '../../shared/rules/hot.js';
import { ftsQuery } from '../../shared/rules/search-words.js';
import { comparatorFor, TOPIC_ORDERS } from '../../shared/rules/sort-order.js';
import type { Store } from '../../sync-server/src/store/types.js';
import type { Checkpoint, ReportRow, ResponseInsert, ResponsePosition, StanceRow, TopicInsert } from '../../sync-server/src/store/rows.js';

export interface StoreUnderTest {
  store: Store;
  close(): Promise<void>;
}

const START: Checkpoint = { seq: 0, id: '' };
const day = (n: number) => new Date(Date.UTC(2026, 0, n)).toISOString();
const match = (text: string) => ftsQuery(text)!;

export function runStoreContract(name: string, makeStore: () => Promise<StoreUnderTest>): void {
  describe(`Store contract: ${name}`, () => {
    let subject: StoreUnderTest;
    let store: Store;

    beforeEach(async () => {
      subject = await makeStore();
      store = subject.store;
    });
    afterEach(async () => {
      await subject.close();
    });

    // ---- helpers: writes as the domain makes them, inside a transaction with a fresh seq ----
    const addUser = async (uid: string, name: string | null = uid) =>
      await store.transaction(async () => await store.users.remember({ uid, name, email: `${uid}@example.com` }, day(1), store.nextSeq));
    const addTopic = async (row: Partial<TopicInsert> & { id: string }) =>
      await store.transaction(async () => {
        const seq = row.seq ?? (await store.nextSeq());
        await store.topics.insert({ title: `Topic ${row.id}`, category: 'Science', creator_uid: 'ada', created_at: day(1), ...row, seq });
        return seq;
      });
    const addResponse = async (row: Partial<ResponseInsert> & { id: string; topic_id: string }) =>
      await store.transaction(async () => {
        const seq = await store.nextSeq();
        await store.responses.insert({
          parent_response_id: null,
          quoted_response_id: null,
          type: 'for',
          content: `Argument ${row.id}`,
          creator_uid: 'ada',
          created_at: day(1),
          ...row,
          seq,
        });
        return seq;
      });
    const vote = async (voter: string, type: 'topic' | 'response', targetId: string, creator: string, topicId: string, deleted = false) =>
      await store.transaction(
        async () =>
          await store.votes.set({
            voter_uid: voter,
            target_type: type,
            target_id: targetId,
            target_creator_uid: creator,
            topic_id: topicId,
            now: day(2),
            deleted,
            seq: await store.nextSeq(),
          }),
      );
    const refreshTopic = async (id: string) =>
      await store.transaction(
        async () => await store.topics.refreshAggregates(id, (await store.topics.get(id, null))!.created_at, await store.nextSeq()),
      );

    describe('seq and transactions', () => {
      it('nextSeq is strictly increasing, within and across transactions', async () => {
        const first = await store.transaction(async () => [await store.nextSeq(), await store.nextSeq(), await store.nextSeq()]);
        const second = await store.transaction(async () => [await store.nextSeq(), await store.nextSeq()]);
        const all = [...first, ...second];
        expect(all[0]).toBeGreaterThan(0);
        for (let i = 1; i < all.length; i++) expect(all[i]).toBeGreaterThan(all[i - 1]!);
      });

      it('a transaction returns what its function returns', async () => {
        expect(await store.transaction(async () => 42)).toBe(42);
      });

      it('a throw rolls back every write of the transaction and is rethrown', async () => {
        await addUser('ada');
        const committed = await store.transaction(async () => await store.nextSeq());
        await expect(
          store.transaction(async () => {
            await store.topics.insert({
              id: 'doomed',
              title: 'Doomed',
              category: 'Science',
              creator_uid: 'ada',
              created_at: day(1),
              seq: await store.nextSeq(),
            });
            await store.users.setWeeklySummary('ada', false, await store.nextSeq(), '2026-01-01T00:00:00.000Z');
            throw new Error('boom');
          }),
        ).rejects.toThrow('boom');
        expect(await store.topics.get('doomed', null)).toBeUndefined();
        expect((await store.users.get('ada'))!.receive_weekly_summary).toBe(1);
        expect(await store.isEmpty()).toBe(true);
        // The next change number still comes after every committed one.
        expect(await store.transaction(async () => await store.nextSeq())).toBeGreaterThan(committed);
      });

      it('a nested transaction that throws rolls back its own writes only', async () => {
        await addUser('ada');
        await store.transaction(async () => {
          await store.topics.insert({
            id: 'kept',
            title: 'Kept',
            category: 'Science',
            creator_uid: 'ada',
            created_at: day(1),
            seq: await store.nextSeq(),
          });
          await expect(
            store.transaction(async () => {
              await store.topics.insert({
                id: 'inner',
                title: 'Inner',
                category: 'Science',
                creator_uid: 'ada',
                created_at: day(1),
                seq: await store.nextSeq(),
              });
              throw new Error('inner');
            }),
          ).rejects.toThrow('inner');
        });
        expect((await store.topics.get('kept', null))?.title).toBe('Kept');
        expect(await store.topics.get('inner', null)).toBeUndefined();
      });

      it('afterCommit runs once the outermost transaction commits; never for a rollback or a rolled-back savepoint', async () => {
        const ran: string[] = [];
        store.afterCommit(() => ran.push('outside'));
        expect(ran).toEqual(['outside']);
        await store.transaction(async () => {
          store.afterCommit(() => ran.push('outer'));
          await store.transaction(async () => {
            store.afterCommit(() => ran.push('kept savepoint'));
          });
          await expect(
            store.transaction(async () => {
              store.afterCommit(() => ran.push('dropped savepoint'));
              throw new Error('inner');
            }),
          ).rejects.toThrow('inner');
          expect(ran).toEqual(['outside']);
        });
        expect(ran).toEqual(['outside', 'outer', 'kept savepoint']);
        await expect(
          store.transaction(async () => {
            store.afterCommit(() => ran.push('rolled back'));
            throw new Error('boom');
          }),
        ).rejects.toThrow('boom');
        expect(ran).toEqual(['outside', 'outer', 'kept savepoint']);
      });

      it('transactionEach runs each item as its own transaction, in order: a throw rolls back that item, keeps the ones before and stops', async () => {
        await addUser('ada');
        const ran: string[] = [];
        const topic = (id: string) => async () =>
          await store.topics.insert({
            id,
            title: `Topic ${id}`,
            category: 'Science',
            creator_uid: 'ada',
            created_at: day(1),
            seq: await store.nextSeq(),
          });
        const answered = await store.transactionEach(['a', 'b'], async (id) => {
          await topic(id)();
          store.afterCommit(() => ran.push(id));
          return id.toUpperCase();
        });
        expect(answered).toEqual(['A', 'B']);
        expect(ran).toEqual(['a', 'b']);
        await expect(
          store.transactionEach(['c', 'd', 'e'], async (id) => {
            ran.push(`start ${id}`);
            await topic(id)();
            store.afterCommit(() => ran.push(id));
            if (id === 'd') throw new Error('boom');
          }),
        ).rejects.toThrow('boom');
        // c landed (and was told), d was rolled back, e never ran.
        expect(ran).toEqual(['a', 'b', 'start c', 'start d', 'c']);
        for (const [id, kept] of [
          ['c', true],
          ['d', false],
          ['e', false],
        ] as const) {
          expect(await store.topics.get(id, null), id).toEqual(kept ? expect.objectContaining({ id }) : undefined);
        }
      });

      it('isEmpty until the first topic, and still not empty once it is deleted', async () => {
        expect(await store.isEmpty()).toBe(true);
        await addUser('ada');
        expect(await store.isEmpty()).toBe(true);
        await addTopic({ id: 't1' });
        expect(await store.isEmpty()).toBe(false);
        await store.transaction(async () => await store.topics.softDelete('t1', await store.nextSeq()));
        expect(await store.isEmpty()).toBe(false);
      });
    });

    describe('users', () => {
      it('remember records a user, reports whether anything changed, and stamps a seq', async () => {
        expect(await store.users.get('ada')).toBeUndefined();
        expect(await addUser('ada', 'Ada')).toBe(true);
        const row = (await store.users.get('ada'))!;
        expect(row).toMatchObject({ uid: 'ada', display_name: 'Ada', email: 'ada@example.com', points: 0, receive_weekly_summary: 1 });
        expect(row.seq).toBeGreaterThan(0);
        expect(await addUser('ada', 'Ada')).toBe(false);
        expect((await store.users.get('ada'))!.seq).toBe(row.seq);
        expect(await addUser('ada', 'Ada Lovelace')).toBe(true);
        const renamed = (await store.users.get('ada'))!;
        expect(renamed.display_name).toBe('Ada Lovelace');
        expect(renamed.seq).toBeGreaterThan(row.seq);
      });

      it('changedSince returns the row only when it changed after the seq', async () => {
        await addUser('ada');
        const seq = (await store.users.get('ada'))!.seq;
        expect((await store.users.changedSince('ada', seq - 1))?.uid).toBe('ada');
        expect(await store.users.changedSince('ada', seq)).toBeUndefined();
        const next = await store.transaction(async () => {
          const s = await store.nextSeq();
          await store.users.setWeeklySummary('ada', false, s, '2026-01-01T00:00:00.000Z');
          return s;
        });
        expect(await store.users.changedSince('ada', seq)).toMatchObject({ receive_weekly_summary: 0, seq: next });
        expect(await store.users.changedSince('nobody', 0)).toBeUndefined();
      });

      it('points count live upvotes by others on the user’s items; rank and leaderboard follow', async () => {
        for (const uid of ['ada', 'bob', 'cy', 'dee']) await addUser(uid);
        await addTopic({ id: 't1', creator_uid: 'ada' });
        await addTopic({ id: 't2', creator_uid: 'bob' });
        await addResponse({ id: 'r1', topic_id: 't2', creator_uid: 'ada' });
        await vote('bob', 'topic', 't1', 'ada', 't1');
        await vote('cy', 'topic', 't1', 'ada', 't1');
        await vote('ada', 'topic', 't1', 'ada', 't1'); // one's own vote earns nothing
        await vote('cy', 'response', 'r1', 'ada', 't2');
        await vote('dee', 'response', 'r1', 'ada', 't2', true); // taken back
        await vote('ada', 'topic', 't2', 'bob', 't2');
        await store.transaction(async () => {
          for (const uid of ['ada', 'bob', 'cy']) await store.users.refreshPoints(uid);
        });
        expect((await store.users.get('ada'))!.points).toBe(3);
        expect((await store.users.get('bob'))!.points).toBe(1);
        expect((await store.users.get('cy'))!.points).toBe(0);
        expect(await store.users.rankFor(3)).toBe(1);
        expect(await store.users.rankFor(1)).toBe(2);
        expect(await store.users.rankFor(0)).toBe(3);
        expect(await store.users.leaderboard(10)).toEqual([
          { uid: 'ada', display_name: 'ada', points: 3, persuasion_points: 0 },
          { uid: 'bob', display_name: 'bob', points: 1, persuasion_points: 0 },
        ]);
        expect((await store.users.leaderboard(1)).map((e) => e.uid)).toEqual(['ada']);
      });

      it('leaderboard ties are ordered by uid', async () => {
        for (const uid of ['zed', 'amy', 'max', 'fan']) await addUser(uid);
        await addTopic({ id: 'z', creator_uid: 'zed' });
        await addTopic({ id: 'a', creator_uid: 'amy' });
        await vote('fan', 'topic', 'z', 'zed', 'z');
        await vote('fan', 'topic', 'a', 'amy', 'a');
        await store.transaction(async () => {
          for (const uid of ['zed', 'amy']) await store.users.refreshPoints(uid);
        });
        expect((await store.users.leaderboard(10)).map((e) => e.uid)).toEqual(['amy', 'zed']);
      });
    });

    describe('topics', () => {
      beforeEach(async () => {
        for (const uid of ['ada', 'bob', 'cy']) await addUser(uid, uid.toUpperCase());
      });

      it('insert and get: the row with its author’s name, score 0 and the stored hot score', async () => {
        const seq = await addTopic({ id: 't1', title: 'Is tea better?', category: 'Culture', creator_uid: 'ada', created_at: day(3) });
        const row = (await store.topics.get('t1', null))!;
        expect(row).toMatchObject({
          id: 't1',
          title: 'Is tea better?',
          category: 'Culture',
          creator_uid: 'ada',
          username: 'ADA',
          created_at: day(3),
          score: 0,
          responses_count: 0,
          deleted: 0,
          seq,
          user_has_upvoted: 0,
        });
        expect(row.hot).toBeCloseTo(hotScore(0, 0, day(3)), 9);
        expect(await store.topics.get('missing', null)).toBeUndefined();
      });

      it('user_has_upvoted reflects the viewer’s live vote', async () => {
        await addTopic({ id: 't1' });
        await vote('bob', 'topic', 't1', 'ada', 't1');
        expect((await store.topics.get('t1', 'bob'))!.user_has_upvoted).toBe(1);
        expect((await store.topics.get('t1', 'cy'))!.user_has_upvoted).toBe(0);
        expect((await store.topics.get('t1', null))!.user_has_upvoted).toBe(0);
        await vote('bob', 'topic', 't1', 'ada', 't1', true);
        expect((await store.topics.get('t1', 'bob'))!.user_has_upvoted).toBe(0);
      });

      it('refreshAggregates recounts live votes and responses, recomputes hot and stamps the seq', async () => {
        await addTopic({ id: 't1', created_at: day(5) });
        await addResponse({ id: 'r1', topic_id: 't1' });
        await addResponse({ id: 'r2', topic_id: 't1' });
        await store.transaction(async () => await store.responses.softDelete('r2', await store.nextSeq()));
        await vote('bob', 'topic', 't1', 'ada', 't1');
        await vote('cy', 'topic', 't1', 'ada', 't1');
        await vote('ada', 'topic', 't1', 'ada', 't1', true);
        const before = (await store.topics.get('t1', null))!.seq;
        await refreshTopic('t1');
        const row = (await store.topics.get('t1', null))!;
        expect(row).toMatchObject({ score: 2, responses_count: 1 });
        expect(row.hot).toBeCloseTo(hotScore(2, 1, day(5)), 9);
        expect(row.seq).toBeGreaterThan(before);
      });

      describe('lists', () => {
        // a: oldest, b: most votes, c: newest; d shares a's time (ties fall to the id); e is deleted.
        beforeEach(async () => {
          await addTopic({ id: 'a', created_at: day(1), category: 'Science' });
          await addTopic({ id: 'b', created_at: day(2), category: 'Culture' });
          await addTopic({ id: 'c', created_at: day(3), category: 'Science' });
          await addTopic({ id: 'd', created_at: day(1), category: 'Science' });
          await addTopic({ id: 'e', created_at: day(4), category: 'Science' });
          await vote('bob', 'topic', 'b', 'ada', 'b');
          await vote('cy', 'topic', 'b', 'ada', 'b');
          await vote('bob', 'topic', 'a', 'ada', 'a');
          for (const id of ['a', 'b']) await refreshTopic(id);
          await store.transaction(async () => await store.topics.softDelete('e', await store.nextSeq()));
        });
        const list = async (sort: Sort, extra: { category?: string; limit?: number; offset?: number } = {}) =>
          (await store.topics.list({ sort, limit: 20, offset: 0, viewer: null, ...extra })).map((row) => row.id);

        it.each([
          ['new', ['c', 'b', 'd', 'a']],
          ['top', ['b', 'a', 'c', 'd']],
          ['hot', ['c', 'b', 'a', 'd']],
        ] as const)('%s: live topics in its order', async (sort, expected) => {
          expect(await list(sort)).toEqual(expected);
          // The same order the app computes on the device (shared/rules/sort-order.ts).
          const rows = await store.topics.list({ sort, limit: 20, offset: 0, viewer: null });
          expect([...rows].sort(comparatorFor(TOPIC_ORDERS[sort])).map((row) => row.id)).toEqual(expected);
        });

        it('by category, and paged by limit and offset without overlap', async () => {
          expect(await list('new', { category: 'Science' })).toEqual(['c', 'd', 'a']);
          expect(await list('new', { category: 'Culture' })).toEqual(['b']);
          expect(await list('new', { category: 'Politics' })).toEqual([]);
          const pages = await Promise.all([0, 1, 2, 3].map((page) => list('top', { limit: 1, offset: page })));
          expect(pages.flat()).toEqual(await list('top'));
          expect(await list('top', { limit: 2, offset: 3 })).toEqual(['d']);
        });

        it('fills user_has_upvoted for the viewer', async () => {
          const rows = await store.topics.list({ sort: 'top', limit: 20, offset: 0, viewer: 'bob' });
          expect(rows.filter((row) => row.user_has_upvoted === 1).map((row) => row.id)).toEqual(['b', 'a']);
        });
      });

      it('search: live titles matching every word as a prefix, in the sort’s order, optionally by category', async () => {
        await addTopic({ id: 'bus', title: 'Should public transit be free?', created_at: day(1) });
        await addTopic({ id: 'train', title: 'Transit trains at night', created_at: day(2), category: 'Culture' });
        await addTopic({ id: 'nuke', title: 'Nuclear power now', created_at: day(3) });
        await addTopic({ id: 'gone', title: 'Transit is gone', created_at: day(4) });
        await store.transaction(async () => await store.topics.softDelete('gone', await store.nextSeq()));
        const search = async (text: string, extra: { category?: string; sort?: Sort } = {}) =>
          (await store.topics.search({ match: match(text), sort: 'new', limit: 20, offset: 0, viewer: null, ...extra })).map(
            (row) => row.id,
          );
        expect(await search('transit')).toEqual(['train', 'bus']);
        expect(await search('TRANS')).toEqual(['train', 'bus']);
        expect(await search('nucl pow')).toEqual(['nuke']);
        expect(await search('nuclear transit')).toEqual([]);
        expect(await search('transit', { category: 'Culture' })).toEqual(['train']);
        expect(await search('transit', { sort: 'hot' })).toEqual(['train', 'bus']);
        expect(
          (await store.topics.search({ match: match('transit'), sort: 'new', limit: 1, offset: 1, viewer: null })).map((r) => r.id),
        ).toEqual(['bus']);
      });

      it('softDelete leaves a tombstone that get and changesSince still return', async () => {
        await addTopic({ id: 't1' });
        const seq = await store.transaction(async () => {
          const s = await store.nextSeq();
          await store.topics.softDelete('t1', s);
          return s;
        });
        expect(await store.topics.get('t1', null)).toMatchObject({ id: 't1', deleted: 1, seq });
        expect(await store.topics.list({ sort: 'new', limit: 20, offset: 0, viewer: null })).toEqual([]);
        expect(await store.topics.changesSince(START, 10, null)).toEqual([expect.objectContaining({ id: 't1', deleted: 1, seq })]);
      });

      it('changesSince pages by (seq, id), strictly after the checkpoint, and a rewrite moves a row to the end', async () => {
        await addTopic({ id: 'a' });
        await addTopic({ id: 'b' });
        await addTopic({ id: 'c' });
        const first = await store.topics.changesSince(START, 2, null);
        expect(first.map((row) => row.id)).toEqual(['a', 'b']);
        const after = { seq: first[1]!.seq, id: first[1]!.id };
        expect((await store.topics.changesSince(after, 10, null)).map((row) => row.id)).toEqual(['c']);
        const end = { seq: (await store.topics.get('c', null))!.seq, id: 'c' };
        expect(await store.topics.changesSince(end, 10, null)).toEqual([]);
        await refreshTopic('a');
        expect((await store.topics.changesSince(end, 10, null)).map((row) => row.id)).toEqual(['a']);
        expect((await store.topics.changesSince(START, 10, null)).map((row) => row.id)).toEqual(['b', 'c', 'a']);
      });

      it('changesSince breaks a tie on seq by id', async () => {
        const seq = await store.transaction(async () => await store.nextSeq());
        await addTopic({ id: 'y', seq });
        await addTopic({ id: 'x', seq });
        expect((await store.topics.changesSince(START, 10, null)).map((row) => row.id)).toEqual(['x', 'y']);
        expect((await store.topics.changesSince({ seq, id: 'x' }, 10, null)).map((row) => row.id)).toEqual(['y']);
      });
    });

    describe('responses', () => {
      // t1: r1 (root) ← r3 ← r4, r2 (root), r5 quotes r2; t2: other.
      beforeEach(async () => {
        for (const uid of ['ada', 'bob']) await addUser(uid, uid.toUpperCase());
        await addTopic({ id: 't1' });
        await addTopic({ id: 't2' });
        await addResponse({ id: 'r1', topic_id: 't1', created_at: day(1), content: 'Fares fund the service' });
        await addResponse({
          id: 'r2',
          topic_id: 't1',
          created_at: day(2),
          creator_uid: 'bob',
          type: 'against',
          content: 'Tallinn shows otherwise',
        });
        await addResponse({ id: 'r3', topic_id: 't1', parent_response_id: 'r1', created_at: day(3) });
        await addResponse({ id: 'r4', topic_id: 't1', parent_response_id: 'r3', created_at: day(4) });
        await addResponse({ id: 'r5', topic_id: 't1', quoted_response_id: 'r2', created_at: day(5) });
        await addResponse({ id: 'other', topic_id: 't2', created_at: day(1), content: 'Fares elsewhere' });
      });

      it('insert and get: the row with author, quote and counters', async () => {
        expect(await store.responses.get('r2', null)).toMatchObject({
          id: 'r2',
          topic_id: 't1',
          parent_response_id: null,
          quoted_response_id: null,
          type: 'against',
          content: 'Tallinn shows otherwise',
          creator_uid: 'bob',
          username: 'BOB',
          created_at: day(2),
          updated_at: day(2),
          score: 0,
          comment_count: 0,
          deleted: 0,
        });
        expect(await store.responses.get('r5', null)).toMatchObject({
          quoted_response_id: 'r2',
          quoted_content: 'Tallinn shows otherwise',
          quoted_username: 'BOB',
          quoted_live: 1,
        });
        expect(await store.responses.get('missing', null)).toBeUndefined();
      });

      it('roots, replies and mappings: live responses, oldest first', async () => {
        expect((await store.responses.roots('t1', null)).map((row) => row.id)).toEqual(['r1', 'r2', 'r5']);
        expect((await store.responses.replies('r1', null)).map((row) => row.id)).toEqual(['r3']);
        expect((await store.responses.replies('r3', null)).map((row) => row.id)).toEqual(['r4']);
        const pairsOf = async (after: ResponsePosition | null, limit: number) => {
          const page = await store.responses.mappingsPage('t1', after, limit);
          return { pairs: JSON.parse(page.json) as { id: string; parent_response_id: string | null }[], next: page.next };
        };
        const whole = await pairsOf(null, 5000);
        expect(whole.pairs).toEqual([
          { id: 'r1', parent_response_id: null },
          { id: 'r2', parent_response_id: null },
          { id: 'r3', parent_response_id: 'r1' },
          { id: 'r4', parent_response_id: 'r3' },
          { id: 'r5', parent_response_id: null },
        ]);
        expect(whole.next).toBeNull();
        const first = await pairsOf(null, 2);
        expect(first.pairs.map((m) => m.id)).toEqual(['r1', 'r2']);
        expect(first.next?.id).toBe('r2');
        const second = await pairsOf(first.next, 2);
        expect(second.pairs.map((m) => m.id)).toEqual(['r3', 'r4']);
        const third = await pairsOf(second.next, 2);
        expect(third).toEqual({ pairs: [{ id: 'r5', parent_response_id: null }], next: null });
        // A page that ends on the last pair has nothing after it; past the last, an empty page.
        expect((await pairsOf(null, 5)).next).toBeNull();
        expect(await pairsOf({ created_at: '9999', id: '' }, 2)).toEqual({ pairs: [], next: null });
        expect((await store.responses.liveIdsOfTopic('t1')).sort()).toEqual(['r1', 'r2', 'r3', 'r4', 'r5']);
        await store.transaction(async () => await store.responses.softDelete('r2', await store.nextSeq()));
        expect((await store.responses.roots('t1', null)).map((row) => row.id)).toEqual(['r1', 'r5']);
        expect((await pairsOf(null, 5000)).pairs.map((m) => m.id)).toEqual(['r1', 'r3', 'r4', 'r5']);
        expect(await store.responses.liveIdsOfTopic('t1')).not.toContain('r2');
      });

      it('a quote shows only while the quoted response is live', async () => {
        await store.transaction(async () => await store.responses.softDelete('r2', await store.nextSeq()));
        expect(await store.responses.get('r5', null)).toMatchObject({ quoted_response_id: 'r2', quoted_live: 0 });
      });

      it('subtree: the response and its live descendants', async () => {
        expect((await store.responses.subtree('r1')).map((node) => node.id).sort()).toEqual(['r1', 'r3', 'r4']);
        expect((await store.responses.subtree('r1')).find((node) => node.id === 'r3')?.creator_uid).toBe('ada');
        await store.transaction(async () => await store.responses.softDelete('r3', await store.nextSeq()));
        expect((await store.responses.subtree('r1')).map((node) => node.id)).toEqual(['r1']);
      });

      it('update changes content and quote, stamps updated_at and seq', async () => {
        const before = (await store.responses.get('r1', null))!;
        const seq = await store.transaction(async () => {
          const s = await store.nextSeq();
          await store.responses.update({
            id: 'r1',
            content: 'Edited text',
            quoted_response_id: 'r2',
            updated_at: day(9),
            edited_at: day(9),
            seq: s,
          });
          return s;
        });
        expect(await store.responses.get('r1', null)).toMatchObject({
          content: 'Edited text',
          quoted_response_id: 'r2',
          created_at: before.created_at,
          updated_at: day(9),
          edited_at: day(9),
          seq,
        });
        expect((await store.responses.search('t1', match('edited'), 10, null)).map((row) => row.id)).toEqual(['r1']);
        expect(await store.responses.search('t1', match('fund'), 10, null)).toEqual([]);
      });

      it('keepVersion numbers the kept texts; versionsOf reads the first and the last 20 of many, oldest first; softDelete drops them', async () => {
        await store.transaction(async () => {
          for (let n = 0; n < 22; n++) await store.responses.keepVersion('r1', `r1 text ${n}`, day(n % 9));
          await store.responses.keepVersion('r2', 'r2 first text', day(2));
        });
        const versions = await store.responses.versionsOf(['r2', 'r1', 'r3']);
        expect(versions.get('r2')).toEqual([{ version: 1, content: 'r2 first text', created_at: day(2) }]);
        expect(versions.get('r1')).toHaveLength(21);
        expect(versions.get('r1')![0]).toEqual({ version: 1, content: 'r1 text 0', created_at: day(0) });
        expect(versions.get('r1')![1]).toEqual({ version: 3, content: 'r1 text 2', created_at: day(2) });
        expect(versions.get('r1')![20]).toMatchObject({ version: 22, content: 'r1 text 21' });
        expect(versions.has('r3')).toBe(false);
        expect((await store.responses.versionsOf([])).size).toBe(0);
        await store.transaction(async () => await store.responses.softDelete('r2', await store.nextSeq()));
        expect((await store.responses.versionsOf(['r1', 'r2'])).has('r2')).toBe(false);
        expect((await store.responses.versionsOf(['r1'])).get('r1')).toHaveLength(21);
      });

      it('refreshAggregates recounts live votes and live direct replies', async () => {
        await addResponse({ id: 'r6', topic_id: 't1', parent_response_id: 'r1', created_at: day(6) });
        await store.transaction(async () => await store.responses.softDelete('r6', await store.nextSeq()));
        await vote('bob', 'response', 'r1', 'ada', 't1');
        await vote('ada', 'response', 'r1', 'ada', 't1');
        const before = (await store.responses.get('r1', null))!.seq;
        await store.transaction(async () => await store.responses.refreshAggregates('r1', await store.nextSeq()));
        const row = (await store.responses.get('r1', 'bob'))!;
        expect(row).toMatchObject({ score: 2, comment_count: 1, user_has_upvoted: 1 });
        expect(row.seq).toBeGreaterThan(before);
      });

      it('search: live responses of one topic whose content matches', async () => {
        expect((await store.responses.search('t1', match('fares'), 10, null)).map((row) => row.id)).toEqual(['r1']);
        expect((await store.responses.search('t2', match('fares'), 10, null)).map((row) => row.id)).toEqual(['other']);
        expect(await store.responses.search('t1', match('argument'), 2, null)).toHaveLength(2);
        await store.transaction(async () => await store.responses.softDelete('r1', await store.nextSeq()));
        expect(await store.responses.search('t1', match('fares'), 10, null)).toEqual([]);
      });

      it('changesSince: one topic’s responses by (seq, id), tombstones included', async () => {
        const all = (await store.responses.changesSince('t1', START, 10, null)).map((row) => row.id);
        expect(all).toEqual(['r1', 'r2', 'r3', 'r4', 'r5']);
        const page = await store.responses.changesSince('t1', START, 2, null);
        const after = { seq: page[1]!.seq, id: page[1]!.id };
        expect((await store.responses.changesSince('t1', after, 10, null)).map((row) => row.id)).toEqual(['r3', 'r4', 'r5']);
        const last = (await store.responses.get('r5', null))!;
        await store.transaction(async () => await store.responses.softDelete('r2', await store.nextSeq()));
        expect(await store.responses.changesSince('t1', { seq: last.seq, id: last.id }, 10, null)).toEqual([
          expect.objectContaining({ id: 'r2', deleted: 1 }),
        ]);
        expect((await store.responses.changesSince('t2', START, 10, null)).map((row) => row.id)).toEqual(['other']);
      });
    });

    describe('sources', () => {
      let n = 0;
      const newId = () => `s${++n}`;
      /** Catalogue rows for a., b. and c.example, in that order. */
      const threeSources = () =>
        store.transaction(async () => {
          const made = [];
          for (const url of ['https://a.example/', 'https://b.example/', 'https://c.example/'])
            made.push(await store.sources.ensure({ url }, newId, day(1)));
          return made;
        });
      beforeEach(async () => {
        n = 0;
        await addUser('ada');
        await addTopic({ id: 't1' });
        await addResponse({ id: 'r1', topic_id: 't1' });
      });

      it('ensure: one row per URL, which only gains missing name and description', async () => {
        const first = await store.transaction(
          async () => await store.sources.ensure({ url: 'https://a.example/', name: null }, newId, day(1)),
        );
        expect(first).toEqual({ id: 's1', url: 'https://a.example/', name: null, description: null });
        const named = await store.transaction(
          async () => await store.sources.ensure({ url: 'https://a.example/', name: 'Alpha', description: '' }, newId, day(2)),
        );
        expect(named).toEqual({ id: 's1', url: 'https://a.example/', name: 'Alpha', description: null });
        const renamed = await store.transaction(
          async () => await store.sources.ensure({ url: 'https://a.example/', name: 'Other', description: 'About A' }, newId, day(3)),
        );
        expect(renamed).toEqual({ id: 's1', url: 'https://a.example/', name: 'Alpha', description: 'About A' });
        expect(await store.sources.all(10)).toHaveLength(1);
      });

      it('setForResponse keeps the given order and replaces the previous list', async () => {
        const [a, b, c] = await threeSources();
        await store.transaction(async () => await store.sources.setForResponse('r1', [c!.id, a!.id]));
        expect((await store.sources.forResponse('r1')).map((s) => s.url)).toEqual(['https://c.example/', 'https://a.example/']);
        await store.transaction(async () => await store.sources.setForResponse('r1', [b!.id]));
        expect(await store.sources.forResponse('r1')).toEqual([b]);
        await store.transaction(async () => await store.sources.setForResponse('r1', []));
        expect(await store.sources.forResponse('r1')).toEqual([]);
      });

      it("forResponses: each response's citations in their order, one read for many; none, absent", async () => {
        const [a, b, c] = await threeSources();
        await addResponse({ id: 'r2', topic_id: 't1' });
        await addResponse({ id: 'r3', topic_id: 't1' });
        await store.transaction(async () => {
          await store.sources.setForResponse('r1', [c!.id, a!.id, b!.id]);
          await store.sources.setForResponse('r3', [b!.id, c!.id]);
        });
        const byResponse = await store.sources.forResponses(['r3', 'r2', 'r1']);
        expect(byResponse.get('r1')).toEqual([c, a, b]);
        expect(byResponse.get('r3')).toEqual([b, c]);
        expect(byResponse.has('r2')).toBe(false);
        expect((await store.sources.forResponses([])).size).toBe(0);
      });

      it('all: by name (or URL), case-insensitively, at most limit; search by name, URL or description', async () => {
        await store.transaction(async () => {
          await store.sources.ensure({ url: 'https://z.example/', name: 'beta' }, newId, day(1));
          await store.sources.ensure({ url: 'https://y.example/', name: 'Alpha', description: 'Transit study' }, newId, day(1));
          await store.sources.ensure({ url: 'https://c.example/' }, newId, day(1));
        });
        expect((await store.sources.all(10)).map((s) => s.name ?? s.url)).toEqual(['Alpha', 'beta', 'https://c.example/']);
        expect(await store.sources.all(2)).toHaveLength(2);
        expect((await store.sources.search(match('alpha'), 10)).map((s) => s.url)).toEqual(['https://y.example/']);
        expect((await store.sources.search(match('transit'), 10)).map((s) => s.url)).toEqual(['https://y.example/']);
        expect((await store.sources.search(match('z example'), 10)).map((s) => s.url)).toEqual(['https://z.example/']);
        expect(await store.sources.search(match('nothing'), 10)).toEqual([]);
      });
    });

    describe('votes', () => {
      beforeEach(async () => {
        for (const uid of ['ada', 'bob', 'cy']) await addUser(uid);
        await addTopic({ id: 't1', creator_uid: 'ada' });
        await addResponse({ id: 'r1', topic_id: 't1', creator_uid: 'ada' });
      });

      it('set and get: one row per voter and target; taking a vote back keeps the row', async () => {
        expect(await store.votes.get('bob', 'topic', 't1')).toBeUndefined();
        await vote('bob', 'topic', 't1', 'ada', 't1');
        const up = (await store.votes.get('bob', 'topic', 't1'))!;
        expect(up).toMatchObject({
          voter_uid: 'bob',
          target_type: 'topic',
          target_id: 't1',
          target_creator_uid: 'ada',
          topic_id: 't1',
          deleted: 0,
        });
        await vote('bob', 'topic', 't1', 'ada', 't1', true);
        const down = (await store.votes.get('bob', 'topic', 't1'))!;
        expect(down.deleted).toBe(1);
        expect(down.seq).toBeGreaterThan(up.seq);
        expect(await store.votes.get('bob', 'response', 't1')).toBeUndefined();
        expect(await store.votes.changesSince('bob', START, 10)).toHaveLength(1);
      });

      it('removeAllOn takes back the live votes on a target and returns them', async () => {
        await vote('bob', 'topic', 't1', 'ada', 't1');
        await vote('cy', 'topic', 't1', 'ada', 't1', true);
        await vote('cy', 'response', 'r1', 'ada', 't1');
        const before = (await store.votes.get('bob', 'topic', 't1'))!.seq;
        const removed = await store.transaction(async () => await store.votes.removeAllOn('topic', 't1', store.nextSeq));
        expect(removed).toEqual([{ voter_uid: 'bob', target_creator_uid: 'ada', value: 1 }]);
        const bob = (await store.votes.get('bob', 'topic', 't1'))!;
        expect(bob.deleted).toBe(1);
        expect(bob.seq).toBeGreaterThan(before);
        expect((await store.votes.get('cy', 'response', 'r1'))!.deleted).toBe(0);
        expect(await store.transaction(async () => await store.votes.removeAllOn('topic', 't1', store.nextSeq))).toEqual([]);
      });

      it('changesSince: the voter’s own votes by (seq, vote id), strictly after the checkpoint', async () => {
        await vote('bob', 'topic', 't1', 'ada', 't1');
        await vote('bob', 'response', 'r1', 'ada', 't1');
        await vote('cy', 'topic', 't1', 'ada', 't1');
        const page = await store.votes.changesSince('bob', START, 10);
        expect(page.map((row) => `${row.target_type}_${row.target_id}`)).toEqual(['topic_t1', 'response_r1']);
        const first = page[0]!;
        expect((await store.votes.changesSince('bob', { seq: first.seq, id: 'topic_t1' }, 10)).map((row) => row.target_id)).toEqual(['r1']);
        expect(await store.votes.changesSince('bob', START, 1)).toHaveLength(1);
        // A rewrite moves the vote after the others.
        await vote('bob', 'topic', 't1', 'ada', 't1', true);
        expect((await store.votes.changesSince('bob', START, 10)).map((row) => [row.target_id, row.deleted])).toEqual([
          ['r1', 0],
          ['t1', 1],
        ]);
      });
    });

    describe('blocks', () => {
      const block = async (blocker: string, blocked: string, on = true, seq?: number) =>
        await store.transaction(
          async () =>
            await store.blocks.set({
              blocker_uid: blocker,
              blocked_uid: blocked,
              blocked: on,
              now: day(3),
              seq: seq ?? (await store.nextSeq()),
            }),
        );
      beforeEach(async () => {
        await addUser('ada', 'Ada');
        await addUser('bob', 'Bob');
        await addUser('cy', null);
      });

      it('set and get: one row per blocker and blocked user, with the blocked user’s current name; unblocking keeps the row', async () => {
        expect(await store.blocks.get('ada', 'bob')).toBeUndefined();
        await block('ada', 'bob');
        const on = (await store.blocks.get('ada', 'bob'))!;
        expect(on).toEqual({
          blocker_uid: 'ada',
          blocked_uid: 'bob',
          blocked: 1,
          updated_at: day(3),
          seq: expect.any(Number),
          display_name: 'Bob',
        });
        expect(await store.blocks.isBlocked('ada', 'bob')).toBe(true);
        expect(await store.blocks.isBlocked('bob', 'ada')).toBe(false);
        await block('ada', 'bob', false);
        const off = (await store.blocks.get('ada', 'bob'))!;
        expect(off.blocked).toBe(0);
        expect(off.seq).toBeGreaterThan(on.seq);
        expect(await store.blocks.isBlocked('ada', 'bob')).toBe(false);
        // A user the server has no row for yet: no name.
        await block('ada', 'ghost');
        expect((await store.blocks.get('ada', 'ghost'))!.display_name).toBeNull();
      });

      it('list: the blocker’s live blocks only, most recent first', async () => {
        await block('ada', 'bob');
        await block('ada', 'cy');
        await block('bob', 'ada');
        await store.transaction(async () =>
          store.blocks.set({ blocker_uid: 'ada', blocked_uid: 'cy', blocked: true, now: day(4), seq: await store.nextSeq() }),
        );
        expect((await store.blocks.list('ada')).map((row) => [row.blocked_uid, row.display_name])).toEqual([
          ['cy', null],
          ['bob', 'Bob'],
        ]);
        await block('ada', 'bob', false);
        expect((await store.blocks.list('ada')).map((row) => row.blocked_uid)).toEqual(['cy']);
        expect(await store.blocks.list('cy')).toEqual([]);
      });

      it('changesSince: the blocker’s own rows by (seq, blocked uid), strictly after the checkpoint', async () => {
        const seq = await store.transaction(async () => await store.nextSeq());
        await block('ada', 'cy', true, seq);
        await block('ada', 'bob', true, seq);
        await block('bob', 'ada');
        const page = await store.blocks.changesSince('ada', START, 10);
        expect(page.map((row) => row.blocked_uid)).toEqual(['bob', 'cy']);
        expect((await store.blocks.changesSince('ada', { seq, id: 'bob' }, 10)).map((row) => row.blocked_uid)).toEqual(['cy']);
        expect(await store.blocks.changesSince('ada', START, 1)).toHaveLength(1);
        await block('ada', 'bob', false);
        expect((await store.blocks.changesSince('ada', START, 10)).map((row) => [row.blocked_uid, row.blocked])).toEqual([
          ['cy', 1],
          ['bob', 0],
        ]);
      });

      it('restampBlocked gives every row naming the user a new seq and returns the blockers', async () => {
        await block('ada', 'bob');
        await block('cy', 'bob');
        await block('ada', 'cy');
        const before = (await store.blocks.get('ada', 'bob'))!.seq;
        const seq = await store.transaction(async () => await store.nextSeq());
        const blockers = await store.transaction(async () => await store.blocks.restampBlocked('bob', seq));
        expect([...blockers].sort()).toEqual(['ada', 'cy']);
        expect((await store.blocks.get('ada', 'bob'))!.seq).toBe(seq);
        expect(seq).toBeGreaterThan(before);
        expect((await store.blocks.get('ada', 'cy'))!.seq).toBeLessThan(seq);
      });
    });

    describe('stances and Δ credits', () => {
      const at = (n: number) => ({ at: day(n) });
      const save = async (uid: string, topicId: string, stance: StanceRow['stance'], first: StanceRow['stance'], credits: string[] = []) =>
        await store.transaction(async () => {
          const history =
            first === stance
              ? [{ stance, ...at(1) }]
              : [
                  { stance: first, ...at(1) },
                  { stance, ...at(2) },
                ];
          await store.stances.save({
            uid,
            topic_id: topicId,
            stance,
            first_stance: first,
            history,
            credits,
            updated_at: day(2),
            seq: await store.nextSeq(),
          });
          return await store.topics.refreshStanceCounts(topicId, store.nextSeq);
        });
      const credit = async (uid: string, changeNo: number, responseIds: string[], counts = 1) =>
        await store.transaction(async () => {
          await store.stances.setCredits(
            uid,
            't1',
            changeNo,
            responseIds.map((id) => ({ response_id: id, topic_id: 't1', author_uid: 'ada', counts })),
            day(3),
          );
          for (const id of ['r1', 'r2', 'r3']) await store.responses.refreshDeltaCount(id, store.nextSeq);
          return await store.users.refreshPersuasionPoints('ada', store.nextSeq);
        });
      beforeEach(async () => {
        for (const uid of ['ada', 'bob', 'cy']) await addUser(uid);
        await addTopic({ id: 't1', creator_uid: 'ada' });
        await addTopic({ id: 't2', creator_uid: 'ada' });
        for (const id of ['r1', 'r2', 'r3']) await addResponse({ id, topic_id: 't1', creator_uid: 'ada' });
      });

      it('save and get: one row per user and topic; a later save keeps the first stance', async () => {
        expect(await store.stances.get('bob', 't1')).toBeUndefined();
        await save('bob', 't1', 'agree', 'agree');
        expect(await store.stances.get('bob', 't1')).toMatchObject({
          stance: 'agree',
          first_stance: 'agree',
          history: [{ stance: 'agree', at: day(1) }],
          credits: [],
        });
        await save('bob', 't1', 'disagree', 'unsure', ['r1']);
        const row = (await store.stances.get('bob', 't1'))!;
        expect(row).toMatchObject({ stance: 'disagree', first_stance: 'agree', credits: ['r1'] });
        expect(row.history.map((entry) => entry.stance)).toEqual(['unsure', 'disagree']);
        expect(await store.stances.get('cy', 't1')).toBeUndefined();
      });

      it('changesSince: the owner’s stances by (seq, topic id), strictly after the checkpoint', async () => {
        await save('bob', 't2', 'agree', 'agree');
        await save('bob', 't1', 'agree', 'agree');
        await save('cy', 't1', 'agree', 'agree');
        const page = await store.stances.changesSince('bob', START, 10);
        expect(page.map((row) => row.topic_id)).toEqual(['t2', 't1']);
        expect((await store.stances.changesSince('bob', { seq: page[0]!.seq, id: 't2' }, 10)).map((row) => row.topic_id)).toEqual(['t1']);
        expect(await store.stances.changesSince('bob', START, 1)).toHaveLength(1);
        await save('bob', 't2', 'unsure', 'agree');
        expect((await store.stances.changesSince('bob', START, 10)).map((row) => row.topic_id)).toEqual(['t1', 't2']);
      });

      it('refreshStanceCounts recounts the topic’s stances and stamps a seq only when they changed', async () => {
        expect(await save('bob', 't1', 'agree', 'agree')).toBe(true);
        await save('cy', 't1', 'disagree', 'agree');
        const topic = (await store.topics.get('t1', null))!;
        expect(topic).toMatchObject({ stance_agree: 1, stance_disagree: 1, stance_unsure: 0, minds_changed: 1 });
        expect(await store.transaction(async () => await store.topics.refreshStanceCounts('t1', store.nextSeq))).toBe(false);
        expect((await store.topics.get('t1', null))!.seq).toBe(topic.seq);
        expect(await store.topics.get('t2', null)).toMatchObject({ stance_agree: 0, minds_changed: 0 });
      });

      it('credits per change: replaced within a change, kept across changes; Δ counts and persuasion points follow', async () => {
        expect(await credit('bob', 1, ['r1', 'r2'])).toBe(true);
        expect((await store.stances.creditsFor('bob', 't1', 1)).map((row) => row.response_id).sort()).toEqual(['r1', 'r2']);
        expect((await store.responses.get('r1', null))!.delta_count).toBe(1);
        // Points: one Δ per creditor and topic, however many of the author's responses.
        expect(await store.users.get('ada')).toMatchObject({
          persuasion_points: PERSUASION_POINTS_PER_DELTA,
          points: PERSUASION_POINTS_PER_DELTA,
        });
        await credit('bob', 1, ['r3']);
        await credit('bob', 2, ['r3']);
        // A credit that does not count (no standing, or a change the server never saw) shows, earns nothing.
        expect(await credit('cy', 1, ['r3'], 0)).toBe(false);
        expect((await store.responses.get('r3', null))!.delta_count).toBe(2);
        await credit('cy', 1, ['r3']);
        expect(await store.stances.creditsFor('bob', 't1', 1)).toEqual([
          { response_id: 'r3', topic_id: 't1', author_uid: 'ada', counts: 1 },
        ]);
        // People, not credits: Bob credited r3 for two changes of mind and counts once.
        expect(await Promise.all(['r1', 'r2', 'r3'].map(async (id) => (await store.responses.get(id, null))!.delta_count))).toEqual([
          0, 0, 2,
        ]);
        expect(await store.stances.authorsCreditedOn('r3')).toEqual(['ada']);
        expect(await store.stances.authorsCreditedOn('r1')).toEqual([]);
        // Votes and persuasion add up; a recount of points keeps the persuasion part.
        await vote('bob', 'response', 'r1', 'ada', 't1');
        await store.transaction(async () => await store.users.addPoints('ada', 1, store.nextSeq));
        await store.transaction(async () => await store.users.refreshPoints('ada'));
        expect(await store.users.get('ada')).toMatchObject({
          persuasion_points: 2 * PERSUASION_POINTS_PER_DELTA,
          points: 2 * PERSUASION_POINTS_PER_DELTA + 1,
        });
        expect((await store.users.leaderboard(10))[0]).toEqual({ uid: 'ada', display_name: 'ada', points: 11, persuasion_points: 10 });
        // Credits on a deleted response no longer count; nothing changes twice.
        await store.transaction(async () => await store.responses.softDelete('r3', await store.nextSeq()));
        expect(await store.transaction(async () => await store.users.refreshPersuasionPoints('ada', store.nextSeq))).toBe(true);
        expect(await store.users.get('ada')).toMatchObject({ persuasion_points: 0, points: 1 });
        expect(await store.transaction(async () => await store.users.refreshPersuasionPoints('ada', store.nextSeq))).toBe(false);
      });

      it('votes keep the voter’s stance; upvotes by side are maintained and recounted alike; tallies and types', async () => {
        const castWith = async (voter: string, stance: StanceRow['stance'] | null, deleted = false) =>
          await store.transaction(
            async () =>
              await store.votes.set({
                voter_uid: voter,
                target_type: 'response',
                target_id: 'r2',
                target_creator_uid: 'ada',
                topic_id: 't1',
                stance,
                now: day(2),
                deleted,
                seq: await store.nextSeq(),
              }),
          );
        await castWith('bob', 'agree');
        await castWith('cy', 'disagree');
        expect((await store.votes.get('bob', 'response', 'r2'))!.stance).toBe('agree');
        // Taken back: the row keeps the stance it was cast with.
        await castWith('cy', 'agree', true);
        expect(await store.votes.get('cy', 'response', 'r2')).toMatchObject({ stance: 'disagree', deleted: 1 });
        await store.transaction(async () => await store.responses.addToCounts('r2', { score: 1, upvotesAgree: 1 }, await store.nextSeq()));
        const maintained = (await store.responses.get('r2', null))!;
        await store.transaction(async () => await store.responses.refreshAggregates('r2', await store.nextSeq()));
        const recounted = (await store.responses.get('r2', null))!;
        expect([maintained.upvotes_agree, maintained.upvotes_disagree]).toEqual([1, 0]);
        expect([recounted.upvotes_agree, recounted.upvotes_disagree]).toEqual([1, 0]);
        expect((await store.responses.stanceTallies('t1')).map((row) => [row.id, row.upvotes_agree])).toEqual([
          ['r1', 0],
          ['r2', 1],
          ['r3', 0],
        ]);
        await addResponse({ id: 'r4', topic_id: 't1', type: 'against' });
        expect((await store.responses.countByType('t1')).sort((a, b) => a.type.localeCompare(b.type))).toEqual([
          { type: 'against', n: 1 },
          { type: 'for', n: 3 },
        ]);
      });
    });

    describe('reports', () => {
      const save = async (reporter: string, row: Partial<ReportRow> & { target_id: string }) =>
        await store.transaction(async () => {
          const seq = await store.nextSeq();
          await store.reports.save({
            reporter_uid: reporter,
            target_type: 'topic',
            target_author_uid: 'ada',
            reason: 'spam',
            note: null,
            status: 'open',
            created_at: day(2),
            updated_at: day(2),
            ...row,
            seq,
          });
          return seq;
        });
      beforeEach(async () => {
        for (const uid of ['ada', 'bob', 'cy', 'dee']) await addUser(uid, uid.toUpperCase());
        await addTopic({ id: 't1' });
        await addTopic({ id: 't2' });
        await addResponse({ id: 'r1', topic_id: 't1' });
      });

      it('save inserts one report per reporter and target and replaces it; get reads it back', async () => {
        await save('bob', { target_id: 't1' });
        await save('bob', { target_id: 't1', reason: 'hate', note: 'again', updated_at: day(3) });
        expect(await store.reports.get('bob', 'topic', 't1')).toMatchObject({
          reason: 'hate',
          note: 'again',
          status: 'open',
          updated_at: day(3),
        });
        expect(await store.reports.get('bob', 'response', 't1')).toBeUndefined();
        expect(await store.reports.get('cy', 'topic', 't1')).toBeUndefined();
      });

      it("changesSince pages the reporter's own reports by (seq, id)", async () => {
        await save('bob', { target_id: 't1' });
        await save('bob', { target_type: 'response', target_id: 'r1' });
        await save('cy', { target_id: 't1' });
        await save('bob', { target_type: 'user', target_id: 'ada' });
        const all = await store.reports.changesSince('bob', START, 10);
        expect(all.map((row) => `${row.target_type}_${row.target_id}`)).toEqual(['topic_t1', 'response_r1', 'user_ada']);
        const first = all[0]!;
        expect((await store.reports.changesSince('bob', { seq: first.seq, id: 'topic_t1' }, 1)).map((row) => row.target_id)).toEqual([
          'r1',
        ]);
        expect(await store.reports.changesSince('bob', { seq: all[2]!.seq, id: 'user_ada' }, 10)).toEqual([]);
      });

      it('the queue: targets grouped by status, hidden first, then most reporters, then the oldest; totals; reporters named', async () => {
        await save('bob', { target_id: 't1', created_at: day(1), updated_at: day(1) });
        await save('bob', { target_id: 't2', created_at: day(3), updated_at: day(3) });
        await save('cy', { target_id: 't2', created_at: day(4), updated_at: day(5) });
        await save('dee', { target_type: 'response', target_id: 'r1', created_at: day(6), updated_at: day(6) });
        await save('cy', { target_type: 'user', target_id: 'ada', created_at: day(0), updated_at: day(0) });
        const open = await store.reports.queue('open', 10, 0);
        expect(open.map((row) => [row.target_id, row.reporters])).toEqual([
          ['t2', 2],
          ['ada', 1],
          ['t1', 1],
          ['r1', 1],
        ]);
        expect(open[0]).toMatchObject({ first_reported_at: day(3), last_reported_at: day(5), hidden: 0, target_author_uid: 'ada' });
        expect(await store.reports.queueTotal('open')).toBe(4);
        expect((await store.reports.queue('open', 2, 1)).map((row) => row.target_id)).toEqual(['ada', 't1']);
        // A hidden item tops the queue.
        await store.transaction(
          async () => await store.moderation.setResponseModeration('r1', 'Hidden', null, 'hidden', null, await store.nextSeq()),
        );
        expect((await store.reports.queue('open', 10, 0))[0]).toMatchObject({ target_id: 'r1', hidden: 1 });
        expect((await store.reports.forTarget('topic', 't2', 'open')).map((row) => [row.reporter_uid, row.reporter_name])).toEqual([
          ['bob', 'BOB'],
          ['cy', 'CY'],
        ]);
        // Handled: each report a new seq; the target leaves the open queue for the handled one.
        const before = (await store.reports.get('bob', 'topic', 't2'))!.seq;
        const reporters = await store.transaction(async () => await store.reports.markHandled('topic', 't2', store.nextSeq));
        expect(reporters.sort()).toEqual(['bob', 'cy']);
        const handled = (await store.reports.get('bob', 'topic', 't2'))!;
        expect(handled).toMatchObject({ status: 'handled' });
        expect(handled.seq).toBeGreaterThan(before);
        expect((await store.reports.queue('open', 10, 0)).map((row) => row.target_id)).not.toContain('t2');
        expect((await store.reports.queue('handled', 10, 0)).map((row) => row.target_id)).toEqual(['t2']);
        expect(await store.reports.queueTotal('handled')).toBe(1);
        expect(await store.transaction(async () => await store.reports.markHandled('topic', 't2', store.nextSeq))).toEqual([]);
        // One open report again: the target is open, not handled.
        await save('dee', { target_id: 't2' });
        expect((await store.reports.queue('handled', 10, 0)).map((row) => row.target_id)).toEqual([]);
        expect((await store.reports.queue('open', 10, 0)).find((row) => row.target_id === 't2')!.reporters).toBe(1);
      });

      it("reportersWithStanding counts the open reports' reporters old enough with enough points", async () => {
        await save('bob', { target_id: 't1' });
        await save('cy', { target_id: 't1' });
        await save('dee', { target_id: 't1' });
        // Every user was first seen on day 1 with 0 points.
        expect(await store.reports.reportersWithStanding('topic', 't1', day(5), 0)).toBe(3);
        expect(await store.reports.reportersWithStanding('topic', 't1', day(0), 0)).toBe(0);
        await store.transaction(async () => await store.users.addPoints('bob', 5, store.nextSeq));
        expect(await store.reports.reportersWithStanding('topic', 't1', day(5), 5)).toBe(1);
        await store.transaction(async () => await store.reports.markHandled('topic', 't1', store.nextSeq));
        expect(await store.reports.reportersWithStanding('topic', 't1', day(5), 0)).toBe(0);
      });

      it("autoHideReporters: each open reporter's first sighting, points from vouchers with standing outside the group, recent hides", async () => {
        for (const uid of ['eve', 'fay']) await addUser(uid, uid.toUpperCase());
        await addTopic({ id: 'tb', creator_uid: 'bob' });
        await store.transaction(async () => await store.users.addPoints('eve', 5, store.nextSeq));
        // eve has standing; fay has none; cy reports t1 too; bob's own upvote never counts.
        for (const voter of ['eve', 'fay', 'cy', 'bob']) await vote(voter, 'topic', 'tb', 'bob', 'tb');
        await save('bob', { target_id: 't1' });
        await save('cy', { target_id: 't1' });
        await save('bob', { target_id: 't2', created_at: day(2) });
        await store.transaction(
          async () =>
            await store.moderation.log({
              id: 'hide-t2',
              moderator_uid: null,
              action: 'hide',
              target_type: 'topic',
              target_id: 't2',
              reason: 'Reported',
              days: null,
              created_at: day(3),
            }),
        );
        const rules = { createdBefore: day(5), minPoints: 5, perDelta: 5, since: day(0) };
        const rows = await store.reports.autoHideReporters('topic', 't1', rules);
        expect(rows.sort((a, b) => a.uid.localeCompare(b.uid))).toEqual([
          { uid: 'bob', created_at: day(1), vouched_points: 1, recent_hides: 1 },
          { uid: 'cy', created_at: day(1), vouched_points: 0, recent_hides: 0 },
        ]);
        // With no points needed fay counts too; cy, a reporter of the same item, still does not.
        expect(
          (await store.reports.autoHideReporters('topic', 't1', { ...rules, minPoints: 0 })).find((row) => row.uid === 'bob'),
        ).toMatchObject({
          vouched_points: 2,
        });
        expect((await store.reports.autoHideReporters('topic', 't1', { ...rules, since: day(4) })).map((row) => row.recent_hides)).toEqual([
          0, 0,
        ]);
      });
    });

    describe('moderation', () => {
      beforeEach(async () => {
        await addUser('ada');
        await addUser('mo', 'Mo');
        await addTopic({ id: 't1', title: 'Zebra crossings everywhere' });
        await addResponse({ id: 'r1', topic_id: 't1', content: 'Quokkas are friendly' });
      });

      it('the original is kept, replaced and dropped; a moderated title or content is no longer found by search, and is again once put back', async () => {
        const original = {
          target_type: 'response' as const,
          target_id: 'r1',
          text: 'Quokkas are friendly',
          quoted_response_id: null,
          sources: '[]',
        };
        await store.transaction(async () => {
          await store.moderation.saveOriginal(original);
          await store.moderation.saveOriginal({ ...original, sources: '[{"source_id":"s"}]' });
          await store.moderation.setResponseModeration('r1', 'Removed by a moderator: x', null, 'removed', 'x', await store.nextSeq());
          await store.moderation.saveOriginal({
            target_type: 'topic',
            target_id: 't1',
            text: 'Zebra crossings everywhere',
            quoted_response_id: null,
            sources: '[]',
          });
          await store.moderation.setTopicModeration('t1', 'Hidden until a moderator reviews it', 'hidden', null, await store.nextSeq());
        });
        expect(await store.moderation.original('response', 'r1')).toEqual({ ...original, sources: '[{"source_id":"s"}]' });
        expect(await store.moderation.original('topic', 'r1')).toBeUndefined();
        expect(await store.responses.get('r1', null)).toMatchObject({
          content: 'Removed by a moderator: x',
          moderation: 'removed',
          moderation_reason: 'x',
        });
        expect(await store.topics.get('t1', null)).toMatchObject({ title: 'Hidden until a moderator reviews it', moderation: 'hidden' });
        expect(await store.responses.search('t1', match('quokkas'), 10, null)).toEqual([]);
        expect(await store.topics.search({ match: match('zebra'), sort: 'new', limit: 10, offset: 0, viewer: null })).toEqual([]);
        expect((await store.responses.search('t1', match('removed moderator'), 10, null)).map((row) => row.id)).toEqual(['r1']);
        await store.transaction(async () => {
          await store.moderation.setResponseModeration('r1', 'Quokkas are friendly', null, null, null, await store.nextSeq());
          await store.moderation.setTopicModeration('t1', 'Zebra crossings everywhere', null, null, await store.nextSeq());
          await store.moderation.dropOriginal('response', 'r1');
        });
        expect(await store.moderation.original('response', 'r1')).toBeUndefined();
        expect((await store.responses.search('t1', match('quokkas'), 10, null)).map((row) => row.id)).toEqual(['r1']);
        expect(
          (await store.topics.search({ match: match('zebra'), sort: 'new', limit: 10, offset: 0, viewer: null })).map((row) => row.id),
        ).toEqual(['t1']);
      });

      it('locks, suspensions and roles stamp a new seq so they replicate', async () => {
        const topicSeq = (await store.topics.get('t1', null))!.seq;
        await store.transaction(async () => await store.moderation.setTopicLocked('t1', true, await store.nextSeq()));
        const locked = (await store.topics.get('t1', null))!;
        expect(locked.locked).toBe(1);
        expect(locked.seq).toBeGreaterThan(topicSeq);
        const userSeq = (await store.users.get('ada'))!.seq;
        await store.transaction(async () => await store.moderation.setSuspension('ada', day(9), 'Spam', await store.nextSeq()));
        expect(await store.users.get('ada')).toMatchObject({ suspended_until: day(9), suspension_reason: 'Spam' });
        expect(await store.users.changedSince('ada', userSeq)).toBeDefined();
        await store.transaction(async () => {
          await store.moderation.setSuspension('ada', null, null, await store.nextSeq());
          await store.moderation.setRole('ada', 'moderator', await store.nextSeq());
        });
        expect(await store.users.get('ada')).toMatchObject({ suspended_until: null, suspension_reason: null, role: 'moderator' });
        await store.transaction(async () => await store.moderation.setTopicLocked('t1', false, await store.nextSeq()));
        expect((await store.topics.get('t1', null))!.locked).toBe(0);
      });

      it('the log: newest first with the moderator’s name (null for the automatic hide), paged, counted', async () => {
        const entry = (id: string, at: string, moderator: string | null) => ({
          id,
          moderator_uid: moderator,
          action: 'remove' as const,
          target_type: 'topic' as const,
          target_id: 't1',
          reason: `Reason ${id}`,
          days: null,
          created_at: at,
        });
        await store.transaction(async () => {
          await store.moderation.log(entry('l1', day(1), 'mo'));
          await store.moderation.log({ ...entry('l2', day(3), null), action: 'hide' });
          await store.moderation.log({ ...entry('l3', day(2), 'mo'), action: 'suspend', target_type: 'user', target_id: 'ada', days: 7 });
        });
        const page = await store.moderation.logPage(10, 0);
        expect(page.map((row) => row.id)).toEqual(['l2', 'l3', 'l1']);
        expect(page[0]).toMatchObject({ moderator_uid: null, moderator_name: null, action: 'hide' });
        expect(page[1]).toMatchObject({ moderator_name: 'Mo', days: 7, target_type: 'user', reason: 'Reason l3' });
        expect((await store.moderation.logPage(1, 1)).map((row) => row.id)).toEqual(['l3']);
        expect(await store.moderation.logTotal()).toBe(3);
      });
    });

    describe('notifications', () => {
      const notify = async (
        id: string,
        recipient: string,
        createdAt: string,
        targetId = 't1',
        type: NotificationType = NOTIFICATION_TYPES[0],
      ) =>
        await store.transaction(
          async () =>
            await store.notifications.insert({
              id,
              recipient_uid: recipient,
              type,
              actor_uid: 'bob',
              target_summary: `Summary ${id}`,
              target_id: targetId,
              response_id: `response-of-${id}`,
              created_at: createdAt,
              seq: await store.nextSeq(),
            }),
        );
      beforeEach(async () => {
        await addUser('ada');
        await addUser('bob', 'Bob');
        await addUser('cy');
      });

      it('insert and get: the row with the actor’s current name, unread', async () => {
        await notify('n1', 'ada', day(1), 't1', NOTIFICATION_TYPES[1]);
        expect(await store.notifications.get('n1')).toMatchObject({
          id: 'n1',
          recipient_uid: 'ada',
          type: NOTIFICATION_TYPES[1],
          actor_uid: 'bob',
          actor_display_name: 'Bob',
          target_summary: 'Summary n1',
          target_id: 't1',
          response_id: 'response-of-n1',
          created_at: day(1),
          is_read: 0,
          deleted: 0,
        });
        await addUser('bob', 'Robert');
        expect((await store.notifications.get('n1'))!.actor_display_name).toBe('Robert');
        expect(await store.notifications.get('missing')).toBeUndefined();
      });

      it('forUser: the recipient’s live notifications, newest first, paged', async () => {
        await notify('n1', 'ada', day(1));
        await notify('n3', 'ada', day(3));
        await notify('n2', 'ada', day(2));
        await notify('m1', 'cy', day(4));
        expect((await store.notifications.forUser('ada', 10, 0)).map((row) => row.id)).toEqual(['n3', 'n2', 'n1']);
        expect((await store.notifications.forUser('ada', 1, 1)).map((row) => row.id)).toEqual(['n2']);
        expect((await store.notifications.forUser('cy', 10, 0)).map((row) => row.id)).toEqual(['m1']);
      });

      it('markRead stamps a seq', async () => {
        await notify('n1', 'ada', day(1));
        const before = (await store.notifications.get('n1'))!.seq;
        await store.transaction(async () => await store.notifications.markRead('n1', await store.nextSeq()));
        const row = (await store.notifications.get('n1'))!;
        expect(row.is_read).toBe(1);
        expect(row.seq).toBeGreaterThan(before);
      });

      it('removeForTopic tombstones the topic’s notifications and returns whose lists changed', async () => {
        await notify('n1', 'ada', day(1), 't1');
        await notify('n2', 'ada', day(2), 't1');
        await notify('m1', 'cy', day(3), 't1');
        await notify('k1', 'cy', day(4), 't2');
        const recipients = await store.transaction(async () => await store.notifications.removeForTopic('t1', store.nextSeq));
        expect([...recipients].sort()).toEqual(['ada', 'cy']);
        expect(await store.notifications.forUser('ada', 10, 0)).toEqual([]);
        expect((await store.notifications.forUser('cy', 10, 0)).map((row) => row.id)).toEqual(['k1']);
        expect((await store.notifications.get('n1'))!.deleted).toBe(1);
        expect([...(await store.transaction(async () => await store.notifications.removeForTopic('t1', store.nextSeq)))]).toEqual([]);
      });

      it('countFrom counts one actor’s live notifications to one recipient since a time', async () => {
        await notify('n1', 'ada', day(1));
        await notify('n2', 'ada', day(2));
        await notify('n3', 'ada', day(3));
        await notify('m1', 'cy', day(3));
        expect(await store.notifications.countFrom('bob', 'ada', day(2))).toBe(2);
        expect(await store.notifications.countFrom('bob', 'ada', day(4))).toBe(0);
        expect(await store.notifications.countFrom('cy', 'ada', day(0))).toBe(0);
      });

      it('markResponseDeleted keeps the notifications about the reply, says so, re-stamps them once', async () => {
        await notify('n1', 'ada', day(1));
        await notify('n2', 'cy', day(2));
        const before = (await store.notifications.get('n1'))!.seq;
        expect((await store.notifications.get('n1'))!.response_deleted).toBe(0);
        const recipients = await store.transaction(
          async () => await store.notifications.markResponseDeleted('response-of-n1', store.nextSeq),
        );
        expect([...recipients]).toEqual(['ada']);
        const row = (await store.notifications.get('n1'))!;
        expect(row).toMatchObject({ response_deleted: 1, deleted: 0 });
        expect(row.seq).toBeGreaterThan(before);
        expect((await store.notifications.forUser('ada', 10, 0)).map((r) => r.id)).toEqual(['n1']);
        expect((await store.notifications.get('n2'))!.response_deleted).toBe(0);
        expect([
          ...(await store.transaction(async () => await store.notifications.markResponseDeleted('response-of-n1', store.nextSeq))),
        ]).toEqual([]);
      });

      it('changesSince: the recipient’s notifications by (seq, id), tombstones included', async () => {
        await notify('n1', 'ada', day(1));
        await notify('n2', 'ada', day(2));
        await notify('m1', 'cy', day(3));
        const page = await store.notifications.changesSince('ada', START, 10);
        expect(page.map((row) => row.id)).toEqual(['n1', 'n2']);
        const end = { seq: page[1]!.seq, id: 'n2' };
        expect(await store.notifications.changesSince('ada', end, 10)).toEqual([]);
        await store.transaction(async () => await store.notifications.markRead('n1', await store.nextSeq()));
        expect(await store.notifications.changesSince('ada', end, 10)).toEqual([expect.objectContaining({ id: 'n1', is_read: 1 })]);
        await store.transaction(async () => await store.notifications.removeForTopic('t1', store.nextSeq));
        const tombstones = await store.notifications.changesSince('ada', end, 10);
        expect(tombstones.map((row) => [row.id, row.deleted]).sort()).toEqual([
          ['n1', 1],
          ['n2', 1],
        ]);
        expect(tombstones.map((row) => row.seq)).toEqual(tombstones.map((row) => row.seq).sort((a, b) => a - b));
      });
    });
  });
}
