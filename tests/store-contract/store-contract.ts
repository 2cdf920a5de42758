// The storage contract (sync-server/src/store/types.ts): what any engine behind
// the Store interface must do, checked through the interface only. Run it against
// an implementation with `runStoreContract(name, makeStore)` (sqlite.test.ts).
// Each test gets a fresh, empty store.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NOTIFICATION_TYPES, PERSUASION_POINTS_PER_DELTA, type NotificationType, type Sort } from '../../shared/constants.js';
import { hotScore } from '../../shared/rules/hot.js';
import { ftsQuery } from '../../shared/rules/search-words.js';
import { comparatorFor, TOPIC_ORDERS } from '../../shared/rules/sort-order.js';
import type { Checkpoint, ResponseInsert, StanceRow, Store, TopicInsert } from '../../sync-server/src/store/types.js';

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
    const addUser = (uid: string, name: string | null = uid) =>
      store.transaction(() => store.users.remember({ uid, name, email: `${uid}@example.com` }, day(1), store.nextSeq));
    const addTopic = (row: Partial<TopicInsert> & { id: string }) =>
      store.transaction(() => {
        const seq = row.seq ?? store.nextSeq();
        store.topics.insert({ title: `Topic ${row.id}`, category: 'Science', creator_uid: 'ada', created_at: day(1), ...row, seq });
        return seq;
      });
    const addResponse = (row: Partial<ResponseInsert> & { id: string; topic_id: string }) =>
      store.transaction(() => {
        const seq = store.nextSeq();
        store.responses.insert({
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
    const vote = (voter: string, type: 'topic' | 'response', targetId: string, creator: string, topicId: string, deleted = false) =>
      store.transaction(() =>
        store.votes.set({
          voter_uid: voter,
          target_type: type,
          target_id: targetId,
          target_creator_uid: creator,
          topic_id: topicId,
          now: day(2),
          deleted,
          seq: store.nextSeq(),
        }),
      );
    const refreshTopic = (id: string) =>
      store.transaction(() => store.topics.refreshAggregates(id, store.topics.get(id, null)!.created_at, store.nextSeq()));

    describe('seq and transactions', () => {
      it('nextSeq is strictly increasing, within and across transactions', () => {
        const first = store.transaction(() => [store.nextSeq(), store.nextSeq(), store.nextSeq()]);
        const second = store.transaction(() => [store.nextSeq(), store.nextSeq()]);
        const all = [...first, ...second];
        expect(all[0]).toBeGreaterThan(0);
        for (let i = 1; i < all.length; i++) expect(all[i]).toBeGreaterThan(all[i - 1]!);
      });

      it('a transaction returns what its function returns', () => {
        expect(store.transaction(() => 42)).toBe(42);
      });

      it('a throw rolls back every write of the transaction and is rethrown', () => {
        addUser('ada');
        const committed = store.transaction(() => store.nextSeq());
        expect(() =>
          store.transaction(() => {
            store.topics.insert({
              id: 'doomed',
              title: 'Doomed',
              category: 'Science',
              creator_uid: 'ada',
              created_at: day(1),
              seq: store.nextSeq(),
            });
            store.users.setWeeklySummary('ada', false, store.nextSeq());
            throw new Error('boom');
          }),
        ).toThrow('boom');
        expect(store.topics.get('doomed', null)).toBeUndefined();
        expect(store.users.get('ada')!.receive_weekly_summary).toBe(1);
        expect(store.isEmpty()).toBe(true);
        // The next change number still comes after every committed one.
        expect(store.transaction(() => store.nextSeq())).toBeGreaterThan(committed);
      });

      it('a nested transaction that throws rolls back its own writes only', () => {
        addUser('ada');
        store.transaction(() => {
          store.topics.insert({
            id: 'kept',
            title: 'Kept',
            category: 'Science',
            creator_uid: 'ada',
            created_at: day(1),
            seq: store.nextSeq(),
          });
          expect(() =>
            store.transaction(() => {
              store.topics.insert({
                id: 'inner',
                title: 'Inner',
                category: 'Science',
                creator_uid: 'ada',
                created_at: day(1),
                seq: store.nextSeq(),
              });
              throw new Error('inner');
            }),
          ).toThrow('inner');
        });
        expect(store.topics.get('kept', null)?.title).toBe('Kept');
        expect(store.topics.get('inner', null)).toBeUndefined();
      });

      it('isEmpty until the first topic, and still not empty once it is deleted', () => {
        expect(store.isEmpty()).toBe(true);
        addUser('ada');
        expect(store.isEmpty()).toBe(true);
        addTopic({ id: 't1' });
        expect(store.isEmpty()).toBe(false);
        store.transaction(() => store.topics.softDelete('t1', store.nextSeq()));
        expect(store.isEmpty()).toBe(false);
      });
    });

    describe('users', () => {
      it('remember records a user, reports whether anything changed, and stamps a seq', () => {
        expect(store.users.get('ada')).toBeUndefined();
        expect(addUser('ada', 'Ada')).toBe(true);
        const row = store.users.get('ada')!;
        expect(row).toMatchObject({ uid: 'ada', display_name: 'Ada', email: 'ada@example.com', points: 0, receive_weekly_summary: 1 });
        expect(row.seq).toBeGreaterThan(0);
        expect(addUser('ada', 'Ada')).toBe(false);
        expect(store.users.get('ada')!.seq).toBe(row.seq);
        expect(addUser('ada', 'Ada Lovelace')).toBe(true);
        const renamed = store.users.get('ada')!;
        expect(renamed.display_name).toBe('Ada Lovelace');
        expect(renamed.seq).toBeGreaterThan(row.seq);
      });

      it('changedSince returns the row only when it changed after the seq', () => {
        addUser('ada');
        const seq = store.users.get('ada')!.seq;
        expect(store.users.changedSince('ada', seq - 1)?.uid).toBe('ada');
        expect(store.users.changedSince('ada', seq)).toBeUndefined();
        const next = store.transaction(() => {
          const s = store.nextSeq();
          store.users.setWeeklySummary('ada', false, s);
          return s;
        });
        expect(store.users.changedSince('ada', seq)).toMatchObject({ receive_weekly_summary: 0, seq: next });
        expect(store.users.changedSince('nobody', 0)).toBeUndefined();
      });

      it('points count live upvotes by others on the user’s items; rank and leaderboard follow', () => {
        for (const uid of ['ada', 'bob', 'cy', 'dee']) addUser(uid);
        addTopic({ id: 't1', creator_uid: 'ada' });
        addTopic({ id: 't2', creator_uid: 'bob' });
        addResponse({ id: 'r1', topic_id: 't2', creator_uid: 'ada' });
        vote('bob', 'topic', 't1', 'ada', 't1');
        vote('cy', 'topic', 't1', 'ada', 't1');
        vote('ada', 'topic', 't1', 'ada', 't1'); // one's own vote earns nothing
        vote('cy', 'response', 'r1', 'ada', 't2');
        vote('dee', 'response', 'r1', 'ada', 't2', true); // taken back
        vote('ada', 'topic', 't2', 'bob', 't2');
        store.transaction(() => ['ada', 'bob', 'cy'].forEach((uid) => store.users.refreshPoints(uid)));
        expect(store.users.get('ada')!.points).toBe(3);
        expect(store.users.get('bob')!.points).toBe(1);
        expect(store.users.get('cy')!.points).toBe(0);
        expect(store.users.rankFor(3)).toBe(1);
        expect(store.users.rankFor(1)).toBe(2);
        expect(store.users.rankFor(0)).toBe(3);
        expect(store.users.leaderboard(10)).toEqual([
          { uid: 'ada', display_name: 'ada', points: 3, persuasion_points: 0 },
          { uid: 'bob', display_name: 'bob', points: 1, persuasion_points: 0 },
        ]);
        expect(store.users.leaderboard(1).map((e) => e.uid)).toEqual(['ada']);
      });

      it('leaderboard ties are ordered by uid', () => {
        for (const uid of ['zed', 'amy', 'max', 'fan']) addUser(uid);
        addTopic({ id: 'z', creator_uid: 'zed' });
        addTopic({ id: 'a', creator_uid: 'amy' });
        vote('fan', 'topic', 'z', 'zed', 'z');
        vote('fan', 'topic', 'a', 'amy', 'a');
        store.transaction(() => ['zed', 'amy'].forEach((uid) => store.users.refreshPoints(uid)));
        expect(store.users.leaderboard(10).map((e) => e.uid)).toEqual(['amy', 'zed']);
      });
    });

    describe('topics', () => {
      beforeEach(() => {
        for (const uid of ['ada', 'bob', 'cy']) addUser(uid, uid.toUpperCase());
      });

      it('insert and get: the row with its author’s name, score 0 and the stored hot score', () => {
        const seq = addTopic({ id: 't1', title: 'Is tea better?', category: 'Culture', creator_uid: 'ada', created_at: day(3) });
        const row = store.topics.get('t1', null)!;
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
        expect(store.topics.get('missing', null)).toBeUndefined();
      });

      it('user_has_upvoted reflects the viewer’s live vote', () => {
        addTopic({ id: 't1' });
        vote('bob', 'topic', 't1', 'ada', 't1');
        expect(store.topics.get('t1', 'bob')!.user_has_upvoted).toBe(1);
        expect(store.topics.get('t1', 'cy')!.user_has_upvoted).toBe(0);
        expect(store.topics.get('t1', null)!.user_has_upvoted).toBe(0);
        vote('bob', 'topic', 't1', 'ada', 't1', true);
        expect(store.topics.get('t1', 'bob')!.user_has_upvoted).toBe(0);
      });

      it('refreshAggregates recounts live votes and responses, recomputes hot and stamps the seq', () => {
        addTopic({ id: 't1', created_at: day(5) });
        addResponse({ id: 'r1', topic_id: 't1' });
        addResponse({ id: 'r2', topic_id: 't1' });
        store.transaction(() => store.responses.softDelete('r2', store.nextSeq()));
        vote('bob', 'topic', 't1', 'ada', 't1');
        vote('cy', 'topic', 't1', 'ada', 't1');
        vote('ada', 'topic', 't1', 'ada', 't1', true);
        const before = store.topics.get('t1', null)!.seq;
        refreshTopic('t1');
        const row = store.topics.get('t1', null)!;
        expect(row).toMatchObject({ score: 2, responses_count: 1 });
        expect(row.hot).toBeCloseTo(hotScore(2, 1, day(5)), 9);
        expect(row.seq).toBeGreaterThan(before);
      });

      describe('lists', () => {
        // a: oldest, b: most votes, c: newest; d shares a's time (ties fall to the id); e is deleted.
        beforeEach(() => {
          addTopic({ id: 'a', created_at: day(1), category: 'Science' });
          addTopic({ id: 'b', created_at: day(2), category: 'Culture' });
          addTopic({ id: 'c', created_at: day(3), category: 'Science' });
          addTopic({ id: 'd', created_at: day(1), category: 'Science' });
          addTopic({ id: 'e', created_at: day(4), category: 'Science' });
          vote('bob', 'topic', 'b', 'ada', 'b');
          vote('cy', 'topic', 'b', 'ada', 'b');
          vote('bob', 'topic', 'a', 'ada', 'a');
          for (const id of ['a', 'b']) refreshTopic(id);
          store.transaction(() => store.topics.softDelete('e', store.nextSeq()));
        });
        const list = (sort: Sort, extra: { category?: string; limit?: number; offset?: number } = {}) =>
          store.topics.list({ sort, limit: 20, offset: 0, viewer: null, ...extra }).map((row) => row.id);

        it.each([
          ['new', ['c', 'b', 'd', 'a']],
          ['top', ['b', 'a', 'c', 'd']],
          ['hot', ['c', 'b', 'a', 'd']],
        ] as const)('%s: live topics in its order', (sort, expected) => {
          expect(list(sort)).toEqual(expected);
          // The same order the app computes on the device (shared/rules/sort-order.ts).
          const rows = store.topics.list({ sort, limit: 20, offset: 0, viewer: null });
          expect([...rows].sort(comparatorFor(TOPIC_ORDERS[sort])).map((row) => row.id)).toEqual(expected);
        });

        it('by category, and paged by limit and offset without overlap', () => {
          expect(list('new', { category: 'Science' })).toEqual(['c', 'd', 'a']);
          expect(list('new', { category: 'Culture' })).toEqual(['b']);
          expect(list('new', { category: 'Politics' })).toEqual([]);
          const pages = [0, 1, 2, 3].map((page) => list('top', { limit: 1, offset: page }));
          expect(pages.flat()).toEqual(list('top'));
          expect(list('top', { limit: 2, offset: 3 })).toEqual(['d']);
        });

        it('fills user_has_upvoted for the viewer', () => {
          const rows = store.topics.list({ sort: 'top', limit: 20, offset: 0, viewer: 'bob' });
          expect(rows.filter((row) => row.user_has_upvoted === 1).map((row) => row.id)).toEqual(['b', 'a']);
        });
      });

      it('search: live titles matching every word as a prefix, in the sort’s order, optionally by category', () => {
        addTopic({ id: 'bus', title: 'Should public transit be free?', created_at: day(1) });
        addTopic({ id: 'train', title: 'Transit trains at night', created_at: day(2), category: 'Culture' });
        addTopic({ id: 'nuke', title: 'Nuclear power now', created_at: day(3) });
        addTopic({ id: 'gone', title: 'Transit is gone', created_at: day(4) });
        store.transaction(() => store.topics.softDelete('gone', store.nextSeq()));
        const search = (text: string, extra: { category?: string; sort?: Sort } = {}) =>
          store.topics.search({ match: match(text), sort: 'new', limit: 20, offset: 0, viewer: null, ...extra }).map((row) => row.id);
        expect(search('transit')).toEqual(['train', 'bus']);
        expect(search('TRANS')).toEqual(['train', 'bus']);
        expect(search('nucl pow')).toEqual(['nuke']);
        expect(search('nuclear transit')).toEqual([]);
        expect(search('transit', { category: 'Culture' })).toEqual(['train']);
        expect(search('transit', { sort: 'hot' })).toEqual(['train', 'bus']);
        expect(store.topics.search({ match: match('transit'), sort: 'new', limit: 1, offset: 1, viewer: null }).map((r) => r.id)).toEqual([
          'bus',
        ]);
      });

      it('softDelete leaves a tombstone that get and changesSince still return', () => {
        addTopic({ id: 't1' });
        const seq = store.transaction(() => {
          const s = store.nextSeq();
          store.topics.softDelete('t1', s);
          return s;
        });
        expect(store.topics.get('t1', null)).toMatchObject({ id: 't1', deleted: 1, seq });
        expect(store.topics.list({ sort: 'new', limit: 20, offset: 0, viewer: null })).toEqual([]);
        expect(store.topics.changesSince(START, 10, null)).toEqual([expect.objectContaining({ id: 't1', deleted: 1, seq })]);
      });

      it('changesSince pages by (seq, id), strictly after the checkpoint, and a rewrite moves a row to the end', () => {
        addTopic({ id: 'a' });
        addTopic({ id: 'b' });
        addTopic({ id: 'c' });
        const first = store.topics.changesSince(START, 2, null);
        expect(first.map((row) => row.id)).toEqual(['a', 'b']);
        const after = { seq: first[1]!.seq, id: first[1]!.id };
        expect(store.topics.changesSince(after, 10, null).map((row) => row.id)).toEqual(['c']);
        const end = { seq: store.topics.get('c', null)!.seq, id: 'c' };
        expect(store.topics.changesSince(end, 10, null)).toEqual([]);
        refreshTopic('a');
        expect(store.topics.changesSince(end, 10, null).map((row) => row.id)).toEqual(['a']);
        expect(store.topics.changesSince(START, 10, null).map((row) => row.id)).toEqual(['b', 'c', 'a']);
      });

      it('changesSince breaks a tie on seq by id', () => {
        const seq = store.transaction(() => store.nextSeq());
        addTopic({ id: 'y', seq });
        addTopic({ id: 'x', seq });
        expect(store.topics.changesSince(START, 10, null).map((row) => row.id)).toEqual(['x', 'y']);
        expect(store.topics.changesSince({ seq, id: 'x' }, 10, null).map((row) => row.id)).toEqual(['y']);
      });
    });

    describe('responses', () => {
      // t1: r1 (root) ← r3 ← r4, r2 (root), r5 quotes r2; t2: other.
      beforeEach(() => {
        for (const uid of ['ada', 'bob']) addUser(uid, uid.toUpperCase());
        addTopic({ id: 't1' });
        addTopic({ id: 't2' });
        addResponse({ id: 'r1', topic_id: 't1', created_at: day(1), content: 'Fares fund the service' });
        addResponse({
          id: 'r2',
          topic_id: 't1',
          created_at: day(2),
          creator_uid: 'bob',
          type: 'against',
          content: 'Tallinn shows otherwise',
        });
        addResponse({ id: 'r3', topic_id: 't1', parent_response_id: 'r1', created_at: day(3) });
        addResponse({ id: 'r4', topic_id: 't1', parent_response_id: 'r3', created_at: day(4) });
        addResponse({ id: 'r5', topic_id: 't1', quoted_response_id: 'r2', created_at: day(5) });
        addResponse({ id: 'other', topic_id: 't2', created_at: day(1), content: 'Fares elsewhere' });
      });

      it('insert and get: the row with author, quote and counters', () => {
        expect(store.responses.get('r2', null)).toMatchObject({
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
        expect(store.responses.get('r5', null)).toMatchObject({
          quoted_response_id: 'r2',
          quoted_content: 'Tallinn shows otherwise',
          quoted_username: 'BOB',
          quoted_live: 1,
        });
        expect(store.responses.get('missing', null)).toBeUndefined();
      });

      it('roots, replies and mappings: live responses, oldest first', () => {
        expect(store.responses.roots('t1', null).map((row) => row.id)).toEqual(['r1', 'r2', 'r5']);
        expect(store.responses.replies('r1', null).map((row) => row.id)).toEqual(['r3']);
        expect(store.responses.replies('r3', null).map((row) => row.id)).toEqual(['r4']);
        expect(store.responses.mappings('t1').map(({ id, parent_response_id }) => ({ id, parent_response_id }))).toEqual([
          { id: 'r1', parent_response_id: null },
          { id: 'r2', parent_response_id: null },
          { id: 'r3', parent_response_id: 'r1' },
          { id: 'r4', parent_response_id: 'r3' },
          { id: 'r5', parent_response_id: null },
        ]);
        const first = store.responses.mappings('t1', null, 2);
        expect(first.map((m) => m.id)).toEqual(['r1', 'r2']);
        expect(store.responses.mappings('t1', first[1], 2).map((m) => m.id)).toEqual(['r3', 'r4']);
        expect(store.responses.liveIdsOfTopic('t1').sort()).toEqual(['r1', 'r2', 'r3', 'r4', 'r5']);
        store.transaction(() => store.responses.softDelete('r2', store.nextSeq()));
        expect(store.responses.roots('t1', null).map((row) => row.id)).toEqual(['r1', 'r5']);
        expect(store.responses.mappings('t1').map((m) => m.id)).toEqual(['r1', 'r3', 'r4', 'r5']);
        expect(store.responses.liveIdsOfTopic('t1')).not.toContain('r2');
      });

      it('a quote shows only while the quoted response is live', () => {
        store.transaction(() => store.responses.softDelete('r2', store.nextSeq()));
        expect(store.responses.get('r5', null)).toMatchObject({ quoted_response_id: 'r2', quoted_live: 0 });
      });

      it('subtree: the response and its live descendants', () => {
        expect(
          store.responses
            .subtree('r1')
            .map((node) => node.id)
            .sort(),
        ).toEqual(['r1', 'r3', 'r4']);
        expect(store.responses.subtree('r1').find((node) => node.id === 'r3')?.creator_uid).toBe('ada');
        store.transaction(() => store.responses.softDelete('r3', store.nextSeq()));
        expect(store.responses.subtree('r1').map((node) => node.id)).toEqual(['r1']);
      });

      it('update changes content and quote, stamps updated_at and seq', () => {
        const before = store.responses.get('r1', null)!;
        const seq = store.transaction(() => {
          const s = store.nextSeq();
          store.responses.update({ id: 'r1', content: 'Edited text', quoted_response_id: 'r2', updated_at: day(9), seq: s });
          return s;
        });
        expect(store.responses.get('r1', null)).toMatchObject({
          content: 'Edited text',
          quoted_response_id: 'r2',
          created_at: before.created_at,
          updated_at: day(9),
          seq,
        });
        expect(store.responses.search('t1', match('edited'), 10, null).map((row) => row.id)).toEqual(['r1']);
        expect(store.responses.search('t1', match('fund'), 10, null)).toEqual([]);
      });

      it('refreshAggregates recounts live votes and live direct replies', () => {
        addResponse({ id: 'r6', topic_id: 't1', parent_response_id: 'r1', created_at: day(6) });
        store.transaction(() => store.responses.softDelete('r6', store.nextSeq()));
        vote('bob', 'response', 'r1', 'ada', 't1');
        vote('ada', 'response', 'r1', 'ada', 't1');
        const before = store.responses.get('r1', null)!.seq;
        store.transaction(() => store.responses.refreshAggregates('r1', store.nextSeq()));
        const row = store.responses.get('r1', 'bob')!;
        expect(row).toMatchObject({ score: 2, comment_count: 1, user_has_upvoted: 1 });
        expect(row.seq).toBeGreaterThan(before);
      });

      it('search: live responses of one topic whose content matches', () => {
        expect(store.responses.search('t1', match('fares'), 10, null).map((row) => row.id)).toEqual(['r1']);
        expect(store.responses.search('t2', match('fares'), 10, null).map((row) => row.id)).toEqual(['other']);
        expect(store.responses.search('t1', match('argument'), 2, null)).toHaveLength(2);
        store.transaction(() => store.responses.softDelete('r1', store.nextSeq()));
        expect(store.responses.search('t1', match('fares'), 10, null)).toEqual([]);
      });

      it('changesSince: one topic’s responses by (seq, id), tombstones included', () => {
        const all = store.responses.changesSince('t1', START, 10, null).map((row) => row.id);
        expect(all).toEqual(['r1', 'r2', 'r3', 'r4', 'r5']);
        const page = store.responses.changesSince('t1', START, 2, null);
        const after = { seq: page[1]!.seq, id: page[1]!.id };
        expect(store.responses.changesSince('t1', after, 10, null).map((row) => row.id)).toEqual(['r3', 'r4', 'r5']);
        const last = store.responses.get('r5', null)!;
        store.transaction(() => store.responses.softDelete('r2', store.nextSeq()));
        expect(store.responses.changesSince('t1', { seq: last.seq, id: last.id }, 10, null)).toEqual([
          expect.objectContaining({ id: 'r2', deleted: 1 }),
        ]);
        expect(store.responses.changesSince('t2', START, 10, null).map((row) => row.id)).toEqual(['other']);
      });
    });

    describe('sources', () => {
      let n = 0;
      const newId = () => `s${++n}`;
      beforeEach(() => {
        n = 0;
        addUser('ada');
        addTopic({ id: 't1' });
        addResponse({ id: 'r1', topic_id: 't1' });
      });

      it('ensure: one row per URL, which only gains missing name and description', () => {
        const first = store.transaction(() => store.sources.ensure({ url: 'https://a.example/', name: null }, newId, day(1)));
        expect(first).toEqual({ id: 's1', url: 'https://a.example/', name: null, description: null });
        const named = store.transaction(() =>
          store.sources.ensure({ url: 'https://a.example/', name: 'Alpha', description: '' }, newId, day(2)),
        );
        expect(named).toEqual({ id: 's1', url: 'https://a.example/', name: 'Alpha', description: null });
        const renamed = store.transaction(() =>
          store.sources.ensure({ url: 'https://a.example/', name: 'Other', description: 'About A' }, newId, day(3)),
        );
        expect(renamed).toEqual({ id: 's1', url: 'https://a.example/', name: 'Alpha', description: 'About A' });
        expect(store.sources.all(10)).toHaveLength(1);
      });

      it('setForResponse keeps the given order and replaces the previous list', () => {
        const [a, b, c] = store.transaction(() =>
          ['https://a.example/', 'https://b.example/', 'https://c.example/'].map((url) => store.sources.ensure({ url }, newId, day(1))),
        );
        store.transaction(() => store.sources.setForResponse('r1', [c!.id, a!.id]));
        expect(store.sources.forResponse('r1').map((s) => s.url)).toEqual(['https://c.example/', 'https://a.example/']);
        store.transaction(() => store.sources.setForResponse('r1', [b!.id]));
        expect(store.sources.forResponse('r1')).toEqual([b]);
        store.transaction(() => store.sources.setForResponse('r1', []));
        expect(store.sources.forResponse('r1')).toEqual([]);
      });

      it('all: by name (or URL), case-insensitively, at most limit; search by name, URL or description', () => {
        store.transaction(() => {
          store.sources.ensure({ url: 'https://z.example/', name: 'beta' }, newId, day(1));
          store.sources.ensure({ url: 'https://y.example/', name: 'Alpha', description: 'Transit study' }, newId, day(1));
          store.sources.ensure({ url: 'https://c.example/' }, newId, day(1));
        });
        expect(store.sources.all(10).map((s) => s.name ?? s.url)).toEqual(['Alpha', 'beta', 'https://c.example/']);
        expect(store.sources.all(2)).toHaveLength(2);
        expect(store.sources.search(match('alpha'), 10).map((s) => s.url)).toEqual(['https://y.example/']);
        expect(store.sources.search(match('transit'), 10).map((s) => s.url)).toEqual(['https://y.example/']);
        expect(store.sources.search(match('z example'), 10).map((s) => s.url)).toEqual(['https://z.example/']);
        expect(store.sources.search(match('nothing'), 10)).toEqual([]);
      });
    });

    describe('votes', () => {
      beforeEach(() => {
        for (const uid of ['ada', 'bob', 'cy']) addUser(uid);
        addTopic({ id: 't1', creator_uid: 'ada' });
        addResponse({ id: 'r1', topic_id: 't1', creator_uid: 'ada' });
      });

      it('set and get: one row per voter and target; taking a vote back keeps the row', () => {
        expect(store.votes.get('bob', 'topic', 't1')).toBeUndefined();
        vote('bob', 'topic', 't1', 'ada', 't1');
        const up = store.votes.get('bob', 'topic', 't1')!;
        expect(up).toMatchObject({
          voter_uid: 'bob',
          target_type: 'topic',
          target_id: 't1',
          target_creator_uid: 'ada',
          topic_id: 't1',
          deleted: 0,
        });
        vote('bob', 'topic', 't1', 'ada', 't1', true);
        const down = store.votes.get('bob', 'topic', 't1')!;
        expect(down.deleted).toBe(1);
        expect(down.seq).toBeGreaterThan(up.seq);
        expect(store.votes.get('bob', 'response', 't1')).toBeUndefined();
        expect(store.votes.changesSince('bob', START, 10)).toHaveLength(1);
      });

      it('removeAllOn takes back the live votes on a target and returns them', () => {
        vote('bob', 'topic', 't1', 'ada', 't1');
        vote('cy', 'topic', 't1', 'ada', 't1', true);
        vote('cy', 'response', 'r1', 'ada', 't1');
        const before = store.votes.get('bob', 'topic', 't1')!.seq;
        const removed = store.transaction(() => store.votes.removeAllOn('topic', 't1', store.nextSeq));
        expect(removed).toEqual([{ voter_uid: 'bob', target_creator_uid: 'ada' }]);
        const bob = store.votes.get('bob', 'topic', 't1')!;
        expect(bob.deleted).toBe(1);
        expect(bob.seq).toBeGreaterThan(before);
        expect(store.votes.get('cy', 'response', 'r1')!.deleted).toBe(0);
        expect(store.transaction(() => store.votes.removeAllOn('topic', 't1', store.nextSeq))).toEqual([]);
      });

      it('changesSince: the voter’s own votes by (seq, vote id), strictly after the checkpoint', () => {
        vote('bob', 'topic', 't1', 'ada', 't1');
        vote('bob', 'response', 'r1', 'ada', 't1');
        vote('cy', 'topic', 't1', 'ada', 't1');
        const page = store.votes.changesSince('bob', START, 10);
        expect(page.map((row) => `${row.target_type}_${row.target_id}`)).toEqual(['topic_t1', 'response_r1']);
        const first = page[0]!;
        expect(store.votes.changesSince('bob', { seq: first.seq, id: 'topic_t1' }, 10).map((row) => row.target_id)).toEqual(['r1']);
        expect(store.votes.changesSince('bob', START, 1)).toHaveLength(1);
        // A rewrite moves the vote after the others.
        vote('bob', 'topic', 't1', 'ada', 't1', true);
        expect(store.votes.changesSince('bob', START, 10).map((row) => [row.target_id, row.deleted])).toEqual([
          ['r1', 0],
          ['t1', 1],
        ]);
      });
    });

    describe('stances and Δ credits', () => {
      const at = (n: number) => ({ at: day(n) });
      const save = (uid: string, topicId: string, stance: StanceRow['stance'], first: StanceRow['stance'], credits: string[] = []) =>
        store.transaction(() => {
          const history =
            first === stance
              ? [{ stance, ...at(1) }]
              : [
                  { stance: first, ...at(1) },
                  { stance, ...at(2) },
                ];
          store.stances.save({
            uid,
            topic_id: topicId,
            stance,
            first_stance: first,
            history,
            credits,
            updated_at: day(2),
            seq: store.nextSeq(),
          });
          return store.topics.refreshStanceCounts(topicId, store.nextSeq);
        });
      const credit = (uid: string, changeNo: number, responseIds: string[]) =>
        store.transaction(() => {
          store.stances.setCredits(
            uid,
            't1',
            changeNo,
            responseIds.map((id) => ({ response_id: id, topic_id: 't1', author_uid: 'ada' })),
            day(3),
          );
          for (const id of ['r1', 'r2', 'r3']) store.responses.refreshDeltaCount(id, store.nextSeq);
          return store.users.refreshPersuasionPoints('ada', store.nextSeq);
        });
      beforeEach(() => {
        for (const uid of ['ada', 'bob', 'cy']) addUser(uid);
        addTopic({ id: 't1', creator_uid: 'ada' });
        addTopic({ id: 't2', creator_uid: 'ada' });
        for (const id of ['r1', 'r2', 'r3']) addResponse({ id, topic_id: 't1', creator_uid: 'ada' });
      });

      it('save and get: one row per user and topic; a later save keeps the first stance', () => {
        expect(store.stances.get('bob', 't1')).toBeUndefined();
        save('bob', 't1', 'agree', 'agree');
        expect(store.stances.get('bob', 't1')).toMatchObject({
          stance: 'agree',
          first_stance: 'agree',
          history: [{ stance: 'agree', at: day(1) }],
          credits: [],
        });
        save('bob', 't1', 'disagree', 'unsure', ['r1']);
        const row = store.stances.get('bob', 't1')!;
        expect(row).toMatchObject({ stance: 'disagree', first_stance: 'agree', credits: ['r1'] });
        expect(row.history.map((entry) => entry.stance)).toEqual(['unsure', 'disagree']);
        expect(store.stances.get('cy', 't1')).toBeUndefined();
      });

      it('changesSince: the owner’s stances by (seq, topic id), strictly after the checkpoint', () => {
        save('bob', 't2', 'agree', 'agree');
        save('bob', 't1', 'agree', 'agree');
        save('cy', 't1', 'agree', 'agree');
        const page = store.stances.changesSince('bob', START, 10);
        expect(page.map((row) => row.topic_id)).toEqual(['t2', 't1']);
        expect(store.stances.changesSince('bob', { seq: page[0]!.seq, id: 't2' }, 10).map((row) => row.topic_id)).toEqual(['t1']);
        expect(store.stances.changesSince('bob', START, 1)).toHaveLength(1);
        save('bob', 't2', 'unsure', 'agree');
        expect(store.stances.changesSince('bob', START, 10).map((row) => row.topic_id)).toEqual(['t1', 't2']);
      });

      it('refreshStanceCounts recounts the topic’s stances and stamps a seq only when they changed', () => {
        expect(save('bob', 't1', 'agree', 'agree')).toBe(true);
        save('cy', 't1', 'disagree', 'agree');
        const topic = store.topics.get('t1', null)!;
        expect(topic).toMatchObject({ stance_agree: 1, stance_disagree: 1, stance_unsure: 0, minds_changed: 1 });
        expect(store.transaction(() => store.topics.refreshStanceCounts('t1', store.nextSeq))).toBe(false);
        expect(store.topics.get('t1', null)!.seq).toBe(topic.seq);
        expect(store.topics.get('t2', null)).toMatchObject({ stance_agree: 0, minds_changed: 0 });
      });

      it('credits per change: replaced within a change, kept across changes; Δ counts and persuasion points follow', () => {
        expect(credit('bob', 1, ['r1', 'r2'])).toBe(true);
        expect(
          store.stances
            .creditsFor('bob', 't1', 1)
            .map((row) => row.response_id)
            .sort(),
        ).toEqual(['r1', 'r2']);
        expect(store.responses.get('r1', null)!.delta_count).toBe(1);
        expect(store.users.get('ada')).toMatchObject({
          persuasion_points: 2 * PERSUASION_POINTS_PER_DELTA,
          points: 2 * PERSUASION_POINTS_PER_DELTA,
        });
        credit('bob', 1, ['r3']);
        credit('bob', 2, ['r3']);
        credit('cy', 1, ['r3']);
        expect(store.stances.creditsFor('bob', 't1', 1)).toEqual([{ response_id: 'r3', topic_id: 't1', author_uid: 'ada' }]);
        // People, not credits: Bob credited r3 for two changes of mind and counts once.
        expect(['r1', 'r2', 'r3'].map((id) => store.responses.get(id, null)!.delta_count)).toEqual([0, 0, 2]);
        expect(store.stances.authorsCreditedOn('r3')).toEqual(['ada']);
        expect(store.stances.authorsCreditedOn('r1')).toEqual([]);
        // Votes and persuasion add up; a recount of points keeps the persuasion part.
        vote('bob', 'response', 'r1', 'ada', 't1');
        store.transaction(() => store.users.addPoints('ada', 1, store.nextSeq));
        store.transaction(() => store.users.refreshPoints('ada'));
        expect(store.users.get('ada')).toMatchObject({
          persuasion_points: 2 * PERSUASION_POINTS_PER_DELTA,
          points: 2 * PERSUASION_POINTS_PER_DELTA + 1,
        });
        expect(store.users.leaderboard(10)[0]).toEqual({ uid: 'ada', display_name: 'ada', points: 11, persuasion_points: 10 });
        // Credits on a deleted response no longer count; nothing changes twice.
        store.transaction(() => store.responses.softDelete('r3', store.nextSeq()));
        expect(store.transaction(() => store.users.refreshPersuasionPoints('ada', store.nextSeq))).toBe(true);
        expect(store.users.get('ada')).toMatchObject({ persuasion_points: 0, points: 1 });
        expect(store.transaction(() => store.users.refreshPersuasionPoints('ada', store.nextSeq))).toBe(false);
      });

      it('votes keep the voter’s stance; upvotes by side are maintained and recounted alike; tallies and types', () => {
        const castWith = (voter: string, stance: StanceRow['stance'] | null, deleted = false) =>
          store.transaction(() =>
            store.votes.set({
              voter_uid: voter,
              target_type: 'response',
              target_id: 'r2',
              target_creator_uid: 'ada',
              topic_id: 't1',
              stance,
              now: day(2),
              deleted,
              seq: store.nextSeq(),
            }),
          );
        castWith('bob', 'agree');
        castWith('cy', 'disagree');
        expect(store.votes.get('bob', 'response', 'r2')!.stance).toBe('agree');
        // Taken back: the row keeps the stance it was cast with.
        castWith('cy', 'agree', true);
        expect(store.votes.get('cy', 'response', 'r2')).toMatchObject({ stance: 'disagree', deleted: 1 });
        store.transaction(() => store.responses.addToCounts('r2', { score: 1, upvotesAgree: 1 }, store.nextSeq()));
        const maintained = store.responses.get('r2', null)!;
        store.transaction(() => store.responses.refreshAggregates('r2', store.nextSeq()));
        const recounted = store.responses.get('r2', null)!;
        expect([maintained.upvotes_agree, maintained.upvotes_disagree]).toEqual([1, 0]);
        expect([recounted.upvotes_agree, recounted.upvotes_disagree]).toEqual([1, 0]);
        expect(store.responses.stanceTallies('t1').map((row) => [row.id, row.upvotes_agree])).toEqual([
          ['r1', 0],
          ['r2', 1],
          ['r3', 0],
        ]);
        addResponse({ id: 'r4', topic_id: 't1', type: 'against' });
        expect(store.responses.countByType('t1').sort((a, b) => a.type.localeCompare(b.type))).toEqual([
          { type: 'against', n: 1 },
          { type: 'for', n: 3 },
        ]);
      });
    });

    describe('notifications', () => {
      const notify = (id: string, recipient: string, createdAt: string, targetId = 't1', type: NotificationType = NOTIFICATION_TYPES[0]) =>
        store.transaction(() =>
          store.notifications.insert({
            id,
            recipient_uid: recipient,
            type,
            actor_uid: 'bob',
            target_summary: `Summary ${id}`,
            target_id: targetId,
            response_id: `response-of-${id}`,
            created_at: createdAt,
            seq: store.nextSeq(),
          }),
        );
      beforeEach(() => {
        addUser('ada');
        addUser('bob', 'Bob');
        addUser('cy');
      });

      it('insert and get: the row with the actor’s current name, unread', () => {
        notify('n1', 'ada', day(1), 't1', NOTIFICATION_TYPES[1]);
        expect(store.notifications.get('n1')).toMatchObject({
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
        addUser('bob', 'Robert');
        expect(store.notifications.get('n1')!.actor_display_name).toBe('Robert');
        expect(store.notifications.get('missing')).toBeUndefined();
      });

      it('forUser: the recipient’s live notifications, newest first, paged', () => {
        notify('n1', 'ada', day(1));
        notify('n3', 'ada', day(3));
        notify('n2', 'ada', day(2));
        notify('m1', 'cy', day(4));
        expect(store.notifications.forUser('ada', 10, 0).map((row) => row.id)).toEqual(['n3', 'n2', 'n1']);
        expect(store.notifications.forUser('ada', 1, 1).map((row) => row.id)).toEqual(['n2']);
        expect(store.notifications.forUser('cy', 10, 0).map((row) => row.id)).toEqual(['m1']);
      });

      it('markRead stamps a seq', () => {
        notify('n1', 'ada', day(1));
        const before = store.notifications.get('n1')!.seq;
        store.transaction(() => store.notifications.markRead('n1', store.nextSeq()));
        const row = store.notifications.get('n1')!;
        expect(row.is_read).toBe(1);
        expect(row.seq).toBeGreaterThan(before);
      });

      it('removeForTopic tombstones the topic’s notifications and returns whose lists changed', () => {
        notify('n1', 'ada', day(1), 't1');
        notify('n2', 'ada', day(2), 't1');
        notify('m1', 'cy', day(3), 't1');
        notify('k1', 'cy', day(4), 't2');
        const recipients = store.transaction(() => store.notifications.removeForTopic('t1', store.nextSeq));
        expect([...recipients].sort()).toEqual(['ada', 'cy']);
        expect(store.notifications.forUser('ada', 10, 0)).toEqual([]);
        expect(store.notifications.forUser('cy', 10, 0).map((row) => row.id)).toEqual(['k1']);
        expect(store.notifications.get('n1')!.deleted).toBe(1);
        expect([...store.transaction(() => store.notifications.removeForTopic('t1', store.nextSeq))]).toEqual([]);
      });

      it('countFrom counts one actor’s live notifications to one recipient since a time', () => {
        notify('n1', 'ada', day(1));
        notify('n2', 'ada', day(2));
        notify('n3', 'ada', day(3));
        notify('m1', 'cy', day(3));
        expect(store.notifications.countFrom('bob', 'ada', day(2))).toBe(2);
        expect(store.notifications.countFrom('bob', 'ada', day(4))).toBe(0);
        expect(store.notifications.countFrom('cy', 'ada', day(0))).toBe(0);
      });

      it('markResponseDeleted keeps the notifications about the reply, says so, re-stamps them once', () => {
        notify('n1', 'ada', day(1));
        notify('n2', 'cy', day(2));
        const before = store.notifications.get('n1')!.seq;
        expect(store.notifications.get('n1')!.response_deleted).toBe(0);
        const recipients = store.transaction(() => store.notifications.markResponseDeleted('response-of-n1', store.nextSeq));
        expect([...recipients]).toEqual(['ada']);
        const row = store.notifications.get('n1')!;
        expect(row).toMatchObject({ response_deleted: 1, deleted: 0 });
        expect(row.seq).toBeGreaterThan(before);
        expect(store.notifications.forUser('ada', 10, 0).map((r) => r.id)).toEqual(['n1']);
        expect(store.notifications.get('n2')!.response_deleted).toBe(0);
        expect([...store.transaction(() => store.notifications.markResponseDeleted('response-of-n1', store.nextSeq))]).toEqual([]);
      });

      it('changesSince: the recipient’s notifications by (seq, id), tombstones included', () => {
        notify('n1', 'ada', day(1));
        notify('n2', 'ada', day(2));
        notify('m1', 'cy', day(3));
        const page = store.notifications.changesSince('ada', START, 10);
        expect(page.map((row) => row.id)).toEqual(['n1', 'n2']);
        const end = { seq: page[1]!.seq, id: 'n2' };
        expect(store.notifications.changesSince('ada', end, 10)).toEqual([]);
        store.transaction(() => store.notifications.markRead('n1', store.nextSeq()));
        expect(store.notifications.changesSince('ada', end, 10)).toEqual([expect.objectContaining({ id: 'n1', is_read: 1 })]);
        store.transaction(() => store.notifications.removeForTopic('t1', store.nextSeq));
        const tombstones = store.notifications.changesSince('ada', end, 10);
        expect(tombstones.map((row) => [row.id, row.deleted]).sort()).toEqual([
          ['n1', 1],
          ['n2', 1],
        ]);
        expect(tombstones.map((row) => row.seq)).toEqual(tombstones.map((row) => row.seq).sort((a, b) => a - b));
      });
    });
  });
}
