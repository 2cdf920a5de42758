// SERVER_PROCESSES (sync-server/src/cluster/primary.ts): several processes write one SQLite file,
// each through its own connection. A write that finds another process holding the write lock must
// wait without blocking its event loop (its reads go on meanwhile), take the lock once it is free,
// and give up with SQLITE_BUSY (answered 503: store/busy.ts) after the busy timeout. A second
// connection holding an open write transaction stands for the other process. The server processes
// themselves take turns through the write token the primary hands out (cluster/write-token.ts):
// here two connections in this process, each with its token over a pretend IPC channel to one
// keeper, write at once, and every write lands with no wait for the file's lock.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isBusyError } from '../../sync-server/src/store/busy.js';
import { openDatabase, type Db } from '../../sync-server/src/store/sqlite/connection.js';
import { createSqliteTransactions, type SqliteTransactions } from '../../sync-server/src/store/sqlite/transactions.js';
import type { IpcChannel } from '../../sync-server/src/cluster/ipc-feed.js';
import type { FromWorker, ToWorker } from '../../sync-server/src/cluster/messages.js';
import { createIpcWriteToken, createTokenKeeper } from '../../sync-server/src/cluster/write-token.js';

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

describe('two writers on one file taking turns with the write token', () => {
  it('writes through both at once all land, the token passing between them, and nobody waits for the lock', async () => {
    const file = join(dir, `token${++files}.sqlite`);
    // busy_timeout 0: a BEGIN that found the lock taken would fail at once (and did, without the token).
    const dbs = [openDatabase(file, { busyTimeoutMs: 0 }), openDatabase(file, { busyTimeoutMs: 0 })];
    dbs[0]!.exec('CREATE TABLE t (id TEXT PRIMARY KEY)');
    const listeners: Array<Array<(message: unknown) => void>> = [[], []];
    const grants: number[] = [];
    const keeper = createTokenKeeper((index, message: ToWorker) => {
      if (message.crux === 'token') grants.push(index);
      // Delivered a turn of the event loop later, as over IPC.
      setImmediate(() => listeners[index]!.forEach((listener) => listener(message)));
    });
    const channel = (index: number): IpcChannel => ({
      send(message: FromWorker) {
        setImmediate(() =>
          message.crux === 'want-token' ? keeper.want(index) : message.crux === 'release-token' && keeper.release(index),
        );
      },
      on: (_event, listener) => void listeners[index]!.push(listener),
    });
    const writers = dbs.map((db, index) => {
      const turns = createSqliteTransactions(db, { sharedFile: { busyTimeoutMs: 2000, writeToken: createIpcWriteToken(channel(index)) } });
      const insert = turns.wrap({ insert: (id: string) => void db.prepare('INSERT INTO t (id) VALUES (?)').run(id) }).insert;
      return (id: string) => turns.transaction(() => insert(id));
    });
    try {
      const ids = Array.from({ length: 200 }, (_, n) => `w${n % 2}-${n}`);
      // Four bursts, each a few event-loop turns apart, through both writers at once.
      for (let burst = 0; burst < 4; burst++) {
        await Promise.all(ids.slice(burst * 50, (burst + 1) * 50).map((id, n) => writers[n % 2]!(id)));
      }
      const stored = dbs[1]!
        .prepare<[], { id: string }>('SELECT id FROM t ORDER BY id')
        .all()
        .map((row) => row.id);
      expect(stored).toEqual([...ids].sort());
      // The token went back and forth (each burst needs both), not once to each.
      expect(grants.length).toBeGreaterThanOrEqual(4);
      expect(new Set(grants)).toEqual(new Set([0, 1]));
    } finally {
      for (const db of dbs) db.close();
    }
  });
});
