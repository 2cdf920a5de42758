// What differs on PostgreSQL: a pool shared by many server processes, writes ordered by an advisory
// lock (seq.ts), search ranked like FTS5 in SQL (search.ts), NUL escaped (nul.ts), and the live
// stream and rate limits shared across processes (change-feed.ts, limit-backend.ts), and reads on a
// streaming replica with READ_DATABASE_URL (replica.ts).
//
// The PostgreSQL store: the Store interface (store/types.ts) on a connection pool,
// chosen by DATABASE_URL (sync-server/src/backend.ts). docs/POSTGRES.md explains the design.
//
// Transactions: a top-level `transaction(fn)` waits for this process's earlier ones, takes a
// pooled client, BEGINs, takes the seq lock at once (store/pg/seq.ts) and reads the seq counter, all in
// one round trip, and counts its change numbers on from it in memory, written back with its COMMIT (the
// lock is held for the transaction's round trips, so each one less is more writes a second); so
// write transactions run one at a time, as on SQLite: a rule
// read and then written inside one (one vote per user, a maintained counter) holds, and commit
// order is seq order. Every store call made while fn runs (AsyncLocalStorage follows its awaits)
// goes to that client; a nested call is a SAVEPOINT. Calls outside a transaction use the pool
// and see committed rows only; they never wait for a writer.
//
// Waiting is bounded by busyTimeoutMs (DB_BUSY_TIMEOUT_MS), as SQLite's busy timeout bounds it:
// a write transaction sets lock_timeout (SET LOCAL, so it holds behind a transaction-mode pooler
// too) before it waits for the seq lock. A request waiting for a pooled connection waits behind
// this process's own requests (as SQLite's in-process queue, which has no bound: a burst is
// served, not refused); with lock_timeout no connection stays taken for long, so the pool's own
// limit (connectTimeoutMs) is only a net for a connection that cannot be made or is stuck. Either
// way the error is a "busy" one (store/busy.ts), answered 503 + Retry-After.
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import { buildRepositories } from '../repositories.js';
import type { Store } from '../types.js';
import { busyError } from '../busy.js';
import { checkOut } from './checkout.js';
import { migratePg } from './migrate.js';
import { decodeRow, encodeParams } from './nul.js';
import type { PgQueries } from './queries.js';
import { SEQ_LOCK_KEY } from './seq.js';
import { createPgVersionClock } from './kept-versions.js';
import { REPLICA_LAG_HELP, REPLICA_LAG_METRIC } from './replica-lag.js';
import { createReadReplica, INSERT_LSN_SQL, recordEnd, type ReadReplica } from './replica.js';
import { logger } from '../../observe/logger.js';
import { gaugeOnScrape } from '../../observe/metrics.js';

export interface PgStoreOptions {
  connectionString: string;
  /** Pooled connections for queries (default 10). */
  max?: number;
  /**
   * How long a write waits for a lock (the seq lock another writer or an outside session holds,
   * a table an operator LOCKed) or for a free pooled connection before failing busy (default 5000,
   * DB_BUSY_TIMEOUT_MS).
   */
  busyTimeoutMs?: number;
  /** How long a query waits for a pooled connection (or for a new one to be made) before failing busy (default 30,000). */
  connectTimeoutMs?: number;
  /** Statements with parameters as named prepared statements (default true; PG_PREPARED_STATEMENTS=off). */
  preparedStatements?: boolean;
  /** How the kept versions are re-read (kept-versions.ts; tests set the clock). */
  keptVersions?: { recheckMs?: number; now?: () => number };
  /**
   * READ_DATABASE_URL: a streaming replica of this database for the reads of GET requests and
   * sync pulls (replica.ts; docs/POSTGRES.md "Read replicas"). Unset: every statement goes here.
   */
  readConnectionString?: string;
  /** READ_REPLICA_MAX_LAG_SECONDS: past this lag every read goes to the primary (default 30). */
  replicaMaxLagSeconds?: number;
  /** How often the replica's lag is measured (ms, default 250). */
  replicaPollMs?: number;
  log?: (message: string, error?: unknown) => void;
}

export interface PgStore extends Store {
  /** The pool, for what shares the database but not the store (tests, the copy tool). */
  readonly pool: pg.Pool;
}

/** A read that may go to a replica: a plain SELECT (or WITH) that writes nothing and locks nothing. */
const WRITES =
  /\b(?:INSERT|UPDATE|DELETE|MERGE|TRUNCATE|nextval|setval|crux_next_seq|pg_advisory\w*|set_config)\b|\bFOR\s+(?:NO\s+KEY\s+)?(?:UPDATE|SHARE|KEY\s+SHARE)\b/i;
