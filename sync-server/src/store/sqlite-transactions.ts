// Async transactions over the one SQLite connection (issue 14 made the Store interface
// async so that PostgreSQL can stand behind it). better-sqlite3 is synchronous, but a
// transaction's callback now awaits between its statements, and while it does, other
// requests run. On a single connection they would read the transaction's uncommitted
// rows, or write into it. So the connection takes turns:
// - a top-level transaction waits for its turn, then BEGIN IMMEDIATE … COMMIT (ROLLBACK
//   when the callback throws) and gives the turn on;
// - a call made inside it (found through AsyncLocalStorage: the callback's awaits carry
//   it) runs at once, and a nested transaction is a SAVEPOINT;
// - a call from outside runs at once when no transaction is open (the usual case: a
//   read costs no more than before), else waits for its turn like a transaction.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RunResult } from 'better-sqlite3';
import type { Db } from './connection.js';

/** A repo with each method answering a promise: what the Store interface wants of the sync repos. */
export type Promisified<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Resolved<R>> : T[K];
};
/** A statement's RunResult is nobody's business outside the repo: the interface says void. */
type Resolved<R> = Awaited<R> extends RunResult ? void : Awaited<R>;

/** The synchronous twin of an async repo interface, for a SQLite repo to implement. */
export type Synchronous<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => R : T[K];
};

interface Transaction {
  open: boolean;
  savepoints: number;
  /** Run after the outermost COMMIT (store.afterCommit). */
  committed: Array<() => void>;
}

export interface SqliteTransactions {
  transaction<T>(fn: () => Promise<T>): Promise<T>;
  afterCommit(fn: () => void): void;
  /** Whether the caller runs inside an open transaction. */
  inTransaction(): boolean;
  /** The repo's methods, each run in turn (see above) and answering a promise. */
  wrap<T extends object>(repo: T): Promisified<T>;
}

export function createSqliteTransactions(db: Db): SqliteTransactions {
  const current = new AsyncLocalStorage<Transaction>();
  const waiting: Array<() => void> = [];
  let busy = false;

  const takeTurn = (): Promise<void> | undefined => {
    if (!busy) {
      busy = true;
      return undefined;
    }
    return new Promise<void>((resolve) => waiting.push(resolve));
  };
  const giveTurn = () => {
    const next = waiting.shift();
    if (next) next();
    else busy = false;
  };
  const inTransaction = () => current.getStore()?.open === true;

  async function nested<T>(tx: Transaction, fn: () => Promise<T>): Promise<T> {
    const name = `crux_${++tx.savepoints}`;
    const callbacks = tx.committed.length;
    db.exec(`SAVEPOINT ${name}`);
    try {
      const result = await fn();
      db.exec(`RELEASE ${name}`);
      return result;
    } catch (error) {
      db.exec(`ROLLBACK TO ${name}`);
      db.exec(`RELEASE ${name}`);
      tx.committed.length = callbacks;
      throw error;
    }
  }

  async function transaction<T>(fn: () => Promise<T>): Promise<T> {
    const outer = current.getStore();
    if (outer?.open) return nested(outer, fn);
    await takeTurn();
    try {
      // IMMEDIATE: the write lock is taken (waiting up to busy_timeout for another process)
      // before the first read; a deferred transaction that reads and then writes while
      // another connection holds the lock fails at once with SQLITE_BUSY.
      db.exec('BEGIN IMMEDIATE');
      const tx: Transaction = { open: true, savepoints: 0, committed: [] };
      try {
        const result = await current.run(tx, fn);
        db.exec('COMMIT');
        tx.open = false;
        for (const callback of tx.committed) callback();
        return result;
      } catch (error) {
        if (db.inTransaction) db.exec('ROLLBACK');
        throw error;
      } finally {
        // Work the callback left behind (a timer, an unawaited call) runs as outside work.
        tx.open = false;
      }
    } finally {
      giveTurn();
    }
  }

  function inTurn<A extends unknown[], R>(method: (...args: A) => R): (...args: A) => Promise<Awaited<R>> {
    return async (...args: A): Promise<Awaited<R>> => {
      if (busy && !inTransaction()) {
        await takeTurn();
        try {
          return await method(...args);
        } finally {
          giveTurn();
        }
      }
      return await method(...args);
    };
  }

  function wrap<T extends object>(repo: T): Promisified<T> {
    const wrapped: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(repo)) {
      wrapped[name] = typeof value === 'function' ? inTurn(value as (...args: unknown[]) => unknown) : value;
    }
    return wrapped as Promisified<T>;
  }

  function afterCommit(fn: () => void) {
    const tx = current.getStore();
    if (tx?.open) tx.committed.push(fn);
    else fn();
  }

  return { transaction, afterCommit, inTransaction, wrap };
}
