// A search page's JSON from each topic's text kept by its seq (sync-server/src/store/sqlite/topic-page-json.ts):
// a kept text is used only while its seq is the title index's, so every change a topic's REST answer shows
// (a vote's score, a lock, a creator's new name) is in the next page; a signed-in
// reader's own votes are marked on the kept text; the kept texts stay within their bound.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createChangeFeed } from '../../sync-server/src/domain/change-feed.js';
import type { DomainContext } from '../../sync-server/src/domain/context.js';
import { createTopic } from '../../sync-server/src/domain/topics.js';
import { rememberUser } from '../../sync-server/src/domain/users.js';
import { setVote } from '../../sync-server/src/domain/votes.js';
import { openDatabase } from '../../sync-server/src/store/sqlite/connection.js';
import { createStore } from '../../sync-server/src/store/sqlite/store.js';
import { createTopicPageJson } from '../../sync-server/src/store/sqlite/topic-page-json.js';
import { toTopic } from '../../sync-server/src/store/rows.js';
import { ftsQuery } from '../../shared/rules/search-words.js';
import { CATEGORIES } from '../../shared/constants.js';

const dir = mkdtempSync(join(tmpdir(), 'crux-topic-page-json-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const users = ['ada', 'bob', 'cy'].map((uid) => ({ uid, name: uid.toUpperCase(), email: null }));

async function site(name: string) {
  const db = openDatabase(join(dir, `${name}.sqlite`));
  const store = createStore(db);
  let ids = 0;
  const ctx: DomainContext = { store, clock: () => new Date(), newId: () => `t-${++ids}`, changes: createChangeFeed() };
  for (const user of users) await rememberUser(ctx, user);
  const topics = [];
  for (let i = 0; i < 5; i++)
    topics.push(await createTopic(ctx, users[i % 3]!, { title: `Solar power ${i} "quoted"`, categories: [CATEGORIES[0]] }));
  await store.topics.titleIndexReady();
  return { db, store, ctx, topics };
}

/** The topics' pks in their order, and every topic's seq as a title index would hold it (the tests below stand in for the index). */
function keys(db: Awaited<ReturnType<typeof site>>['db'], topics: { id: string }[]) {
  const pkOf = db.prepare<[string], number>('SELECT pk FROM topics WHERE id = ?').pluck();
  return {
    pks: topics.map((topic) => pkOf.get(topic.id)!),
    seqs: new Map(db.prepare<[], [number, number]>('SELECT pk, seq FROM topics').raw().all()),
  };
}

const query = (viewer: string | null) => ({ match: ftsQuery('solar')!, sort: 'new' as const, limit: 10, offset: 0, viewer });
/** The page as JSON.stringify writes the rows the search reads (the REST answer's own way). */
const expected = async (store: Awaited<ReturnType<typeof site>>['store'], viewer: string | null) =>
  JSON.stringify((await store.topics.search(query(viewer))).map(toTopic));

describe("a search page's JSON from each topic's kept text", () => {
  it('shows every change a topic answer shows, and each reader their own votes', async () => {
    const { db, store, ctx, topics } = await site('changes');
    const page = async (viewer: string | null) => {
      const json = await store.topics.searchJson(query(viewer));
      expect(json).toBe(await expected(store, viewer));
      return JSON.parse(json!) as {
        id: string;
        score: number;
        username: string;
        user_has_upvoted: boolean;
        user_has_downvoted: boolean;
        locked: boolean;
      }[];
    };
    const byId = (rows: Awaited<ReturnType<typeof page>>, id: string) => rows.find((row) => row.id === id)!;
    expect(await page(null)).toHaveLength(5);

    // A vote: the score moves for everyone, and the voter's own page marks it.
    await setVote(ctx, users[1]!, 'topic', topics[0]!.id, true);
    expect(byId(await page(null), topics[0]!.id)).toMatchObject({ score: 1, user_has_upvoted: false, user_has_downvoted: false });
    expect(byId(await page('bob'), topics[0]!.id)).toMatchObject({ score: 1, user_has_upvoted: true, user_has_downvoted: false });
    expect(byId(await page('ada'), topics[0]!.id)).toMatchObject({ user_has_upvoted: false });
    // A disagree vote kept from before topics took agrees only: shown as the REST answer shows it.
    db.prepare("UPDATE votes SET value = -1 WHERE voter_uid = 'bob' AND target_id = ?").run(topics[0]!.id);
    expect(byId(await page('bob'), topics[0]!.id)).toMatchObject({ user_has_upvoted: false, user_has_downvoted: true });

    // A lock and a creator's new name (which stamps their topics).
    await store.transaction(async () => store.moderation.setTopicLocked(topics[1]!.id, true, await store.nextSeq()));
    await rememberUser(ctx, { uid: 'ada', name: 'Ada Lovelace', email: null });
    const after = await page(null);
    expect(byId(after, topics[1]!.id).locked).toBe(true);
    expect(
      after
        .filter((row) => row.username === 'Ada Lovelace')
        .map((row) => row.id)
        .sort(),
    ).toEqual([topics[0]!.id, topics[3]!.id].sort());
    db.close();
  });

  it('uses a kept text only while its seq is the one the index holds', async () => {
    const { db, topics } = await site('seq');
    const { pks, seqs } = keys(db, topics);
    const pages = createTopicPageJson(db, (pk) => seqs.get(pk));
    const first = JSON.parse(pages.page(pks, null)) as { title: string }[];
    expect(first.map((row) => row.title)).toEqual(topics.map((topic) => topic.title));
    // A row changed behind the index's back (no new seq): the kept text still answers, so it was kept.
    db.prepare('UPDATE topics SET title = ? WHERE pk = ?').run('Changed without a seq', pks[2]!);
    expect((JSON.parse(pages.page(pks, null)) as { title: string }[])[2]!.title).toBe(topics[2]!.title);
    // Once the index holds another seq for it, the row is read again.
    seqs.set(pks[2]!, seqs.get(pks[2]!)! + 1_000);
    expect((JSON.parse(pages.page(pks, null)) as { title: string }[])[2]!.title).toBe('Changed without a seq');
    // In the page's order, whatever order the texts were kept in; an empty page is [].
    expect((JSON.parse(pages.page([...pks].reverse(), null)) as { title: string }[])[0]!.title).toBe(topics[4]!.title);
    expect(pages.page([], 'bob')).toBe('[]');
    db.close();
  });

  it('keeps at most its bound of texts, and answers the same past it', async () => {
    const { db, topics } = await site('bound');
    const { pks, seqs } = keys(db, topics);
    const bounded = createTopicPageJson(db, (pk) => seqs.get(pk), 3);
    const unbounded = createTopicPageJson(db, (pk) => seqs.get(pk));
    for (const page of [pks.slice(0, 2), pks.slice(2, 4), pks.slice(3), pks, pks.slice(1, 3)]) {
      expect(bounded.page(page, null)).toBe(unbounded.page(page, null));
      expect(bounded.kept()).toBeLessThanOrEqual(3);
    }
    expect(unbounded.kept()).toBe(5);
    db.close();
  });
});
