// PostgreSQL groundwork (docs/POSTGRES.md): on PostgreSQL, a puller that moves its checkpoint
// (seq, id) to the last row it got never skips a row, because every stamping transaction
// holds one advisory lock from its first seq to its commit (sync-server/src/store/pg/seq.ts).
// Against a real PostgreSQL (tests/fixtures/postgres.ts). Without the lock, the control
// shows the skip is real: a smaller seq can commit after a puller went past it. Then the same
// through the real store, the domain's writes and the sync protocol's pull().
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChangeFeed } from '../../sync-server/src/domain/change-feed.js';
import type { DomainContext } from '../../sync-server/src/domain/context.js';
import { createResponse } from '../../sync-server/src/domain/responses.js';
import { createTopic } from '../../sync-server/src/domain/topics.js';
import { rememberUser } from '../../sync-server/src/domain/users.js';
import { migrateSeq, SEQ_LOCK_KEY, withWriteTransaction } from '../../sync-server/src/store/pg/seq.js';
import { createPgStore, type PgStore } from '../../sync-server/src/store/pg/store.js';
import { openBackend } from '../../sync-server/src/backend.js';
import { readConfig } from '../../sync-server/src/config.js';
import type { Store } from '../../sync-server/src/store/types.js';
import { pull } from '../../sync-server/src/sync/pull.js';
import { startPostgres, type Postgres } from '../fixtures/postgres.js';

let server: Postgres;
let pool: pg.Pool;

beforeAll(async () => {
  server = await startPostgres();
  pool = new pg.Pool({ connectionString: server.url, max: 30 });
  await migrateSeq(pool);
});

afterAll(async () => {
  await pool?.end();
  await server?.stop();
});

interface Row {
  id: string;
  seq: number;
}

async function createTable(name: string): Promise<void> {
  await pool.query(`CREATE TABLE ${name} (id text PRIMARY KEY, seq bigint NOT NULL)`);
  await pool.query(`CREATE INDEX ${name}_seq ON ${name} (seq, id)`);
}

/** One pull as the sync protocol does it (sync-server/src/sync/pull.ts): after (seq, id), by (seq, id). */
async function pullPage(table: string, from: Row, limit: number): Promise<Row[]> {
  const { rows } = await pool.query<{ id: string; seq: string }>(
    `SELECT id, seq FROM ${table} WHERE seq > $1 OR (seq = $1 AND id > $2) ORDER BY seq, id LIMIT $3`,
    [from.seq, from.id, limit],
  );
  return rows.map((row) => ({ id: row.id, seq: Number(row.seq) }));
}