export const isPlainRead = (text: string) => /^\s*(?:SELECT|WITH)\b/i.test(text) && !WRITES.test(text);

/** Errors of the statement itself (bad data, a constraint, SQL): the primary would answer the same. */
const STATEMENT_ERROR = /^(?:22|23|42)/;

interface Transaction {
  client: pg.PoolClient;
  open: boolean;
  /** crux_meta's seq as the transaction read it under the seq lock, and the last number it handed out. */
  seq: { read: number; last: number };
  savepoints: number;
  /** Run after the COMMIT (store.afterCommit). */
  committed: Array<() => void>;
}

// int8 (count(*), seq, pk) and numeric as JS numbers: the rows keep the SQLite store's shapes.
// Per pool, not global: other pg users in the process are not affected.
const INT8 = 20;
const NUMERIC = 1700;
export const numberTypes = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8 || oid === NUMERIC
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/** DB_BUSY_TIMEOUT_MS's default, as on SQLite (store/sqlite/connection.ts). */
export const DEFAULT_PG_BUSY_TIMEOUT_MS = 5000;
/** The pool's net: never wait for a connection forever (the database unreachable, a connection stuck). */
export const DEFAULT_PG_CONNECT_TIMEOUT_MS = 30_000;

/** At most this many distinct statements are prepared by name (SQL built per call beyond them runs unnamed). */
const MAX_NAMED_STATEMENTS = 1000;

/**
 * A star expansion (`SELECT *`, `RETURNING t.*`): its columns are the table's, so a migration that adds
 * one (while the previous release still runs, docs/OPERATIONS.md) changes the result of a statement
 * prepared before it, which PostgreSQL then refuses ("cached plan must not change result type").
 */
const STAR_EXPANSION = /(?:\bSELECT|\bRETURNING|,)\s*(?:\w+\.)?\*/i;

/**
 * A statement with parameters as a named prepared statement: each connection parses it once, and
 * PostgreSQL plans it once it has seen it a few times (a generic plan), instead of parsing and
 * planning it on every call. A write holds the seq lock for all of its statements, so their parse and
 * plan were most of a reply's time on PostgreSQL (docs/BENCHMARKS.md, 1 December 2026). Never for a
 * star expansion (above). Off (PG_PREPARED_STATEMENTS=off): every statement unnamed, for a pooler that
 * cannot keep prepared statements (PgBouncer in transaction mode before 1.21, or without
 * max_prepared_statements).
 */
function preparedStatements(on: boolean) {
  const names = new Map<string, string>();
  return (text: string, values: unknown[] | undefined): pg.QueryConfig => {
    if (!on || !values || values.length === 0) return { text, values };
    let name = names.get(text);
    if (name === undefined && names.size < MAX_NAMED_STATEMENTS && !STAR_EXPANSION.test(text))
      names.set(text, (name = `crux_${names.size + 1}`));
    return name === undefined ? { text, values } : { name, text, values };
  };
}

