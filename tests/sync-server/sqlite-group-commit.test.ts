// The SQLite store's group commit (sync-server/src/store/sqlite/transactions.ts).
// Top-level transactions that start while the write transaction is still open share its one
// COMMIT, each as a savepoint; nobody is answered before that COMMIT, a failing one is rolled
// back alone, a failing COMMIT fails every one of them, and a read from outside never sees rows
// that are not committed. A second connection to the file stands for another process.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../sync-server/src/store/sqlite/connection.js';
import { createSqliteTransactions, MAX_GROUP, type SqliteTransactions } from '../../sync-server/src/store/sqlite/transactions.js';

const dir = mkdtempSync(join(tmpdir(), 'crux-group-commit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

describe('group commit of the SQLite store', () => {
  let db: Db;
  let other: Database.Database;
  let turns: SqliteTransactions;
  let repo: { insert(id: string): Promise<void>; insertOrphan(id: string): Promise<void>; ids(): Promise<string[]> };
  const statements: string[] = [];
  /** What another connection (another process) sees: committed rows only. */
  const committed = () =>
    other
      .prepare<[], { id: string }>('SELECT id FROM t ORDER BY id')
      .all()
      .map((row) => row.id);
  const commits = () => statements.filter((sql) => sql === 'COMMIT').length;

  beforeEach(() => {
    const file = join(dir, `g${++files}.sqlite`);
    db = openDatabase(file);
    db.exec(`CREATE TABLE t (id TEXT PRIMARY KEY);
             CREATE TABLE child (id TEXT PRIMARY KEY, parent TEXT REFERENCES t(id) DEFERRABLE INITIALLY DEFERRED);`);
    // Counts the transaction statements the module runs (the connection itself is real).
    const exec = db.exec.bind(db);
    db.exec = (sql: string) => {
      statements.push(sql);
      return exec(sql);
    };
    statements.length = 0;
    other = new Database(file);
    turns = createSqliteTransactions(db);
    const insert = db.prepare<[string]>('INSERT INTO t (id) VALUES (?)');
    // Checked only at COMMIT (a deferred foreign key): the way to make a COMMIT fail.
    const orphan = db.prepare<[string]>("INSERT INTO child (id, parent) VALUES (?, 'missing')");
    const ids = db.prepare<[], { id: string }>('SELECT id FROM t ORDER BY id');
    repo = turns.wrap({
      insert: (id: string) => void insert.run(id),
      insertOrphan: (id: string) => void orphan.run(id),
      ids: () => ids.all().map((row) => row.id),
    });
  });
  afterEach(() => {
    other.close();
    db.close();
  });

  it('transactions started together share one COMMIT, and none is answered before it', async () => {
    const seenOnAnswer: string[][] = [];
    const write = (id: string) =>
      turns
        .transaction(async () => {
          await repo.insert(id);
          return id;
        })
        .then((result) => {
          seenOnAnswer.push(committed());
          return result;
        });
    expect(await Promise.all([write('a'), write('b'), write('c')])).toEqual(['a', 'b', 'c']);
    expect(commits()).toBe(1);
    // Each caller, when answered, finds its row (and the others') committed for every connection.
    expect(seenOnAnswer).toEqual([
      ['a', 'b', 'c'],
      ['a', 'b', 'c'],
      ['a', 'b', 'c'],
    ]);
  });

  it('one that throws is rolled back alone; the others land; afterCommit runs for the landed ones after the COMMIT', async () => {
    const ran: string[] = [];
    const write = (id: string, fail: boolean) =>
      turns.transaction(async () => {
        await repo.insert(id);
        turns.afterCommit(() => ran.push(`${id}:${committed().join(',')}`));
        if (fail) throw new Error(`no ${id}`);
      });
    const results = await Promise.allSettled([write('a', false), write('b', true), write('c', false)]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toEqual(new Error('no b'));
    expect(committed()).toEqual(['a', 'c']);
    expect(ran).toEqual(['a:a,c', 'c:a,c']);
  });

  it('a COMMIT that fails fails every transaction of the group, and nothing of theirs lands', async () => {
    const write = (id: string, orphan: boolean) =>
      turns.transaction(async () => {
        await repo.insert(id);
        if (orphan) await repo.insertOrphan(id);
      });
    const results = await Promise.allSettled([write('a', false), write('b', true), write('c', false)]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
    for (const result of results) expect(String((result as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
    expect(committed()).toEqual([]);
    expect(db.inTransaction).toBe(false);
    // The connection goes on: the next transaction lands.
    await turns.transaction(async () => await repo.insert('d'));
    expect(committed()).toEqual(['d']);
  });

  it('a read from outside, while a group is open, commits it first and never sees uncommitted rows', async () => {
    const written = turns.transaction(async () => await repo.insert('a'));
    // The transaction's callback has run; the read comes before the group would commit on its own.
    await Promise.resolve();
    await Promise.resolve();
    const ids = await repo.ids();
    expect(ids).toEqual(['a']);
    expect(committed()).toEqual(['a']);
    await written;
    expect(commits()).toBe(1);
  });

  it("change numbers: counted in memory within a group, meta's seq written once, before its COMMIT", async () => {
    // Counts this connection's UPDATEs of meta (a temporary trigger; the table is the real one).
    db.exec(`CREATE TEMP TABLE meta_writes (n INTEGER); INSERT INTO meta_writes VALUES (0);
             CREATE TEMP TRIGGER count_meta_writes AFTER UPDATE ON main.meta BEGIN UPDATE meta_writes SET n = n + 1; END;`);
    const writes = () => db.prepare<[], { n: number }>('SELECT n FROM meta_writes').get()!.n;
    /** meta's seq as another process reads it: committed only. */
    const metaSeq = () => other.prepare<[], { value: number }>("SELECT value FROM meta WHERE key = 'seq'").get()!.value;
    const start = metaSeq();
    const numbers: number[][] = [];
    const stamp = (k: number, fail: boolean) =>
      turns.transaction(async () => {
        numbers[k] = [turns.nextSeq(), turns.nextSeq()];
        await repo.insert(`s${k}`);
        // Meanwhile nobody else sees the numbers taken.
        expect(metaSeq()).toBe(start);
        if (fail) throw new Error('refused');
      });
    const results = await Promise.allSettled([stamp(0, false), stamp(1, true), stamp(2, false)]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(commits()).toBe(1);
    // One group: six numbers in order (the refused member's two are a gap), one UPDATE of meta.
    expect(numbers.flat()).toEqual([1, 2, 3, 4, 5, 6].map((n) => start + n));
    expect(metaSeq()).toBe(start + 6);
    expect(writes()).toBe(1);
    // Outside a group: the UPDATE of its own.
    expect(turns.nextSeq()).toBe(start + 7);
    expect(metaSeq()).toBe(start + 7);
    // A group whose COMMIT fails committed none of its numbers: the next group hands them out again.
    const lost = await Promise.allSettled([
      turns.transaction(async () => {
        numbers.push([turns.nextSeq()]);
        await repo.insertOrphan('x');
      }),
    ]);
    expect(lost[0].status).toBe('rejected');
    expect(numbers.at(-1)).toEqual([start + 8]);
    expect(metaSeq()).toBe(start + 7);
    await turns.transaction(async () => void numbers.push([turns.nextSeq()]));
    expect(numbers.at(-1)).toEqual([start + 8]);
    expect(metaSeq()).toBe(start + 8);
  });

  it('at most MAX_GROUP transactions share a COMMIT', async () => {
    const n = MAX_GROUP + 5;
    await Promise.all(Array.from({ length: n }, (_, i) => turns.transaction(async () => await repo.insert(`r${i}`))));
    expect(committed()).toHaveLength(n);
    expect(commits()).toBe(2);
  });

  it('a nested transaction inside a grouped one is its own savepoint', async () => {
    const outer = (id: string) =>
      turns.transaction(async () => {
        await repo.insert(id);
        await expect(
          turns.transaction(async () => {
            await repo.insert(`${id}-inner`);
            throw new Error('inner');
          }),
        ).rejects.toThrow('inner');
      });
    await Promise.all([outer('a'), outer('b')]);
    expect(committed()).toEqual(['a', 'b']);
    expect(commits()).toBe(1);
  });

  it('transactionEach: each item its own outermost savepoint, all of them in one COMMIT (a sync push)', async () => {
    const ids = Array.from({ length: 50 }, (_, i) => `r${String(i).padStart(2, '0')}`);
    expect(await turns.transactionEach(ids, async (id) => (await repo.insert(id), id))).toEqual(ids);
    expect(commits()).toBe(1);
    expect(committed()).toEqual(ids);
    // No savepoint around the items: SQLite's undo pages of an open savepoint are a list every later
    // statement walks from its start, so an item must not run inside its predecessors'.
    let open = 0;
    for (const sql of statements) {
      if (sql.startsWith('SAVEPOINT')) expect(++open, sql).toBe(1);
      if (sql.startsWith('RELEASE')) open--;
    }
  });

  it('transactionEach stops at an item that throws: it is rolled back, the ones before land, the ones after never run', async () => {
    const started: string[] = [];
    const told: string[] = [];
    const each = turns.transactionEach(['a', 'b', 'c'], async (id) => {
      started.push(id);
      await repo.insert(id);
      turns.afterCommit(() => told.push(id));
      if (id === 'b') throw new Error('no b');
    });
    await expect(each).rejects.toThrow('no b');
    expect(started).toEqual(['a', 'b']);
    expect(committed()).toEqual(['a']);
    expect(told).toEqual(['a']);
    // More items than MAX_GROUP: a COMMIT per MAX_GROUP of them.
    statements.length = 0;
    const many = Array.from({ length: MAX_GROUP + 1 }, (_, i) => `m${i}`);
    await turns.transactionEach(many, async (id) => await repo.insert(id));
    expect(commits()).toBe(2);
  });

  it('transactionEach inside an open transaction: its items are savepoints one after another, a throwing one rolled back', async () => {
    const order: string[] = [];
    await turns.transaction(async () => {
      await repo.insert('outer');
      const each = turns.transactionEach(['a', 'b', 'c'], async (id) => {
        order.push(`start ${id}`);
        await repo.insert(id);
        await Promise.resolve();
        order.push(`end ${id}`);
        if (id === 'b') throw new Error('no b');
      });
      await expect(each).rejects.toThrow('no b');
    });
    expect(order).toEqual(['start a', 'end a', 'start b', 'end b']);
    expect(committed()).toEqual(['a', 'outer']);
  });
});
