// SERVER_PROCESSES (sync-server/src/cluster/primary.ts): several processes write one SQLite file,
// each through its own connection. A write that finds another process holding the write lock must
// wait without blocking its event loop (its reads go on meanwhile), take the lock once it is free,
// and give up with SQLITE_BUSY (answered 503: store/busy.ts) after the busy timeout. A second
// connection holding an open write transaction stands for the other process.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isBusyError } from '../../sync-server/src/store/busy.js';
import { openDatabase, type Db } from '../../sync-server/src/store/sqlite/connection.js';
import { createSqliteTransactions, type SqliteTransactions } from '../../sync-server/src/store/sqlite/transactions.js';

const dir = mkdtempSync(join(tmpdir(), 'crux-shared-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

describe('writes on a SQLite file other processes write too (sharedFile)', () => {
  let db: Db;
  let other: Database.Database;
  let turns: SqliteTransactions;
  let repo: { insert(id: string): Promise<void>; ids(): Promise<string[]> };

  const open = (busyTimeoutMs: number) => {
    turns = createSqliteTransactions(db, { sharedFile: { busyTimeoutMs } });
    repo = turns.wrap({
      insert: (id: string) => void db.prepare('INSERT INTO t (id) VALUES (?)').run(id),
      ids: () =>
        db
          .prepare<[], { id: string }>('SELECT id FROM t ORDER BY id')
          .all()
          .map((row) => row.id),
    });
  };

  beforeEach(() => {
    const file = join(dir, `s${++files}.sqlite`);
    db = openDatabase(file, { busyTimeoutMs: 5000 });
    db.exec('CREATE TABLE t (id TEXT PRIMARY KEY)');
    other = new Database(file, { timeout: 5000 });
  });
  afterEach(() => {
    if (other.inTransaction) other.exec('ROLLBACK');
    other.close();
    db.close();
  });

  it('waits for the lock without blocking: reads are answered meanwhile, and the write lands once the lock is free', async () => {
    open(5000);
    other.exec("BEGIN IMMEDIATE; INSERT INTO t (id) VALUES ('theirs')");
    let written = false;
    const write = turns.transaction(() => repo.insert('mine')).then(() => (written = true));
    // The event loop runs: timers fire, and a read through the same store is answered while the write waits.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await repo.ids()).toEqual([]);
    expect(written).toBe(false);
    other.exec('COMMIT');
    await write;
    expect(await repo.ids()).toEqual(['mine', 'theirs']);
    // The connection's own busy timeout is as it was (used by writes outside a transaction).
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
  });

  it('gives up with SQLITE_BUSY after the busy timeout; nothing of it lands, and the next write goes through', async () => {
    open(200);
    other.exec("BEGIN IMMEDIATE; INSERT INTO t (id) VALUES ('theirs')");
    const error = await turns.transaction(() => repo.insert('mine')).catch((caught: unknown) => caught);
    expect(isBusyError(error)).toBe(true);
    other.exec('COMMIT');
    await turns.transaction(() => repo.insert('after'));
    expect(await repo.ids()).toEqual(['after', 'theirs']);
  });
});
