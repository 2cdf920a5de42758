// Server speed, the SQLite store's side: its transactions nest as before, and the server's
// background checkpointer moves the WAL into the database without a request's COMMIT doing it,
// and stops with the connection. (The kept list pages, on either engine: list-pages.test.ts.)
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createChangeFeed } from '../../sync-server/src/domain/change-feed.js';
import type { DomainContext } from '../../sync-server/src/domain/context.js';
import { createTopic, listTopics } from '../../sync-server/src/domain/topics.js';
import { rememberUser } from '../../sync-server/src/domain/users.js';
import { BACKSTOP_AUTOCHECKPOINT_PAGES, startCheckpointer } from '../../sync-server/src/store/sqlite/checkpointer.js';
import { openDatabase } from '../../sync-server/src/store/sqlite/connection.js';
import { createStore } from '../../sync-server/src/store/sqlite/store.js';

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
    const db = openDatabase(file);
    const checkpointer = startCheckpointer(db, file, 20);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(BACKSTOP_AUTOCHECKPOINT_PAGES);
    const store = createStore(db, { checkpointer });
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
