// On SQLite the versions the kept pages hang on (the topics' listVersion, the
// database's changeNumber) are known in memory, not read from the file per request
// (sync-server/src/store/sqlite/kept-versions.ts). A write of this process is seen by the very next
// read (no time passing); a write through another connection (another process, a CLI script) once
// the version is RECHECK_MS old, or at once when a peer's change message arrives (SERVER_PROCESSES:
// backend.ts); a version read inside a transaction is never kept. The clock is the test's: nothing
// here depends on how fast the machine is.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Topic } from '../../shared/types.js';
import { openBackend } from '../../sync-server/src/backend.js';
import { createChangeFeed } from '../../sync-server/src/domain/change-feed.js';
import type { DomainContext } from '../../sync-server/src/domain/context.js';
import { createTopic, keptTopicsJson, listTopicsJson, topicsPageKey } from '../../sync-server/src/domain/topics.js';
import { keptLeaderboardJson, leaderboardJson, rememberUser } from '../../sync-server/src/domain/users.js';
import { setVote } from '../../sync-server/src/domain/votes.js';
import { createMemoryLimitBackend } from '../../sync-server/src/http/limit-backend.js';
import { openDatabase } from '../../sync-server/src/store/sqlite/connection.js';
import { RECHECK_MS } from '../../sync-server/src/store/kept-versions.js';
import { createStore } from '../../sync-server/src/store/sqlite/store.js';
import type { Store } from '../../sync-server/src/store/types.js';

const dir = mkdtempSync(join(tmpdir(), 'crux-kept-versions-'));
const opened: Store[] = [];
afterAll(async () => {
  for (const store of opened) await store.close();
  rmSync(dir, { recursive: true, force: true });
});

let files = 0;
let contexts = 0;
/** The test's clock (ms) for every store's kept versions. */
let clock = 0;
const keptVersions = { now: () => clock };

function context(store: Store): DomainContext {
  opened.push(store);
  const prefix = `c${++contexts}`;
  let ids = 0;
  let ms = Date.UTC(2026, 0, 1);
  return { store, clock: () => new Date((ms += 1000)), newId: () => `${prefix}-${++ids}`, changes: createChangeFeed() };
}
/** A context on its own connection to `file` (as another process would open it). */
const contextOn = (file: string) => context(createStore(openDatabase(file), { keptVersions }));

const ada = { uid: 'ada', name: 'Ada', email: null };
const bob = { uid: 'bob', name: 'Bob', email: null };
const NEW = { sort: 'new' as const, limit: 5, offset: 0 };
const KEY = topicsPageKey(NEW, null);
const titles = (bytes: Uint8Array | undefined) => (JSON.parse(new TextDecoder().decode(bytes)) as Topic[]).map((t) => t.title);

async function site() {
  const file = join(dir, `k${++files}.sqlite`);
  const ctx = contextOn(file);
  await rememberUser(ctx, ada);
  await rememberUser(ctx, bob);
  const first = await createTopic(ctx, ada, { title: 'First', categories: ['Science'] });
  return { file, ctx, first };
}

describe('the kept versions (SQLite)', () => {
  it('a write of this process is seen by the next read, with no time passing', async () => {
    const { ctx, first } = await site();
    const page = await listTopicsJson(ctx, NEW, null);
    expect(keptTopicsJson(ctx, KEY)).toBe(page);
    await createTopic(ctx, bob, { title: 'Second', categories: ['Science'] });
    expect(keptTopicsJson(ctx, KEY)).not.toBe(page);
    expect(titles(await listTopicsJson(ctx, NEW, null))).toEqual(['Second', 'First']);

    const board = await leaderboardJson(ctx);
    expect(keptLeaderboardJson(ctx)).toBe(board);
    await setVote(ctx, bob, 'topic', first.id, true); // Ada's points move
    expect(keptLeaderboardJson(ctx)).not.toBe(board);
    expect(await leaderboardJson(ctx)).not.toEqual(board);
  });

  it('a write through another connection is seen once the version is RECHECK_MS old', async () => {
    const { file, ctx } = await site();
    const other = contextOn(file);
    const page = await listTopicsJson(ctx, NEW, null);
    const board = await leaderboardJson(ctx);
    await createTopic(other, bob, { title: 'Elsewhere', categories: ['Science'] });
    // Within the bound nothing told this process: the kept page still answers.
    clock += RECHECK_MS - 1;
    expect(keptTopicsJson(ctx, KEY)).toBe(page);
    clock += 1;
    expect(keptTopicsJson(ctx, KEY)).toBeUndefined();
    expect(titles(await listTopicsJson(ctx, NEW, null)).sort()).toEqual(['Elsewhere', 'First']);
    expect(keptLeaderboardJson(ctx)).toBeUndefined(); // the change number moved too
    expect(await leaderboardJson(ctx)).toEqual(board); // (no points changed)
  });

  it("another server process's change message: seen at once", async () => {
    const { file } = await site();
    const feed = createChangeFeed();
    const backend = await openBackend(
      { databaseUrl: undefined, pgPoolMax: 1, databaseFile: file, dbBusyTimeoutMs: 5000 },
      {
        sharedFile: { migrated: Promise.resolve(), changes: feed, limits: createMemoryLimitBackend(), checkpointer: false },
        keptVersions,
      },
    );
    try {
      const ctx = { ...context(backend.store), changes: feed };
      opened.pop(); // closed by backend.close
      const other = contextOn(file);
      const page = await listTopicsJson(ctx, NEW, null);
      await createTopic(other, bob, { title: 'From a peer', categories: ['Science'] });
      expect(keptTopicsJson(ctx, KEY)).toBe(page); // no time has passed, no message yet
      feed.publish([{ collection: 'topics' }]); // as cluster/ipc-feed.ts hands on a peer's
      expect(keptTopicsJson(ctx, KEY)).toBeUndefined();
      expect(titles(await listTopicsJson(ctx, NEW, null)).sort()).toEqual(['First', 'From a peer']);
    } finally {
      await backend.close();
    }
  });

  it('a version read inside a transaction that rolls back is never kept', async () => {
    const { ctx } = await site();
    const { store } = ctx;
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
        throw new Error('undone');
      }),
    ).rejects.toThrow('undone');
    expect(store.versions!.listVersionNow()).toBe(committed);
    expect(await store.topics.listVersion()).toBe(committed);
  });
});
