// SQLite's in-memory title index (sync-server/src/store/sqlite/title-index.ts) answers a title search
// exactly as SQLite's FTS5 does: the same topics in the same order for every word, prefix, word pair,
// accent and case, sort, category and page, after votes move the sort keys, after deletes and a
// moderator's new title, and after another process's writes to the same file. The FTS5 answer is the
// repository's search inside a transaction, where the index is never used.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createChangeFeed } from '../../sync-server/src/domain/change-feed.js';
import type { DomainContext } from '../../sync-server/src/domain/context.js';
import { hideItem } from '../../sync-server/src/domain/moderation-items.js';
import { createTopic, deleteTopic } from '../../sync-server/src/domain/topics.js';
import { rememberUser } from '../../sync-server/src/domain/users.js';
import { setVote } from '../../sync-server/src/domain/votes.js';
import { openDatabase } from '../../sync-server/src/store/sqlite/connection.js';
import { createStore, type SqliteStore } from '../../sync-server/src/store/sqlite/store.js';
import { openBackend } from '../../sync-server/src/backend.js';
import { createTopicsRepo } from '../../sync-server/src/store/sqlite/topics-repo.js';
import { CATEGORIES, SORTS, type Sort } from '../../shared/constants.js';
import { ftsQuery } from '../../shared/rules/search-words.js';
import { toTopic } from '../../sync-server/src/store/rows.js';

