// The change feed across processes (point 3): two feeds on one PostgreSQL
// database stand for two server processes; what one publishes reaches the other's
// listeners through LISTEN/NOTIFY, once, and its own listeners once (not again as an echo); after
// a lost LISTEN connection comes back, its listeners are told to resync everything; and what a
// process remembers of users' names follows renames made through the other.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import { EVERYTHING, type Change } from '../../sync-server/src/domain/change-feed.js';
import type { DomainContext } from '../../sync-server/src/domain/context.js';
import { rememberUser } from '../../sync-server/src/domain/users.js';
import { createPgStore } from '../../sync-server/src/store/pg/store.js';
import { eventsFor } from '../../sync-server/src/sync/stream.js';
import { CHANGES_CHANNEL, createPgChangeFeed, payloadsFor, type PgChangeFeed } from '../../sync-server/src/store/pg/change-feed.js';
import { startPostgres, type Postgres } from '../fixtures/postgres.js';

/** Collects what a feed's listener receives. */
function collect(feed: PgChangeFeed) {
  const received: Change[][] = [];
  feed.subscribe((changes) => received.push(changes));
  return received;
}

async function until(check: () => boolean, timeoutMs = 5_000) {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('change feed over PostgreSQL LISTEN/NOTIFY', () => {
  let postgres: Postgres;
  const feeds: PgChangeFeed[] = [];
  const open = async () => {
    const feed = createPgChangeFeed({ connectionString: postgres.url, retryMs: 50 });
    feeds.push(feed);
    await feed.ready;
    return feed;
  };
  beforeAll(async () => {
    postgres = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    for (const feed of feeds) await feed.close();
    await postgres?.stop();
  });

  it("a change published by one process reaches the other's listeners, and each process's own once", async () => {
    const [a, b] = [await open(), await open()];
    const [seenByA, seenByB] = [collect(a), collect(b)];
    const changes: Change[] = [
      { collection: 'responses', topicId: 't1' },
      { collection: 'notifications', uid: 'ada' },
    ];
    a.publish(changes);
    expect(seenByA).toEqual([changes]); // at once, in process
    await until(() => seenByB.length === 1);
    expect(seenByB).toEqual([changes]);
    b.publish([{ collection: 'topics' }]);
    await until(() => seenByA.length === 2);
    // Settle: nothing else arrives (no echo of a's own publish, no duplicate).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(seenByA).toEqual([changes, [{ collection: 'topics' }]]);
    expect(seenByB).toEqual([changes, [{ collection: 'topics' }]]);
  });

  it('a batch bigger than a NOTIFY payload arrives whole, in parts', async () => {
    const [a, b] = [await open(), await open()];
    const seenByB = collect(b);
    const many: Change[] = Array.from({ length: 600 }, (_, i) => ({ collection: 'profile', uid: `user-${i}-${'x'.repeat(20)}` }));
    expect(payloadsFor('origin', many).length).toBeGreaterThan(1);
    a.publish(many);
    await until(() => seenByB.flat().length === many.length);
    expect(seenByB.flat()).toEqual(many);
  });

  it('comes back after its LISTEN connection is killed, and ignores what is not a change', async () => {
    const [a, b] = [await open(), await open()];
    const seenByB = collect(b);
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    try {
      await admin.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, 'not json']);
      // Every LISTEN connection but the admin's own is cut, as a failover or a restart would.
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND query LIKE 'LISTEN%'");
      const sent: Change[] = [{ collection: 'votes', uid: 'bob' }];
      // Published until the reconnected listener hears it (what was sent while it was down is lost;
      // the reconnection's own "resync everything" is the next test's).
      const heard = () => seenByB.filter((changes) => changes[0]?.collection !== '*');
      await until(() => {
        if (heard().length === 0) a.publish(sent);
        return heard().length > 0;
      });
      expect(heard()[0]).toEqual(sent);
    } finally {
      await admin.end();
    }
  });

  it('after its LISTEN connection comes back, tells its listeners to resync everything (what was sent meanwhile is lost)', async () => {
    const [a, b] = [await open(), await open()];
    const seenByB = collect(b);
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    try {
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND query LIKE 'LISTEN%'");
      // Sent while B may not listen: perhaps lost. Nothing else is published after it.
      a.publish([{ collection: 'topics' }]);
      await until(() => seenByB.some((changes) => changes.some((change) => change.collection === '*')));
      // What an open stream on B sends for it: RESYNC of everything, so its app pulls what it missed.
      const resync = seenByB.find((changes) => changes.some((change) => change.collection === '*'))!;
      expect(resync).toEqual([EVERYTHING]);
      expect(eventsFor(resync, { user: { uid: 'bob', name: 'Bob', email: null }, topics: new Set(['t1']) })).toEqual([
        { type: 'RESYNC', collection: '*' },
      ]);
    } finally {
      await admin.end();
    }
  });

  it("a rename through one process is not undone by the other's memory of the name (rememberUser)", async () => {
    // Two processes: a store and a change feed each, on one database.
    const stores = [
      await createPgStore({ connectionString: postgres.url, max: 2 }),
      await createPgStore({ connectionString: postgres.url, max: 2 }),
    ];
    try {
      const [ctxA, ctxB] = await Promise.all(
        stores.map(async (store): Promise<DomainContext> => ({ store, clock: () => new Date(), newId: randomUUID, changes: await open() })),
      );
      const uid = 'renamer';
      await rememberUser(ctxA!, { uid, name: 'Xavier', email: null });
      // From here on A's listeners hear only what B does.
      const heardByA = collect(ctxA!.changes as PgChangeFeed);
      await rememberUser(ctxB!, { uid, name: 'Yvonne', email: null });
      // Once A has heard of B's change (LISTEN/NOTIFY), its token says Xavier again.
      await until(() => heardByA.some((changes) => changes.some((change) => change.collection === 'profile')));
      await rememberUser(ctxA!, { uid, name: 'Xavier', email: null });
      expect((await stores[0]!.users.get(uid))?.display_name).toBe('Xavier');
      // And a name A wrote itself is remembered: the same token again reads nothing.
      const get = vi.spyOn(stores[0]!.users, 'get');
      await rememberUser(ctxA!, { uid, name: 'Xavier', email: null });
      expect(get).not.toHaveBeenCalled();
    } finally {
      for (const store of stores) await store.close();
    }
  });
});
