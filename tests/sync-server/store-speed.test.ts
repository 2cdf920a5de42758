// Issue 12 point 3, the store's side: a page of a topic list is kept only while no topic changed
// (here or through another connection to the same file) and always equals a fresh read; the
// store's transactions nest as before; and the server's background checkpointer moves the WAL into
// the database without a request's COMMIT doing it, and stops with the connection.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createChangeFeed } from '../../sync-server/src/domain/change-feed.js';
import type { DomainContext } from '../../sync-server/src/domain/context.js';
import type { Topic } from '../../shared/types.js';
import { createResponse } from '../../sync-server/src/domain/responses.js';
import { createTopic, deleteTopic, listTopics } from '../../sync-server/src/domain/topics.js';
import { rememberUser } from '../../sync-server/src/domain/users.js';
import { setVote } from '../../sync-server/src/domain/votes.js';
import { BACKSTOP_AUTOCHECKPOINT_PAGES, openDatabase } from '../../sync-server/src/store/connection.js';
import { createStore } from '../../sync-server/src/store/store.js';
import { SORTS } from '../../shared/constants.js';

const dir = mkdtempSync(join(tmpdir(), 'crux-store-speed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

let contexts = 0;
function context(file: string) {
  const prefix = `c${++contexts}`;
  const store = createStore(openDatabase(file));
  let ids = 0;
  let ms = Date.UTC(2026, 0, 1);
  const ctx: DomainContext = {
    store,
    clock: () => new Date((ms += 1000)),
    newId: () => `${prefix}-${++ids}`,
    changes: createChangeFeed(),
  };
  return ctx;
}

const ada = { uid: 'ada', name: 'Ada', email: null };
const bob = { uid: 'bob', name: 'Bob', email: null };

describe('topic list and search pages', () => {
  it('equal a fresh read after every kind of change, here and from another connection', async () => {
    const file = join(dir, `db-${++files}.sqlite`);
    const ctx = context(file);
    const other = context(file);
    await rememberUser(ctx, ada);
    await rememberUser(ctx, bob);
    const made: Topic[] = [];
    for (let i = 0; i < 8; i++) made.push(await createTopic(ctx, i % 2 ? ada : bob, { title: `Topic ${i}`, categories: ['Science'] }));
    // What the list statement answers now, read through a third connection that keeps no pages.
    const fresh = context(file);
    const check = async () => {
      for (const sort of SORTS) {
        for (const viewer of [null, 'ada', 'bob']) {
          for (const extra of [{}, { category: 'Science' as const }]) {
            const query = { sort, limit: 5, offset: 0, ...extra };
            const kept = await listTopics(ctx, query, viewer);
            // Asked twice: the second answer comes from the kept page.
            expect(await listTopics(ctx, query, viewer)).toEqual(kept);
            await fresh.store.close();
            Object.assign(fresh, context(file));
            expect(kept).toEqual(await listTopics(fresh, query, viewer));
            for (const search of ['topic', 'new', 'elsewhere']) {
              const found = await listTopics(ctx, { ...query, search }, viewer);
              expect(await listTopics(ctx, { ...query, search }, viewer)).toEqual(found);
              expect(found).toEqual(await listTopics(fresh, { ...query, search }, viewer));
            }
          }
        }
      }
    };
    await check();
    await setVote(ctx, ada, 'topic', made[0]!.id, true);
    await check();
    await setVote(ctx, ada, 'topic', made[0]!.id, false);
    await check();
    await createResponse(ctx, bob, { topic_id: made[3]!.id, type: 'for', content: 'An answer' });
    await check();
    await createTopic(ctx, ada, { title: 'A new one', categories: ['Science'] });
    await check();
    await deleteTopic(ctx, bob, made[2]!.id);
    await check();
    await rememberUser(ctx, { ...ada, name: 'Ada Lovelace' });
    await check();
    // Another connection (another server process) writes: this one's kept pages are not served.
    await setVote(other, bob, 'topic', made[1]!.id, true);
    await createTopic(other, bob, { title: 'From elsewhere', categories: ['Science'] });
    await check();
    const all = () => listTopics(ctx, { sort: 'new', limit: 50, offset: 0 }, null);
    expect((await all()).some((topic) => topic.title === 'From elsewhere')).toBe(true);
    await rememberUser(other, { ...bob, name: 'Robert' });
    await check();
    expect((await all()).find((topic) => topic.title === 'From elsewhere')!.username).toBe('Robert');
    // A change inside a transaction that rolls back is never kept.
    await expect(
      ctx.store.transaction(async () => {
        await createTopic(ctx, ada, { title: 'Rolled back', categories: ['Science'] });
        expect((await all()).some((topic) => topic.title === 'Rolled back')).toBe(true);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await createTopic(ctx, bob, { title: 'After the rollback', categories: ['Science'] });
    await check();
    expect((await all()).some((topic) => topic.title === 'Rolled back')).toBe(false);
    expect((await all()).some((topic) => topic.title === 'After the rollback')).toBe(true);
    for (const c of [ctx, other, fresh]) await c.store.close();
  });
});

describe('store transactions', () => {
  it('nest as savepoints: an inner failure rolls back only the inner writes', async () => {
    const ctx = context(join(dir, `db-${++files}.sqlite`));
    await rememberUser(ctx, ada);
    await ctx.store.transaction(async () => {
      await createTopic(ctx, ada, { title: 'Kept', categories: ['Science'] });
      await expect(
        ctx.store.transaction(async () => {
          await createTopic(ctx, ada, { title: 'Dropped', categories: ['Science'] });
          throw new Error('inner');
        }),
      ).rejects.toThrow('inner');
      expect(await ctx.store.transaction(() => Promise.resolve(42))).toBe(42);
    });
    expect((await listTopics(ctx, { sort: 'new', limit: 10, offset: 0 }, null)).map((t) => t.title)).toEqual(['Kept']);
    await ctx.store.close();
  });

  it('take turns on the one connection: a read from outside never sees an open transaction, writers go one at a time', async () => {
    const ctx = context(join(dir, `db-${++files}.sqlite`));
    await rememberUser(ctx, ada);
    const titles = async () => (await listTopics(ctx, { sort: 'new', limit: 10, offset: 0 }, null)).map((t) => t.title);
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // A transaction that writes, then waits (as one awaiting anything would), then fails.
    const failing = ctx.store.transaction(async () => {
      await createTopic(ctx, ada, { title: 'Never committed', categories: ['Science'] });
      order.push('first wrote');
      await held;
      throw new Error('rolled back');
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    // Meanwhile: a read and a second transaction from outside wait for their turn.
    const read = titles();
    const second = ctx.store.transaction(async () => {
      order.push('second began');
      await createTopic(ctx, ada, { title: 'Committed', categories: ['Science'] });
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(order).toEqual(['first wrote']);
    release();
    await expect(failing).rejects.toThrow('rolled back');
    // Neither the rolled-back row (read inside the open transaction) nor the second's (read after it).
    expect(await read).toEqual([]);
    await second;
    expect(order).toEqual(['first wrote', 'second began']);
    expect(await titles()).toEqual(['Committed']);
    await ctx.store.close();
  });
});

describe('background checkpointer', () => {
  it('moves committed pages into the database file, not in a COMMIT, and stops with the connection', async () => {
    const file = join(dir, `db-${++files}.sqlite`);
    const db = openDatabase(file, { checkpointEveryMs: 20 });
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(BACKSTOP_AUTOCHECKPOINT_PAGES);
    const store = createStore(db);
    const ctx: DomainContext = { store, clock: () => new Date(), newId: () => `id-${Math.random()}`, changes: createChangeFeed() };
    await rememberUser(ctx, ada);
    const before = statSync(file).size;
    for (let i = 0; i < 300; i++) await createTopic(ctx, ada, { title: `Topic number ${i} ${'x'.repeat(200)}`, categories: ['Science'] });
    const deadline = Date.now() + 5000;
    while (statSync(file).size <= before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(statSync(file).size).toBeGreaterThan(before);
    await store.close();
    // Without the option: SQLite's own automatic checkpoint, as before.
    const plain = openDatabase(join(dir, `db-${++files}.sqlite`));
    expect(plain.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    plain.close();
  });
});