const dir = mkdtempSync(join(tmpdir(), 'crux-title-index-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const users = ['ada', 'bob', 'cy', 'dee'].map((uid) => ({ uid, name: uid.toUpperCase(), email: null }));
// Words and characters JSON writers escape differently if at all: quotes, backslashes, control characters,
// U+2028, emoji, HTML's specials.
const WORDS = [
  'say "no"',
  'back\\slash',
  'tab\there',
  'bell\u0007',
  'line\u2028sep',
  'emoji 🙂',
  '<b>&amp;</b>',
  'energy',
  'energetic',
  'Énergie',
  'café',
  'CAFE',
  'naïve',
  'e-mail',
  'snake_case',
  'tax',
  'taxes',
  'solar',
  'Straße',
  '2030',
  'x',
];
const SEARCHES = [
  'no',
  'slash',
  'there',
  'bell',
  'sep',
  'emoji',
  'amp',
  'energy',
  'ener',
  'énergie',
  'ENERGIE',
  'cafe',
  'café',
  'naive',
  'mail',
  'e',
  'snake',
  'case',
  'tax',
  'tax solar',
  'solar ener',
  'strasse',
  'straße',
  '203',
  'nothing',
  'x e',
];

async function site(file: string, idPrefix = 'a') {
  const db = openDatabase(file);
  const store = createStore(db);
  let ids = 0;
  let ms = Date.UTC(2026, 0, 1);
  let ticks = 0;
  const ctx: DomainContext = {
    store,
    // Three readings of the clock per second: topics made in the same second tie on created_at (and,
    // unvoted, on hot), so the orders' last key, the id, decides.
    clock: () => new Date((ms += ++ticks % 3 === 0 ? 1000 : 0)),
    newId: () => `${idPrefix}-${++ids}`,
    changes: createChangeFeed(),
  };
  for (const user of users) await rememberUser(ctx, user);
  return { db, store, ctx };
}

describe('the title index answers as FTS5 does', () => {
  it('for every word, sort, category and page, through votes, deletes, a new title and another process', { timeout: 60_000 }, async () => {
    const file = join(dir, 'titles.sqlite');
    const { db, store, ctx } = await site(file);
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const ids: string[] = [];
    const addTopics = async (on: DomainContext, n: number) => {
      for (let i = 0; i < n; i++) {
        const title = Array.from({ length: 1 + random(4) }, () => WORDS[random(WORDS.length)]).join(' ') + ` ${ids.length}`;
        const category = CATEGORIES[random(3)]!;
        ids.push((await createTopic(on, users[random(users.length)]!, { title, categories: [category] })).id);
      }
    };
    await addTopics(ctx, 150);

    // FTS5's answer: the same repository code inside a transaction, where the index is never used
    // (a second repository outside one would build an index of its own on its first search).
    const fts = createTopicsRepo(db);
    const ftsSearch = (query: Parameters<typeof fts.search>[0]) => db.transaction(() => fts.search(query))();
    const compare = async (when: string) => {
      let compared = 0;
      for (const search of SEARCHES) {
        for (const sort of SORTS as readonly Sort[]) {
          for (const [category, limit, offset] of [
            [undefined, 20, 0],
            [undefined, 7, 5],
            [CATEGORIES[1], 100, 0],
          ] as const) {
            for (const viewer of ['bob', null]) {
              const query = { match: ftsQuery(search)!, sort, category, limit, offset, viewer };
              const expected = ftsSearch(query).map((row) => [row.id, row.score, row.user_vote]);
              const rows = await store.topics.search(query);
              const found = rows.map((row) => [row.id, row.score, row.user_vote]);
              expect(found, `${when}: "${search}" ${sort} ${category ?? ''} ${limit}+${offset}`).toEqual(expected);
              // The REST page as SQLite writes it (each topic's text kept by its seq): JSON.stringify's text, byte for byte.
              expect(await store.topics.searchJson(query), `${when}: "${search}" as ${viewer}`).toBe(JSON.stringify(rows.map(toTopic)));
              compared += expected.length;
            }
          }
        }
      }
      return compared;
    };

    // Before the build a search is FTS5's; the build then takes a few turns.
    await store.topics.titleIndexReady();
    expect(await compare('built')).toBeGreaterThan(500);

    // Votes move score and hot (and the viewer's own vote shows); deletes and a moderator's title change.
    for (let i = 0; i < 60; i++) await setVote(ctx, users[random(users.length)]!, 'topic', ids[random(ids.length)]!, random(3) !== 0);
    const deleted = new Set(ids.filter((_, i) => i % 17 === 0));
    for (const id of deleted) {
      const creator = (await store.topics.get(id, null))!.creator_uid;
      await deleteTopic(
        ctx,
        users.find((u) => u.uid === creator)!,
        id,
      );
    }
    const live = () => ids.filter((id) => !deleted.has(id));
    // Locked topics, and legacy disagree votes on topics (which take agrees only now): shown as the REST answer says.
    for (const id of ids.slice(5, 25))
      await store.transaction(async () => store.moderation.setTopicLocked(id, true, await store.nextSeq()));
    db.prepare("UPDATE votes SET value = -1 WHERE voter_uid = 'bob' AND target_type = 'topic' AND value = 1").run();
    const oldTitle = (await store.topics.get(ids[3]!, null))!.title;
    await store.transaction(() => hideItem(ctx, 'topic', ids[3]!, 'removed', 'spam'));
    const newTitle = (await store.topics.get(ids[3]!, null))!.title;
    expect(newTitle).not.toBe(oldTitle);
    // Found by its new title's words, no longer by its old title's (the number ending it is its own).
    const titled = async (title: string) =>
      (await store.topics.search({ match: ftsQuery(title)!, sort: 'new', limit: 100, offset: 0, viewer: null })).map((row) => row.id);
    expect(await titled(oldTitle)).not.toContain(ids[3]);
    expect(await titled(newTitle)).toContain(ids[3]);
    await addTopics(ctx, 30);
    expect(await compare('after votes, deletes, a new title and new topics')).toBeGreaterThan(500);

    // Another process writes the same file: its topics and votes are found here too.
    const other = await site(file, 'b');
    await addTopics(other.ctx, 20);
    for (let i = 0; i < 20; i++) await setVote(other.ctx, users[random(users.length)]!, 'topic', live()[random(live().length)]!, true);
    const byOther = ids[ids.length - 1]!;
    const title = (await other.store.topics.get(byOther, null))!.title;
    const found = await store.topics.search({ match: ftsQuery(title)!, sort: 'new', limit: 5, offset: 0, viewer: null });
    expect(found.map((row) => row.id)).toContain(byOther);
    expect(await compare("after another process's writes")).toBeGreaterThan(500);
    other.db.close();
    db.close();
  });

  it('is built when a serving process opens the file, before anyone searches', async () => {
    const file = join(dir, 'served.sqlite');
    const { db, ctx } = await site(file);
    await createTopic(ctx, users[0]!, { title: 'Solar energy served', categories: [CATEGORIES[0]] });
    db.close();
    const backend = await openBackend({ databaseUrl: undefined, pgPoolMax: 1, databaseFile: file, dbBusyTimeoutMs: 5000 });
    try {
      // A few turns of the event loop, no search: the build has run (a first search would otherwise
      // start it and be answered by FTS5, which searchJson leaves to the caller: undefined).
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
      const query = { match: ftsQuery('solar')!, sort: 'hot' as const, limit: 10, offset: 0, viewer: null };
      const page = await (backend.store as SqliteStore).topics.searchJson(query);
      expect(JSON.parse(page!)).toMatchObject([{ title: 'Solar energy served' }]);
    } finally {
      await backend.close();
    }
  });

  it('is built on the first search; meanwhile, and inside a transaction, FTS5 answers', async () => {
    const { db, store, ctx } = await site(join(dir, 'first.sqlite'));
    await createTopic(ctx, users[0]!, { title: 'Solar energy first', categories: [CATEGORIES[0]] });
    const query = { match: ftsQuery('solar')!, sort: 'hot' as const, limit: 10, offset: 0, viewer: null };
    expect((await store.topics.search(query)).map((row) => row.title)).toEqual(['Solar energy first']);
    await store.topics.titleIndexReady();
    // A topic created inside a transaction is found by a search in that transaction (FTS5 sees it).
    const inside = await store.transaction(async () => {
      await createTopic(ctx, users[1]!, { title: 'Solar energy second', categories: [CATEGORIES[0]] });
      return (await store.topics.search(query)).map((row) => row.title).sort();
    });
    expect(inside).toEqual(['Solar energy first', 'Solar energy second']);
    expect((await store.topics.search(query)).map((row) => row.title).sort()).toEqual(['Solar energy first', 'Solar energy second']);
    db.close();
  });
});
