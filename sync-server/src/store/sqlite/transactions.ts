// Async transactions over the one SQLite connection (the Store interface is
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
//
// Group commit: a COMMIT writes every page the transaction dirtied to the WAL, and
// successive creates dirty mostly the same pages (the tables' and indexes' last leaves, the
// topic's row, meta's seq). So a finished top-level transaction does not commit at once: the
// write transaction stays open until the event loop has run the I/O callbacks that were ready
// with it (setImmediate), and the top-level transactions that start meanwhile run inside it,
// each as a SAVEPOINT. Then one COMMIT covers them all. Each caller is answered, and its
// afterCommit callbacks run, only after that COMMIT: nobody is told of a write before it is
// committed, and a COMMIT that fails fails every caller in the group. A member that throws is
// rolled back to its savepoint alone. A call from outside (a read) never sees a group's
// uncommitted rows: it commits the group first.
//
// Change numbers (the write budgets): every row a write stamps takes meta's next `seq`
// (docs/SYNC.md), five or more per create, and each was an UPDATE of meta's row in the member's
// savepoint. Inside an open group the write lock is this connection's for the whole group, so
// `nextSeq` reads meta's value once and counts on in memory; the group's last number is written
// back by one UPDATE just before its COMMIT (in the same write transaction, so no other connection
// or process sees numbers that meta does not hold). A member rolled back leaves a gap, as before; a
// group rolled back whole hands its numbers out again. Outside a group it is the one UPDATE.
//
// Several server processes on one file (SERVER_PROCESSES, cluster/primary.ts) take SQLite's write
// lock in turn. Waiting for it inside BEGIN IMMEDIATE (busy_timeout) would stop this process's
// event loop for as long as another process holds it, reads and all. With `sharedFile`, a process
// first holds the servers' write token (`writeToken`, handed out by the primary first come, first
// served): it keeps it while no other process asks, and gives it back at the end of the group it
// has open when one does, so processes writing at once take turns group by group. Then BEGIN
// IMMEDIATE is tried without waiting; while something else holds the lock (an operator's command,
// a backup tool) this process gives its turn back (reads go on) and tries again a millisecond or a
// few later. Either wait ends after the busy timeout (SQLITE_BUSY, answered 503: store/busy.ts).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RunResult, Statement } from 'better-sqlite3';
import type { Db } from './connection.js';
import { metrics } from '../../observe/metrics.js';
import type { WriteToken } from '../types.js';

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

