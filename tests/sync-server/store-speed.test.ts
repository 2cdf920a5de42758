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
  it('equal a fresh read after every kind of change, here and from another connection', () => {
    const file = join(dir, `db-${++files}.sqlite`);
    const ctx = context(file);
    const other = context(file);
    rememberUser(ctx, ada);
    rememberUser(ctx, bob);
    const made = Array.from({ length: 8 }, (_, i) => createTopic(ctx, i % 2 ? ada : bob, { title: `Topic ${i}`, categories: ['Science'] }));
    // What the list statement answers now, read through a third connection that keeps no pages.
    const fresh = context(file);
    const check = () => {
      for (const sort of SORTS) {
        for (const viewer of [null, 'ada', 'bob']) {
          for (const extra of [{}, { category: 'Science' as const }]) {
            const query = { sort, limit: 5, offset: 0, ...extra };
            const kept = listTopics(ctx, query, viewer);
            // Asked twice: the second answer comes from the kept page.
            expect(listTopics(ctx, query, viewer)).toEqual(kept);
            fresh.store.close();
            Object.assign(fresh, context(file));
            expect(kept).toEqual(listTopics(fresh, query, viewer));
            for (const search of ['topic', 'new', 'elsewhere']) {
              const found = listTopics(ctx, { ...query, search }, viewer);
              expect(listTopics(ctx, { ...query, search }, viewer)).toEqual(found);
              expect(found).toEqual(listTopics(fresh, { ...query, search }, viewer));
            }
          }
        }
      }
    };
    check();
    setVote(ctx, ada, 'topic', made[0]!.id, true);
    check();
    setVote(ctx, ada, 'topic', made[0]!.id, false);
    check();
    createResponse(ctx, bob, { topic_id: made[3]!.id, type: 'for', content: 'An answer' });
    check();
    createTopic(ctx, ada, { title: 'A new one', categories: ['Science'] });
    check();
    deleteTopic(ctx, bob, made[2]!.id);
    check();
    rememberUser(ctx, { ...ada, name: 'Ada Lovelace' });
    check();
    // Another connection (another server process) writes: this one's kept pages are not served.
    setVote(other, bob, 'topic', made[1]!.id, true);
    createTopic(other, bob, { title: 'From elsewhere', categories: ['Science'] });
    check();
    const all = () => listTopics(ctx, { sort: 'new', limit: 50, offset: 0 }, null);
    expect(all().some((topic) => topic.title === 'From elsewhere')).toBe(true);
    rememberUser(other, { ...bob, name: 'Robert' });
    check();
    expect(all().find((topic) => topic.title === 'From elsewhere')!.username).toBe('Robert');
    // A change inside a transaction that rolls back is never kept.
    expect(() =>
      ctx.store.transaction(() => {
        createTopic(ctx, ada, { title: 'Rolled back', categories: ['Science'] });
        expect(all().some((topic) => topic.title === 'Rolled back')).toBe(true);
        throw new Error('roll back');
      }),
    ).toThrow('roll back');
    createTopic(ctx, bob, { title: 'After the rollback', categories: ['Science'] });
    check();
    expect(all().some((topic) => topic.title === 'Rolled back')).toBe(false);
    expect(all().some((topic) => topic.title === 'After the rollback')).toBe(true);
    for (const c of [ctx, other, fresh]) c.store.close();
  });
});

describe('store transactions', () => {
  it('nest as savepoints: an inner failure rolls back only the inner writes', () => {
    const ctx = context(join(dir, `db-${++files}.sqlite`));
    rememberUser(ctx, ada);
    ctx.store.transaction(() => {
      createTopic(ctx, ada, { title: 'Kept', categories: ['Science'] });
      expect(() =>
        ctx.store.transaction(() => {
          createTopic(ctx, ada, { title: 'Dropped', categories: ['Science'] });
          throw new Error('inner');
        }),
      ).toThrow('inner');
      expect(ctx.store.transaction(() => 42)).toBe(42);
    });
    expect(listTopics(ctx, { sort: 'new', limit: 10, offset: 0 }, null).map((t) => t.title)).toEqual(['Kept']);
    ctx.store.close();
  });
});

describe('background checkpointer', () => {
  it('moves committed pages into the database file, not in a COMMIT, and stops with the connection', async () => {
    const file = join(dir, `db-${++files}.sqlite`);
    const db = openDatabase(file, { checkpointEveryMs: 20 });
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(BACKSTOP_AUTOCHECKPOINT_PAGES);
    const store = createStore(db);
    const ctx: DomainContext = { store, clock: () => new Date(), newId: () => `id-${Math.random()}`, changes: createChangeFeed() };
    rememberUser(ctx, ada);
    const before = statSync(file).size;
    for (let i = 0; i < 300; i++) createTopic(ctx, ada, { title: `Topic number ${i} ${'x'.repeat(200)}`, categories: ['Science'] });
    const deadline = Date.now() + 5000;
    while (statSync(file).size <= before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(statSync(file).size).toBeGreaterThan(before);
    store.close();
    // Without the option: SQLite's own automatic checkpoint, as before.
    const plain = openDatabase(join(dir, `db-${++files}.sqlite`));
    expect(plain.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    plain.close();
  });
});
