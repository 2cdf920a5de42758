// The storage boundary (docs/ARCHITECTURE.md "The server"), spelled out: every operation the domain,
// the routes, replication, main.ts and the demo seed use, and nothing else: the Store's
// transactions here, its repositories beside their rows (rows.ts). No handle to the engine
// leaks out, so another engine can stand behind the same methods; tests/store-contract/
// checks an implementation against it.
//
// Conventions every implementation keeps:
// - `seq` is a number from `nextSeq()`, strictly increasing, stamped on every write
//   that replication must see; `changesSince` pages are ordered by (seq, id) and
//   start strictly after the checkpoint.
// - Deletes are tombstones (`deleted = 1` with a fresh seq), so they replicate.
// - `viewer` (a uid or null) only fills `user_has_upvoted` and `user_has_downvoted`.
// - Writes happen inside `transaction`; a throw rolls every write of it back.
import type { Repositories } from './rows.js';

/** The versions of the kept pages without a promise (http/fast-reads.ts answers from them at once). */
export interface KeptVersions {
  /** topics.listVersion() when known without waiting for the connection; undefined when it must be awaited. */
  listVersionNow(): number | undefined;
  /** users.changeNumber() the same way. */
  changeNumberNow(): number | undefined;
  /** Another server process on the file wrote (its change feed message arrived): read the versions again before trusting them. */
  changedElsewhere(): void;
}

/** The engine's transactions and lifecycle, with every repository of `Repositories` (rows.ts). */
export interface Store extends Repositories {
  /** A fresh change number, greater than every one before; call only inside `transaction`. */
  nextSeq(): Promise<number>;
  /**
   * Runs `fn` as one transaction: all its writes or, when it throws, none (nested calls nest as
   * savepoints). Every store call made while `fn` runs (followed through its awaits) belongs to
   * the transaction; write transactions run one at a time, like SQLite's single writer, so a rule
   * read and then written inside one (one vote per user, a maintained counter) holds on any engine.
   * Keep network calls out of `fn`: the next writer waits for it.
   */
  transaction<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * Runs `fn` on each item in order, each as a transaction of its own (a throw rolls that item's
   * writes back), committed together where the engine can: a sync push's rows. At the first item
   * that throws it stops: the items before it are committed, the ones after it never run, and the
   * error is thrown. Answers what `fn` answered, per item.
   * SQLite: each item is a top-level transaction, all queued at once so that they share one group
   * COMMIT (transactions.ts). Not one transaction with a savepoint per item: SQLite keeps an open
   * savepoint's undo pages in an in-memory list of 1 KiB chunks that each later statement walks
   * from its start, so the cost of a statement grew with every row before it (a third of
   * a 50-row push's CPU). PostgreSQL: one transaction, each item a savepoint.
   */
  transactionEach<I, R>(items: readonly I[], fn: (item: I) => Promise<R>): Promise<R[]>;
  /**
   * Runs `fn` once the current transaction, the outermost, has committed (at once outside one;
   * never when it rolls back, nor when the savepoint around the call does). What others may see
   * of a write (the live stream's change feed) is told only then: a nested operation's own
   * transaction (a sync push's row) is not yet visible when it returns.
   */
  afterCommit(fn: () => void): void;
  /** Whether nothing was ever posted (no topic, live or deleted): main.ts seeds the demo then. */
  isEmpty(): Promise<boolean>;
  /**
   * The versions the kept pages hang on, known without reading the database (store/sqlite/kept-versions.ts,
   * store/pg/kept-versions.ts). Absent on PostgreSQL with a read replica, where each is read per request.
   */
  versions?: KeptVersions;
  /**
   * PostgreSQL with READ_DATABASE_URL only (store/pg/replica.ts): marks each request so that its
   * reads may go to the read replica (app.ts says which requests may); without it, one database.
   */
  requests?: RequestReads;
  /** Resolves once the read replica has replayed every commit made before the call (at once without one, or while reads do not use it). */
  replicaCaughtUp?(): Promise<void>;
  /** How many seconds the read replica is behind the primary (0: caught up); null without one (for the metrics). */
  replicaLagSeconds?(): number | null;
  close(): Promise<void>;
}

/** Which database a request reads (a store with a read replica: store/pg/replica.ts). */
export interface RequestReads {
  /** Runs a request (fn) in a scope of its own; its reads go to the primary until allowReplica(). */
  scope<T>(fn: () => Promise<T>): Promise<T>;
  /** The request's caller, once authenticated: their reads wait for the replica to replay their own writes. */
  setCaller(uid: string | null): void;
  /** From here the request's reads may go to the replica (a GET, a sync pull), until it writes. */
  allowReplica(): void;
}

/**
 * The right to write the SQLite file, passed between the server processes of SERVER_PROCESSES by
 * their primary (cluster/write-token.ts; store/sqlite/transactions.ts holds it for a group commit).
 */
export interface WriteToken {
  /** Resolves once this process holds it. */
  acquire(): Promise<void>;
  /** Passes it on (to the next process waiting for it). */
  release(): void;
  /** `listener` runs when another process asks for it while this one holds it. */
  onWanted(listener: () => void): void;
}