/** A finished top-level transaction waiting for its group's COMMIT. */
interface Member {
  committed: Array<() => void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** The open write transaction (BEGIN IMMEDIATE) and its finished members. */
interface Group {
  members: Member[];
  /** The event loop has moved on since the group began: commit as soon as the turn is free. */
  due: boolean;
}

/** At most this many top-level transactions share one COMMIT. */
export const MAX_GROUP = 64;

export interface SqliteTransactions {
  transaction<T>(fn: () => Promise<T>): Promise<T>;
  /** The next change number (meta's `seq`; see "Change numbers" above). Synchronous: a repo method, wrapped by the store. */
  nextSeq(): number;
  /** Store.transactionEach: each item a top-level transaction, all queued at once (one group COMMIT). */
  transactionEach<I, R>(items: readonly I[], fn: (item: I) => Promise<R>): Promise<R[]>;
  afterCommit(fn: () => void): void;
  /** Whether the caller runs inside an open transaction. */
  inTransaction(): boolean;
  /** The repo's methods, each run in turn (see above) and answering a promise. */
  wrap<T extends object>(repo: T): Promisified<T>;
  /**
   * Runs `fn` (a read) at once when no transaction holds the turn, after committing an open group
   * as any outside read does; undefined (not run) while one holds it. The kept versions read
   * this way without a promise (kept-versions.ts).
   */
  readNow<R>(fn: () => R): R | undefined;
}

// The real setImmediate, kept before a test's fake timers could replace it: a group must commit.
const later = globalThis.setImmediate;
const pause = globalThis.setTimeout;

export interface TransactionOptions {
  /** Other processes write the file too: wait for the write lock without blocking (above), at most `busyTimeoutMs`. */
  sharedFile?: { busyTimeoutMs: number; writeToken?: WriteToken };
}

const isBusy = (error: unknown) =>
  typeof (error as { code?: unknown })?.code === 'string' && (error as { code: string }).code.startsWith('SQLITE_BUSY');

export function createSqliteTransactions(db: Db, options: TransactionOptions = {}): SqliteTransactions {
  const current = new AsyncLocalStorage<Transaction>();
  /** Who waits for the turn; `write` marks a top-level transaction (it may join the open group). */
  const waiting: Array<{ write: boolean; go: () => void }> = [];
  let busy = false;
  let group: Group | null = null;
  /** The open group's change numbers: the last one handed out, and whether meta holds it yet. */
  let seq: { last: number; written: boolean } | null = null;
  // Prepared on first use: a connection without Crux's schema (the group commit's own tests) never stamps.
  let seqStatements: { read: Statement<[], { value: number }>; write: Statement<[number]>; bump: Statement<[], { value: number }> } | null =
    null;
  const seqSql = () =>
    (seqStatements ??= {
      read: db.prepare("SELECT value FROM meta WHERE key = 'seq'"),
      write: db.prepare("UPDATE meta SET value = ? WHERE key = 'seq'"),
      bump: db.prepare("UPDATE meta SET value = value + 1 WHERE key = 'seq' RETURNING value"),
    });
  const nextSeq = (): number => {
    if (!group) return seqSql().bump.get()!.value;
    seq ??= { last: seqSql().read.get()!.value, written: true };
    seq.last++;
    seq.written = false;
    return seq.last;
  };
  /** Writes the group's last change number into meta, inside its write transaction (before COMMIT). */
  const writeSeq = () => {
    if (seq && !seq.written) seqSql().write.run(seq.last);
    seq = null;
  };

  // The write token (sharedFile with several processes): held, being asked for, wanted by another process.
  const token = options.sharedFile?.writeToken;
  let held = false;
  let acquiring: Promise<void> | null = null;
  let wanted = false;
  const releaseToken = () => {
    if (!held) return;
    held = false;
    wanted = false;
    token!.release();
  };
  /** A group has committed or rolled back: the token goes to whoever asked meanwhile. */
  const groupEnded = () => {
    if (wanted) releaseToken();
  };
  token?.onWanted(() => {
    wanted = true;
    // Not in the middle of anything (a turn taken is about to write, or reading): passed on now; else when the turn is free.
    if (!group && !busy) releaseToken();
  });
  /** Transactions waiting for the token (not counting those that gave up at the busy timeout). */
  let waitingForToken = 0;
  const holdToken = (): Promise<void> => {
    acquiring ??= token!.acquire().then(() => {
      held = true;
      acquiring = null;
      // Everyone who asked gave up meanwhile, and another process wants it: passed straight on.
      if (wanted && waitingForToken === 0 && !group) releaseToken();
    });
    return acquiring;
  };

  /** Commits the open group and answers its members (each after its afterCommit callbacks). */
  const commit = () => {
    const g = group;
    if (!g) return;
    group = null;
    metrics.groupCommitSize.observe(g.members.length);
    try {
      writeSeq();
      db.exec('COMMIT');
    } catch (error) {
      rollback();
      groupEnded();
      for (const member of g.members) member.reject(error);
      return;
    }
    groupEnded();
    for (const member of g.members) {
      try {
        for (const callback of member.committed) callback();
        member.resolve();
      } catch (error) {
        member.reject(error);
      }
    }
  };
  const rollback = () => {
    // The numbers handed out in a group rolled back were never committed: meta's value stands.
    seq = null;
    try {
      if (db.inTransaction) db.exec('ROLLBACK');
    } catch {
      // nothing left to undo
    }
  };
  /** The open write transaction is rolled back whole (SQLite does so itself on some errors): its members landed nothing. */
  const lose = (error: unknown) => {
    const g = group;
    group = null;
    rollback();
    groupEnded();
    for (const member of g?.members ?? []) member.reject(error);
  };

  const takeTurn = (write: boolean): Promise<void> | undefined => {
    if (!busy) {
      busy = true;
      // Outside work never sees a group's uncommitted rows.
      if (!write || group?.due || (group && group.members.length >= MAX_GROUP)) commit();
      return undefined;
    }
    return new Promise<void>((resolve) => waiting.push({ write, go: resolve }));
  };
  const giveTurn = () => {
    const next = waiting.shift();
    if (group && (!next || !next.write || group.due || group.members.length >= MAX_GROUP)) {
      if (next || group.due) commit();
    }
    if (next) next.go();
    else {
      busy = false;
      if (wanted && !group) releaseToken();
    }
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

  const shared = options.sharedFile && {
    busyTimeoutMs:
      Number.isFinite(options.sharedFile.busyTimeoutMs) && options.sharedFile.busyTimeoutMs >= 0
        ? Math.floor(options.sharedFile.busyTimeoutMs)
        : 5000,
  };
  /** BEGIN IMMEDIATE without waiting: false while another process holds the write lock. */
  const tryBegin = (busyTimeoutMs: number): boolean => {
    db.pragma('busy_timeout = 0');
    try {
      db.exec('BEGIN IMMEDIATE');
      return true;
    } catch (error) {
      if (isBusy(error)) return false;
      throw error;
    } finally {
      db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    }
  };
  const busyError = () =>
    Object.assign(new Error('database is locked (another server process held the write lock)'), { code: 'SQLITE_BUSY' });
  /** The token, or SQLITE_BUSY once `deadline` has passed (a grant that comes later is kept, and passed on when asked for). */
  async function tokenBy(deadline: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => (timer = pause(() => reject(busyError()), Math.max(0, deadline - Date.now()))));
    waitingForToken++;
    try {
      await Promise.race([holdToken(), late]);
    } finally {
      waitingForToken--;
      clearTimeout(timer);
    }
  }
  /** The turn, with either the open group to join or (true) a write transaction just begun (sharedFile only). */
  async function writeTurn(): Promise<boolean> {
    if (!shared) {
      await takeTurn(true);
      return false;
    }
    const deadline = Date.now() + shared.busyTimeoutMs;
    for (let attempt = 1; ; attempt++) {
      // The token first, without the turn: this process's reads go on meanwhile.
      if (token && !held && !group) await tokenBy(deadline);
      await takeTurn(true);
      if (group) return false;
      if (token && !held) {
        // Passed on while this waited for the turn (another process asked): ask again.
        giveTurn();
        continue;
      }
      let begun: boolean;
      try {
        begun = tryBegin(shared.busyTimeoutMs);
      } catch (error) {
        giveTurn();
        throw error;
      }
      if (begun) return true;
      giveTurn();
      if (Date.now() >= deadline) {
        groupEnded();
        throw busyError();
      }
      await new Promise((resolve) => pause(resolve, Math.min(attempt, 5)));
    }
  }

  async function transaction<T>(fn: () => Promise<T>): Promise<T> {
    const outer = current.getStore();
    if (outer?.open) return nested(outer, fn);
    const begun = await writeTurn();
    let result: T;
    let committed: Promise<void>;
    try {
      if (!group) {
        // IMMEDIATE: the write lock is taken (waiting up to busy_timeout for another process)
        // before the first read; a deferred transaction that reads and then writes while
        // another connection holds the lock fails at once with SQLITE_BUSY.
        if (!begun) db.exec('BEGIN IMMEDIATE');
        const g: Group = { members: [], due: false };
        group = g;
        later(() => {
          g.due = true;
          if (group === g && !busy) commit();
        });
      }
      const g = group;
      const name = `crux_member_${g.members.length}`;
      db.exec(`SAVEPOINT ${name}`);
      const tx: Transaction = { open: true, savepoints: 0, committed: [] };
      try {
        result = await current.run(tx, fn);
        db.exec(`RELEASE ${name}`);
      } catch (error) {
        try {
          if (!db.inTransaction) throw error;
          db.exec(`ROLLBACK TO ${name}`);
          db.exec(`RELEASE ${name}`);
        } catch {
          lose(error);
        }
        throw error;
      } finally {
        // Work the callback left behind (a timer, an unawaited call) runs as outside work.
        tx.open = false;
      }
      committed = new Promise<void>((resolve, reject) => g.members.push({ committed: tx.committed, resolve, reject }));
    } finally {
      giveTurn();
    }
    await committed;
    return result;
  }

  /**
   * The items' transactions are all started now, so they queue one after another for the turn
   * (takeTurn is FIFO) and join one group, MAX_GROUP at a time; each item's savepoint is its
   * member's, the outermost, so SQLite drops its undo pages when the item is done (types.ts).
   * Inside an open transaction they are its savepoints instead, one after another.
   */
  async function transactionEach<I, R>(items: readonly I[], fn: (item: I) => Promise<R>): Promise<R[]> {
    if (inTransaction()) {
      // Savepoints open and close one at a time: the items run in turn.
      const results: R[] = [];
      for (const item of items) results.push(await transaction(() => fn(item)));
      return results;
    }
    let failed = false;
    const settled = await Promise.allSettled(
      items.map((item) =>
        transaction(async () => {
          // An item after one that threw does nothing (its empty savepoint is released).
          if (failed) return undefined;
          try {
            return { value: await fn(item) };
          } catch (error) {
            failed = true;
            throw error;
          }
        }),
      ),
    );
    const results: R[] = [];
    for (const outcome of settled) {
      if (outcome.status === 'rejected') throw outcome.reason;
      if (outcome.value) results.push(outcome.value.value);
    }
    return results;
  }

  function inTurn<A extends unknown[], R>(method: (...args: A) => R): (...args: A) => Promise<Awaited<R>> {
    return async (...args: A): Promise<Awaited<R>> => {
      if (inTransaction()) return await method(...args);
      if (busy) {
        await takeTurn(false);
        try {
          return await method(...args);
        } finally {
          giveTurn();
        }
      }
      // No turn taken, none needed; but a group's rows are committed before anyone outside reads.
      commit();
      return await method(...args);
    };
  }

  function readNow<R>(fn: () => R): R | undefined {
    if (busy) return undefined;
    commit();
    return fn();
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

  return { transaction, nextSeq, transactionEach, afterCommit, inTransaction, wrap, readNow };
}