export async function createPgStore(options: PgStoreOptions): Promise<PgStore> {
  const requested = options.busyTimeoutMs ?? DEFAULT_PG_BUSY_TIMEOUT_MS;
  // 0 means "do not wait" on SQLite but "wait forever" to PostgreSQL and pg-pool: at least 1 ms.
  const busyTimeoutMs = Number.isFinite(requested) && requested >= 0 ? Math.max(1, Math.floor(requested)) : DEFAULT_PG_BUSY_TIMEOUT_MS;
  const connectTimeoutMs = Math.max(1, options.connectTimeoutMs ?? DEFAULT_PG_CONNECT_TIMEOUT_MS);
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    types: numberTypes,
    connectionTimeoutMillis: connectTimeoutMs,
  });
  // An idle client whose connection dies must not take the process down.
  pool.on('error', (error) => logger.error({ err: error }, 'PostgreSQL: an idle connection failed'));
  // Connections in use and requests waiting for one: a pool too small, or queries too slow (docs/OPERATIONS.md "Alerts").
  gaugeOnScrape(
    'crux_pg_pool_connections',
    'PostgreSQL query connections of this process, by state: in_use, idle, waiting (requests waiting for a free one).',
    () => ({ in_use: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    'state',
  );
  await migratePg(pool);

  const replica: ReadReplica | undefined = options.readConnectionString
    ? createReadReplica(pool, {
        connectionString: options.readConnectionString,
        max: options.max ?? 10,
        poolConfig: { types: numberTypes, connectionTimeoutMillis: Math.max(1, options.connectTimeoutMs ?? DEFAULT_PG_CONNECT_TIMEOUT_MS) },
        ...(options.replicaMaxLagSeconds !== undefined ? { maxLagSeconds: options.replicaMaxLagSeconds } : {}),
        ...(options.replicaPollMs !== undefined ? { pollMs: options.replicaPollMs } : {}),
        log: options.log ?? ((message: string, err?: unknown) => logger.warn({ err }, message)),
      })
    : undefined;
  // READ_DATABASE_URL: the replica's lag in the process's /metrics (docs/OPERATIONS.md "Read replicas").
  if (replica) gaugeOnScrape(REPLICA_LAG_METRIC, REPLICA_LAG_HELP, () => replica.lagSeconds() ?? 0);
  /** The primary's WAL position now (after a commit: at or past it). */
  const lsnNow = (client: pg.Pool | pg.PoolClient) => async () =>
    recordEnd((await client.query<{ lsn: number; block: number; segment: number }>(INSERT_LSN_SQL)).rows[0]!);

  const current = new AsyncLocalStorage<Transaction>();
  const inTransaction = () => {
    const tx = current.getStore();
    return tx?.open ? tx : undefined;
  };
  const named = preparedStatements(options.preparedStatements ?? true);
  // Text is escaped on the way in and out (nul.ts): PostgreSQL cannot store U+0000.
  const run = (text: string, params?: readonly unknown[]) => {
    const query = named(text, encodeParams(params));
    const tx = inTransaction();
    if (tx) return tx.client.query(query);
    return replica ? routed(replica, text, query) : pool.query(query);
  };
  /** Outside a transaction, with a read replica: a plain read goes there when its request may (replica.ts). */
  async function routed(replica: ReadReplica, text: string, query: pg.QueryConfig) {
    if (!isPlainRead(text)) {
      const result = await pool.query(query);
      await replica.wrote(lsnNow(pool));
      return result;
    }
    if (replica.readsOnReplica()) {
      try {
        return await replica.pool.query(query);
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (typeof code === 'string' && STATEMENT_ERROR.test(code)) throw error;
        // The replica went away, or cancelled the read for a conflict with recovery: the primary answers.
        replica.toPrimary();
      }
    }
    return pool.query(query);
  }
  const q: PgQueries = {
    rows: async <T>(text: string, params?: readonly unknown[]) => (await run(text, params)).rows.map((row) => decodeRow(row as T)),
    row: async <T>(text: string, params?: readonly unknown[]) => {
      const row = (await run(text, params)).rows[0] as T | undefined;
      return row === undefined ? undefined : decodeRow(row);
    },
    run: async (text: string, params?: readonly unknown[]) => (await run(text, params)).rowCount ?? 0,
    inTransaction: () => inTransaction() !== undefined,
  };

  async function nested<T>(tx: Transaction, fn: () => Promise<T>): Promise<T> {
    const name = `crux_${++tx.savepoints}`;
    const callbacks = tx.committed.length;
    await tx.client.query(`SAVEPOINT ${name}`);
    try {
      const result = await fn();
      await tx.client.query(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (error) {
      await tx.client.query(`ROLLBACK TO SAVEPOINT ${name}`);
      await tx.client.query(`RELEASE SAVEPOINT ${name}`);
      tx.committed.length = callbacks;
      throw error;
    }
  }

  // This process's write transactions queue here and go to the seq lock one at a time. The lock's
  // wait (lock_timeout) is then at most the other processes' one writer each, never this process's
  // own burst: 200 replies at once from one process no longer time each other out (503) while the
  // pool's connections all stand in the lock's queue.
  // A turn that does not come within the pool's limit (a transaction stuck ahead) fails busy, as a
  // connection that does not come free would.
  let writerTail: Promise<unknown> = Promise.resolve();
  function transaction<T>(fn: () => Promise<T>): Promise<T> {
    const outer = inTransaction();
    if (outer) return nested(outer, fn);
    let timedOut = false;
    const previous = writerTail;
    const turn = new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        timedOut = true;
        reject(busyError('Waited too long for the other writes of this process.'));
      }, connectTimeoutMs);
      void previous.then(async () => {
        clearTimeout(timer);
        if (timedOut) return;
        await topLevel(fn).then(resolve, reject);
      });
    });
    writerTail = turn.catch(() => undefined);
    return turn;
  }

  async function topLevel<T>(fn: () => Promise<T>): Promise<T> {
    const { client, release } = await checkOut(pool);
    let broken: Error | undefined;
    let tx: Transaction | undefined;
    try {
      // One round trip (a simple query of several statements; both numbers are the store's own
      // integers): BEGIN; for this transaction only (SET LOCAL) the wait for every lock, the seq lock
      // first; the seq lock; then the seq counter, read by a statement of its own after the lock
      // is held (READ COMMITTED: each statement sees what was committed when it began).
      const began = (await client.query(
        `BEGIN; SET LOCAL lock_timeout = ${busyTimeoutMs}; SELECT pg_advisory_xact_lock(${SEQ_LOCK_KEY}); ` +
          "SELECT value FROM crux_meta WHERE key = 'seq'",
      )) as unknown as pg.QueryResult[];
      const read = Number(began[3]!.rows[0]!.value);
      tx = { client, open: true, savepoints: 0, committed: [], seq: { read, last: read } };
      const result = await current.run(tx, fn);
      // The numbers handed out are written back with the COMMIT, in the same round trip (as SQLite's
      // group writes meta once before its COMMIT). A savepoint rolled back leaves a gap, as there.
      await client.query(tx.seq.last === tx.seq.read ? 'COMMIT' : `UPDATE crux_meta SET value = ${tx.seq.last} WHERE key = 'seq'; COMMIT`);
      tx.open = false;
      // Stamped rows may have moved the kept versions (kept-versions.ts): read them again from now on.
      if (tx.seq.last !== tx.seq.read) versionClock.changed();
      // The caller's next reads wait for the replica to replay this commit (replica.ts).
      if (replica) await replica.wrote(lsnNow(client));
      for (const callback of tx.committed) callback();
      return result;
    } catch (error) {
      // After a failed COMMIT the transaction is rolled back already: this ROLLBACK only warns.
      await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
      throw error;
    } finally {
      if (tx) tx.open = false;
      // A client whose ROLLBACK failed (connection lost) is thrown away, not reused.
      release(broken);
    }
  }

  /** Store.transactionEach: one transaction, each item a savepoint; the items before a throw are committed. */
  async function transactionEach<I, R>(items: readonly I[], fn: (item: I) => Promise<R>): Promise<R[]> {
    const results: R[] = [];
    let failure: { error: unknown } | null = null;
    await transaction(async () => {
      for (const item of items) {
        try {
          results.push(await transaction(() => fn(item)));
        } catch (error) {
          failure = { error };
          return;
        }
      }
    });
    if (failure) throw (failure as { error: unknown }).error;
    return results;
  }

  // listVersion and changeNumber kept in memory between writes (kept-versions.ts). Not with a read
  // replica: a version read there may be behind what a caller who just wrote must see.
  const repos = buildRepositories('pg', q);
  const versionClock = createPgVersionClock(options.keptVersions);
  const inTx = () => inTransaction() !== undefined;
  const listVersion = versionClock.track(repos.topics.listVersion, inTx);
  const changeNumber = versionClock.track(repos.users.changeNumber, inTx);
  const kept = replica
    ? {}
    : {
        versions: { listVersionNow: listVersion.now, changeNumberNow: changeNumber.now, changedElsewhere: versionClock.changed },
        topics: { ...repos.topics, listVersion: listVersion.read },
        users: { ...repos.users, changeNumber: changeNumber.read },
      };
  return {
    pool,
    async nextSeq() {
      const tx = inTransaction();
      if (!tx) throw new Error('nextSeq() outside a transaction');
      // The seq lock is held from BEGIN to COMMIT: nobody else stamps meanwhile (crux_next_seq()
      // waits for the same lock), so the numbers are counted here, not asked of the database.
      return ++tx.seq.last;
    },
    transaction,
    transactionEach,
    afterCommit(fn) {
      const tx = inTransaction();
      if (tx) tx.committed.push(fn);
      else fn();
    },
    isEmpty: async () => (await q.row('SELECT 1 AS one FROM topics LIMIT 1')) === undefined,
    ...repos,
    ...kept,
    ...(replica ? { requests: replica, replicaCaughtUp: () => replica.caughtUp() } : {}),
    replicaLagSeconds: () => (replica ? replica.lagSeconds() : null),
    async close() {
      await replica?.close();
      await pool.end();
    },
  };
}
