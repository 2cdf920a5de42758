// On PostgreSQL the versions the kept pages hang on (the topics' listVersion, the change number) are
// known in memory, not read from the database per request (sync-server/src/store/pg/kept-versions.ts),
// as on SQLite (kept-versions.test.ts). A write of this process is seen by the very next read (no time
// passing); a write of another server process on the database at once when its change message arrives
// (LISTEN/NOTIFY: store/pg/backend.ts), and in any case once the version is RECHECK_MS old; a version
// read inside a transaction is never kept; with a read replica nothing is kept. Against a real
// PostgreSQL; the clock is the test's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Topic } from '../../shared/types.js';
import { openBackend, type Backend } from '../../sync-server/src/backend.js';
import { createChangeFeed } from '../../sync-server/src/domain/change-feed.js';
import type { DomainContext } from '../../sync-server/src/domain/context.js';
import { createPgStore } from '../../sync-server/src/store/pg/store.js';
import type { Store } from '../../sync-server/src/store/types.js';
import { createTopic, keptTopicsJson, listTopicsJson, topicsPageKey } from '../../sync-server/src/domain/topics.js';
import { keptLeaderboardJson, leaderboardJson, rememberUser } from '../../sync-server/src/domain/users.js';
import { setVote } from '../../sync-server/src/domain/votes.js';
import { RECHECK_MS } from '../../sync-server/src/store/kept-versions.js';
import { startPostgres, type Postgres } from '../fixtures/postgres.js';

let server: Postgres;
const backends: Backend[] = [];
const stores: Store[] = [];
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(async () => {
  for (const backend of backends) await backend.close();
  for (const store of stores) await store.close();
  await server?.stop();
});

/** The test's clock (ms) for every store's kept versions. */
let clock = 0;
const keptVersions = { now: () => clock };

let contexts = 0;
/** A server process's backend on the database (its store, its LISTEN/NOTIFY change feed), as `serve` opens it. */
async function process(options: { readDatabaseUrl?: string } = {}): Promise<DomainContext> {
  const backend = await openBackend(
    { databaseUrl: server.url, pgPoolMax: 2, databaseFile: '', dbBusyTimeoutMs: 5000, ...options },
    { keptVersions },
  );
  backends.push(backend);
  const prefix = `p${++contexts}`;
  let ids = 0;
  let ms = Date.UTC(2026, 0, 1);
  return { store: backend.store, clock: () => new Date((ms += 1000)), newId: () => `${prefix}-${++ids}`, changes: backend.changes };
}

const ada = { uid: 'ada', name: 'Ada', email: null };
const bob = { uid: 'bob', name: 'Bob', email: null };
const NEW = { sort: 'new' as const, limit: 50, offset: 0 };
const KEY = topicsPageKey(NEW, null);
const titles = (bytes: Uint8Array | undefined) => (JSON.parse(new TextDecoder().decode(bytes)) as Topic[]).map((t) => t.title);

async function until(what: string, check: () => boolean) {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > 10_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('the kept versions (PostgreSQL)', () => {
  it('a write of this process is seen by the next read, with no time passing', async () => {
    // A store with no LISTEN of its own: only its COMMIT can tell it (a process hears its own NOTIFY too).
    const store = await createPgStore({ connectionString: server.url, max: 2, keptVersions });
    stores.push(store);
    let ids = 0;
    const ctx: DomainContext = { store, clock: () => new Date(), newId: () => `own-${++ids}`, changes: createChangeFeed() };
    await rememberUser(ctx, ada);
    await rememberUser(ctx, bob);
    const first = await createTopic(ctx, ada, { title: 'First here', categories: ['Science'] });
    const page = await listTopicsJson(ctx, NEW, null);
    // Kept: answered without a query.
    expect(keptTopicsJson(ctx, KEY)).toBe(page);
    await createTopic(ctx, bob, { title: 'Second here', categories: ['Science'] });
    expect(keptTopicsJson(ctx, KEY)).toBeUndefined();
    expect(titles(await listTopicsJson(ctx, NEW, null)).slice(0, 2)).toEqual(['Second here', 'First here']);

    const board = await leaderboardJson(ctx);
    expect(keptLeaderboardJson(ctx)).toBe(board);
    await setVote(ctx, bob, 'topic', first.id, true); // Ada's points move
    expect(keptLeaderboardJson(ctx)).toBeUndefined();
    expect(await leaderboardJson(ctx)).not.toEqual(board);
  });

  it("another server process's write: seen once its change message arrives, and in any case once the version is RECHECK_MS old", async () => {
    const a = await process();
    const b = await process();
    await rememberUser(a, ada);
    const page = await listTopicsJson(b, NEW, null);
    expect(keptTopicsJson(b, KEY)).toBe(page);
    await createTopic(a, ada, { title: 'Written on A', categories: ['Science'] });
    // No time passes on the kept versions' clock: only A's NOTIFY, heard by B's feed, lets B read again.
    await until("B's kept page to go", () => keptTopicsJson(b, KEY) === undefined);
    expect(titles(await listTopicsJson(b, NEW, null))).toContain('Written on A');

    // A write no message announces (a script on the database): trusted until RECHECK_MS, then read again.
    // (First, any message of A's write still on its way has come.)
    await new Promise((resolve) => setTimeout(resolve, 300));
    const again = await listTopicsJson(b, NEW, null);
    expect(keptTopicsJson(b, KEY)).toBe(again);
    await (b.store as unknown as { pool: { query(sql: string): Promise<unknown> } }).pool.query(
      "UPDATE topics SET seq = crux_next_seq(), title = 'Renamed by a script' WHERE title = 'Written on A'",
    );
    clock += RECHECK_MS - 1;
    expect(keptTopicsJson(b, KEY)).toBe(again);
    clock += 1;
    expect(keptTopicsJson(b, KEY)).toBeUndefined();
    expect(titles(await listTopicsJson(b, NEW, null))).toContain('Renamed by a script');
  });

  it('a version read inside a transaction that rolls back is never kept', async () => {
    const { store } = await process();
    const committed = await store.topics.listVersion();
    await expect(
      store.transaction(async () => {
        await store.topics.insert({
          id: 'rolled-back',
          title: 'Never',
          category: 'Science',
          creator_uid: 'ada',
          created_at: '2026-01-01T00:00:00.000Z',
          seq: await store.nextSeq(),
        });
        expect(await store.topics.listVersion()).toBeGreaterThan(committed); // its own uncommitted row
        expect(store.versions!.listVersionNow()).toBeUndefined(); // never the kept one inside
        throw new Error('undone');
      }),
    ).rejects.toThrow('undone');
    expect(store.versions!.listVersionNow()).toBe(committed);
    expect(await store.topics.listVersion()).toBe(committed);
  });

  it('with a read replica nothing is kept (a version read there may be behind a caller who just wrote)', async () => {
    // The primary stands in for its replica here: what is asserted is that no version is kept.
    const { store } = await process({ readDatabaseUrl: server.url });
    expect(store.versions).toBeUndefined();
  });
});
