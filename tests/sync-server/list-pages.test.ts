// A page of a topic list or title search is kept only while no topic changed,
// here or through another store on the same database (another server process), and always equals
// a fresh read; a write inside a transaction that rolls back is never kept. On the lane's engine
// (tests/fixtures/test-db.ts): SQLite, and PostgreSQL in the *-pg lanes.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SORTS } from '../../shared/constants.js';
import type { Topic } from '../../shared/types.js';
import { createChangeFeed } from '../../sync-server/src/domain/change-feed.js';
import type { DomainContext } from '../../sync-server/src/domain/context.js';
import { createResponse } from '../../sync-server/src/domain/responses.js';
import { createTopic, deleteTopic, listTopics } from '../../sync-server/src/domain/topics.js';
import { rememberUser } from '../../sync-server/src/domain/users.js';
import { setVote } from '../../sync-server/src/domain/votes.js';
import { testDatabase, type TestDatabase } from '../fixtures/test-db.js';

const dir = mkdtempSync(join(tmpdir(), 'crux-list-pages-'));
let database: TestDatabase;
afterAll(async () => {
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
});

let contexts = 0;
/** A domain context on its own store (its own connection: another process, as far as kept pages go). */
async function context(): Promise<DomainContext> {
  const prefix = `c${++contexts}`;
  let ids = 0;
  let ms = Date.UTC(2026, 0, 1);
  return {
    store: await database.openStore(),
    clock: () => new Date((ms += 1000)),
    newId: () => `${prefix}-${++ids}`,
    changes: createChangeFeed(),
  };
}

const ada = { uid: 'ada', name: 'Ada', email: null };
const bob = { uid: 'bob', name: 'Bob', email: null };

describe('topic list and search pages', () => {
  it('equal a fresh read after every kind of change, here and from another store', async () => {
    database = await testDatabase(dir, join(dir, 'crux.sqlite'));
    const ctx = await context();
    const other = await context();
    await rememberUser(ctx, ada);
    await rememberUser(ctx, bob);
    const made: Topic[] = [];
    for (let i = 0; i < 8; i++) made.push(await createTopic(ctx, i % 2 ? ada : bob, { title: `Topic ${i}`, categories: ['Science'] }));
    // What the list statement answers now, read through a new store each time (it has kept nothing).
    const check = async () => {
      const fresh = await context();
      for (const sort of SORTS) {
        for (const viewer of [null, 'ada', 'bob']) {
          for (const extra of [{}, { category: 'Science' as const }]) {
            const query = { sort, limit: 5, offset: 0, ...extra };
            const kept = await listTopics(ctx, query, viewer);
            // Asked twice: the second answer comes from the kept page.
            expect(await listTopics(ctx, query, viewer)).toEqual(kept);
            expect(kept).toEqual(await listTopics(fresh, query, viewer));
            for (const search of ['topic', 'new', 'elsewhere']) {
              const found = await listTopics(ctx, { ...query, search }, viewer);
              expect(await listTopics(ctx, { ...query, search }, viewer)).toEqual(found);
              expect(found).toEqual(await listTopics(fresh, { ...query, search }, viewer));
            }
          }
        }
      }
      await fresh.store.close();
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
    // Another store (another server process) writes: this one's kept pages are not served.
    await setVote(other, bob, 'topic', made[1]!.id, true);
    await createTopic(other, bob, { title: 'From elsewhere', categories: ['Science'] });
    await check();
    const all = () => listTopics(ctx, { sort: 'new', limit: 50, offset: 0 }, null);
    const found = () => listTopics(ctx, { sort: 'new', limit: 50, offset: 0, search: 'elsewhere' }, null);
    expect((await all()).some((topic) => topic.title === 'From elsewhere')).toBe(true);
    expect((await found()).map((topic) => topic.title)).toEqual(['From elsewhere']);
    await rememberUser(other, { ...bob, name: 'Robert' });
    await check();
    expect((await all()).find((topic) => topic.title === 'From elsewhere')!.username).toBe('Robert');
    expect((await found())[0]!.username).toBe('Robert');
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
    for (const c of [ctx, other]) await c.store.close();
  });
});