/** Resolves once some connection waits for the seq lock (pg_locks: an advisory lock not granted). */
async function someoneWaitsForTheLock(): Promise<void> {
  for (;;) {
    const { rows } = await pool.query<{ waiting: string }>(
      `SELECT count(*) AS waiting FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND NOT granted`,
      [SEQ_LOCK_KEY],
    );
    if (Number(rows[0]!.waiting) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

class RolledBack extends Error {}

describe('sync checkpoints on PostgreSQL', () => {
  it('every committed row reaches every puller exactly once, under concurrent writers that commit at random moments', async () => {
    const WRITERS = 16;
    const TRANSACTIONS = 100;
    const PULLERS = 4;
    await createTable('stress_rows');
    const committed = new Set<string>();
    const rolledBack = new Set<string>();
    let writersDone = false;

    const writer = async (w: number) => {
      for (let t = 0; t < TRANSACTIONS; t++) {
        const ids = Array.from({ length: 1 + Math.floor(Math.random() * 3) }, (_, r) => `w${w}-t${t}-r${r}`);
        const rollBack = Math.random() < 0.1;
        try {
          await withWriteTransaction(pool, async (client, nextSeq) => {
            for (const id of ids) await client.query('INSERT INTO stress_rows (id, seq) VALUES ($1, $2)', [id, await nextSeq()]);
            // Stamped, not committed yet: the moment a puller could go past these rows.
            await client.query('SELECT pg_sleep(random() * 0.002)');
            if (rollBack) throw new RolledBack();
          });
          ids.forEach((id) => committed.add(id));
        } catch (error) {
          if (!(error instanceof RolledBack)) throw error;
          ids.forEach((id) => rolledBack.add(id));
        }
      }
    };

    const puller = async () => {
      const received = new Map<string, number>();
      let checkpoint: Row = { id: '', seq: 0 };
      let seq = 0;
      let rowsBeforeWritersDone = 0;
      for (;;) {
        const done = writersDone; // read before the pull: an empty pull after this proves the end
        const page = await pullPage('stress_rows', checkpoint, 50);
        for (const row of page) {
          expect(row.seq).toBeGreaterThan(seq);
          seq = row.seq;
          received.set(row.id, (received.get(row.id) ?? 0) + 1);
        }
        if (!done) rowsBeforeWritersDone += page.length;
        checkpoint = page.at(-1) ?? checkpoint;
        if (page.length === 0) {
          if (done) return { received, rowsBeforeWritersDone };
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
      }
    };

    const writing = Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w))).finally(() => (writersDone = true));
    const [, results] = await Promise.all([writing, Promise.all(Array.from({ length: PULLERS }, () => puller()))]);

    expect(committed.size).toBeGreaterThan(0);
    expect(rolledBack.size).toBeGreaterThan(0);
    const { rows } = await pool.query<{ id: string }>('SELECT id FROM stress_rows');
    expect(new Set(rows.map((row) => row.id))).toEqual(committed);
    for (const { received } of results) {
      expect(new Set(received.keys())).toEqual(committed);
      expect([...received.values()].every((times) => times === 1)).toBe(true);
      expect([...rolledBack].some((id) => received.has(id))).toBe(false);
    }
    // The pullers ran alongside the writers (otherwise this test proves nothing).
    expect(results.some((result) => result.rowsBeforeWritersDone > 0)).toBe(true);
  }, 120_000); // 1,600 transactions one after another from first stamp to commit: seconds, more on a busy machine

  it('control: without the lock, a smaller seq committed after a larger one is skipped', async () => {
    await createTable('plain_rows');
    const a = await pool.connect();
    const b = await pool.connect();
    try {
      // Plain sequence stamping, no lock: A takes its number first, B second.
      await pool.query('CREATE SEQUENCE plain_seq');
      await a.query('BEGIN');
      const seqA = Number((await a.query<{ seq: string }>(`SELECT nextval('plain_seq') AS seq`)).rows[0]!.seq);
      await a.query(`INSERT INTO plain_rows VALUES ('a', $1)`, [seqA]);
      await b.query('BEGIN');
      const seqB = Number((await b.query<{ seq: string }>(`SELECT nextval('plain_seq') AS seq`)).rows[0]!.seq);
      await b.query(`INSERT INTO plain_rows VALUES ('b', $1)`, [seqB]);
      expect(seqA).toBeLessThan(seqB);
      await b.query('COMMIT');

      // The puller sees B, and moves its checkpoint past A's number.
      const first = await pullPage('plain_rows', { id: '', seq: 0 }, 50);
      expect(first.map((row) => row.id)).toEqual(['b']);
      await a.query('COMMIT');
      const second = await pullPage('plain_rows', first.at(-1)!, 50);

      // A is committed, and this puller will never get it.
      expect(second).toEqual([]);
      expect((await pool.query('SELECT id FROM plain_rows ORDER BY seq')).rows.map((row) => row.id)).toEqual(['a', 'b']);
    } finally {
      a.release();
      b.release();
    }
  });

  it('with the lock, a later stamper waits until the earlier one has committed, so no puller sees 2 before 1', async () => {
    await createTable('locked_rows');
    const aMayCommit = gate();
    const aStamped = gate();
    let bStamped = false;

    const transactionA = withWriteTransaction(pool, async (client, nextSeq) => {
      const seq = await nextSeq();
      await client.query(`INSERT INTO locked_rows VALUES ('a', $1)`, [seq]);
      aStamped.open();
      await aMayCommit.wait;
      return seq;
    });
    await aStamped.wait;
    const transactionB = withWriteTransaction(pool, async (client, nextSeq) => {
      const seq = await nextSeq();
      bStamped = true;
      // Once B has its number, A's row is committed and visible (a new statement, a new snapshot).
      const { rows } = await client.query('SELECT id FROM locked_rows');
      await client.query(`INSERT INTO locked_rows VALUES ('b', $1)`, [seq]);
      return { seq, sawA: rows.some((row) => row.id === 'a') };
    });

    // B is stuck at its first nextSeq() while A holds the lock; a puller sees neither.
    await someoneWaitsForTheLock();
    expect(bStamped).toBe(false);
    expect(await pullPage('locked_rows', { id: '', seq: 0 }, 50)).toEqual([]);

    aMayCommit.open();
    const seqA = await transactionA;
    const b = await transactionB;
    expect(b.sawA).toBe(true);
    expect(seqA).toBeLessThan(b.seq);
    const page = await pullPage('locked_rows', { id: '', seq: 0 }, 50);
    expect(page).toEqual([
      { id: 'a', seq: seqA },
      { id: 'b', seq: b.seq },
    ]);
    expect(await pullPage('locked_rows', page.at(-1)!, 50)).toEqual([]);
  });
});

describe('sync checkpoints through the real PostgreSQL store', () => {
  // The same property as above, with nothing of the harness: the writes are the domain's own
  // (createTopic, createResponse) in the store's transactions (createPgStore().transaction, the
  // seq lock taken at BEGIN), some rolled back after stamping, and the pullers are the sync
  // protocol's pull() on a second store, as another server process would serve them.
  it('every committed topic and response reaches every puller exactly once, under concurrent writers and pullers', async () => {
    const WRITERS = 12;
    const TRANSACTIONS = 25;
    const PULLERS = 4;
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query('CREATE DATABASE crux_store_stress');
    await admin.end();
    const url = server.url.replace(/\/[^/]*$/, '/crux_store_stress');
    const writes = await createPgStore({ connectionString: url, max: WRITERS });
    const reads = await createPgStore({ connectionString: url, max: PULLERS * 2 });
    let ids = 0;
    const context = (store: Store): DomainContext => ({
      store,
      clock: () => new Date(),
      newId: () => `stress-${String(++ids).padStart(6, '0')}`,
      changes: createChangeFeed(),
    });
    const writing = context(writes);
    const reading = context(reads);
    const users = Array.from({ length: WRITERS }, (_, w) => ({ uid: `writer-${w}`, name: `Writer ${w}`, email: null }));
    try {
      for (const user of users) await rememberUser(writing, user);
      const debate = await createTopic(writing, users[0]!, { title: 'Where the replies go', categories: ['Science'] });
      const committed = { topics: new Set<string>([debate.id]), responses: new Set<string>() };
      const rolledBack = new Set<string>();
      let writersDone = false;

      const writer = async (w: number) => {
        const user = users[w]!;
        for (let t = 0; t < TRANSACTIONS; t++) {
          const rollBack = Math.random() < 0.1;
          const made: Array<{ collection: 'topics' | 'responses'; id: string }> = [];
          try {
            await writes.transaction(async () => {
              for (let r = 0; r < 1 + Math.floor(Math.random() * 3); r++) {
                if (Math.random() < 0.5) {
                  const topic = await createTopic(writing, user, { title: `Topic ${w}-${t}-${r}`, categories: ['Science'] });
                  made.push({ collection: 'topics', id: topic.id });
                } else {
                  const response = await createResponse(writing, user, {
                    topic_id: debate.id,
                    type: 'for',
                    content: `Reply ${w}-${t}-${r}`,
                  });
                  made.push({ collection: 'responses', id: response.id });
                }
              }
              // Stamped, not committed yet: the moment a puller could go past these rows.
              await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
              if (rollBack) throw new RolledBack();
            });
            for (const { collection, id } of made) committed[collection].add(id);
          } catch (error) {
            if (!(error instanceof RolledBack)) throw error;
            for (const { id } of made) rolledBack.add(id);
          }
        }
      };

      const puller = async () => {
        const received = { topics: new Map<string, number>(), responses: new Map<string, number>() };
        const checkpoints = { topics: { id: '', seq: 0 }, responses: { id: '', seq: 0 } };
        let rowsBeforeWritersDone = 0;
        for (;;) {
          const done = writersDone; // read before the pulls: empty pulls after this prove the end
          let got = 0;
          for (const collection of ['topics', 'responses'] as const) {
            const scope = collection === 'topics' ? { user: null } : { user: null, topicId: debate.id };
            const page = await pull(reading, collection, scope, checkpoints[collection], 20);
            for (const doc of page.documents) received[collection].set(doc.id, (received[collection].get(doc.id) ?? 0) + 1);
            checkpoints[collection] = page.checkpoint;
            got += page.documents.length;
          }
          if (!done) rowsBeforeWritersDone += got;
          if (got === 0) {
            if (done) return { received, rowsBeforeWritersDone };
            await new Promise((resolve) => setTimeout(resolve, 1));
          }
        }
      };

      const writers = Promise.all(users.map((_, w) => writer(w))).finally(() => (writersDone = true));
      const [, results] = await Promise.all([writers, Promise.all(Array.from({ length: PULLERS }, () => puller()))]);

      expect(committed.topics.size + committed.responses.size).toBeGreaterThan(WRITERS * TRANSACTIONS);
      expect(rolledBack.size).toBeGreaterThan(0);
      for (const { received } of results) {
        for (const collection of ['topics', 'responses'] as const) {
          expect(new Set(received[collection].keys())).toEqual(committed[collection]);
          // Each reply restamps its topic (its count changed), so the debate comes again; every other row is written once.
          const twice = [...received[collection]].filter(([id, times]) => times !== 1 && id !== debate.id);
          expect(twice).toEqual([]);
        }
        expect([...rolledBack].some((id) => received.topics.has(id) || received.responses.has(id))).toBe(false);
      }
      // The pullers ran alongside the writers (otherwise this test proves nothing).
      expect(results.some((result) => result.rowsBeforeWritersDone > 0)).toBe(true);
    } finally {
      await reads.close();
      await writes.close();
    }
  }, 120_000);
});

describe("the store's change numbers and statements on PostgreSQL", () => {
  // A store transaction reads crux_meta's counter once under the seq lock and counts on in memory;
  // the last number goes back with its COMMIT. What stamps outside the store (crux_next_seq(): the
  // copy tool, an operator's fix, another release) must still take the next number after it.
  let store: PgStore;
  let url: string;
  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query('CREATE DATABASE crux_store_numbers');
    await admin.end();
    url = server.url.replace(/\/[^/]*$/, '/crux_store_numbers');
    // One connection: what the test reads from the pool is the session the store's statements ran on.
    store = await createPgStore({ connectionString: url, max: 1 });
  });
  afterAll(async () => {
    await store?.close();
  });
  const counter = async () => Number((await store.pool.query("SELECT value FROM crux_meta WHERE key = 'seq'")).rows[0]!.value);

  it('numbers taken in a transaction are written back with its COMMIT; one stamped outside the store waits and takes the next', async () => {
    const before = await counter();
    const mayCommit = gate();
    const stamped = gate();
    const inside = store.transaction(async () => {
      const numbers = [await store.nextSeq(), await store.nextSeq(), await store.nextSeq()];
      stamped.open();
      await mayCommit.wait;
      return numbers;
    });
    await stamped.wait;
    // Another session's stamp waits for the seq lock the transaction holds.
    const outside = new pg.Client({ connectionString: url });
    await outside.connect();
    try {
      const outsideStamp = outside.query<{ seq: string }>('SELECT crux_next_seq() AS seq');
      // (pg_locks is the cluster's: the lock in this test's database shows there too.)
      await someoneWaitsForTheLock();
      mayCommit.open();
      expect(await inside).toEqual([before + 1, before + 2, before + 3]);
      expect(Number((await outsideStamp).rows[0]!.seq)).toBe(before + 4);
    } finally {
      await outside.end();
    }
    expect(await counter()).toBe(before + 4);
    expect(await store.transaction(async () => await store.nextSeq())).toBe(before + 5);
  });

  it('a transaction rolled back hands its numbers out again; one that stamps nothing leaves the counter as it was', async () => {
    const before = await counter();
    await expect(
      store.transaction(async () => {
        await store.nextSeq();
        await store.nextSeq();
        throw new RolledBack();
      }),
    ).rejects.toBeInstanceOf(RolledBack);
    expect(await counter()).toBe(before);
    await store.transaction(async () => await store.users.get('nobody'));
    expect(await counter()).toBe(before);
    expect(await store.transaction(async () => await store.nextSeq())).toBe(before + 1);
  });

  it('statements with parameters are prepared by name once per connection, never a star expansion; PG_PREPARED_STATEMENTS=off prepares none', async () => {
    const prepared = async (pool: pg.Pool) =>
      (await pool.query<{ name: string; statement: string }>('SELECT name, statement FROM pg_prepared_statements')).rows;
    for (let i = 0; i < 3; i++) expect(await store.topics.get('no-such-topic', null)).toBeUndefined();
    const named = (await prepared(store.pool)).filter((row) => /FROM topics t/.test(row.statement));
    // The same text three times: one statement, by one name.
    expect(named).toHaveLength(1);
    expect(named[0]!.name).toMatch(/^crux_\d+$/);
    // A star expansion is never prepared: a column a migration adds would change its result.
    expect(await store.users.get('nobody')).toBeUndefined();
    expect((await prepared(store.pool)).filter((row) => /\bSELECT \*/.test(row.statement))).toEqual([]);

    // The setting as an operator gives it: the environment, through the config, to the backend's store.
    const unnamed = await openBackend(readConfig({ DATABASE_URL: url, PG_POOL_MAX: '1', PG_PREPARED_STATEMENTS: 'off' }));
    try {
      const unnamedStore = unnamed.store as PgStore;
      for (let i = 0; i < 3; i++) expect(await unnamedStore.topics.get('no-such-topic', null)).toBeUndefined();
      expect(await prepared(unnamedStore.pool)).toEqual([]);
    } finally {
      await unnamed.close();
    }
  });
});
