// Opens the SQLite file with the pragmas Crux relies on and applies migrations.
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Worker } from 'node:worker_threads';
import { migrate } from './migrate.js';

export type Db = Database.Database;

/**
 * How long a write waits for another connection's write lock (another server
 * process on the same file, a backup, an operator's sqlite3 shell) before it
 * gives up with SQLITE_BUSY, which the API answers with 503 + Retry-After.
 * Write transactions start IMMEDIATE (store.ts) so this wait applies to them.
 */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

export interface OpenOptions {
  busyTimeoutMs?: number;
  /**
   * Checkpoint the WAL from a worker thread with its own connection, every this many ms,
   * instead of inside whichever request's COMMIT crosses SQLite's 1,000-page threshold (issue 12:
   * that checkpoint's fsyncs stalled the event loop, and with it every request in flight, for
   * 10–300 ms). The serving connection keeps a high automatic threshold only as a backstop. For
   * the server process; off by default (tests, scripts, `:memory:`).
   */
  checkpointEveryMs?: number;
  /**
   * The connection's page cache in MiB (PRAGMA cache_size; SQLITE_CACHE_MB, config.ts). SQLite's own
   * default is 2 MiB, a few hundred pages of a file that reaches a gigabyte; the cache is filled as
   * pages are read, so a small file never takes more than its size. Default DEFAULT_CACHE_MB.
   */
  cacheMb?: number | undefined;
  /** Read the file through a memory map of this many MiB (PRAGMA mmap_size; SQLITE_MMAP_MB); 0, the default: no map. */
  mmapMb?: number | undefined;
}

/** SQLITE_CACHE_MB's default: see OpenOptions.cacheMb and docs/OPERATIONS.md. */
export const DEFAULT_CACHE_MB = 64;
/** At most this much page cache per connection (each server process has one), whatever SQLITE_CACHE_MB asks. */
export const MAX_CACHE_MB = 4096;

/** How often the server's background checkpointer runs while nothing is written (main.ts; the bench). */
export const DEFAULT_CHECKPOINT_EVERY_MS = 500;
/**
 * How soon it runs again while writes come in. Every 500 ms let the WAL run ahead of the file under a
 * full write load: it reached the backstop about once a second, and the request whose COMMIT crossed
 * it copied thousands of pages on the event loop, the p99 of a reply (issue 28: 121–130 ms at full
 * size). Round after round, the worker has copied nearly every page by then, and the backstop's own
 * checkpoint (which also lets the next write start the WAL over) is short.
 */
export const BUSY_CHECKPOINT_EVERY_MS = 10;
/** Rounds in which nothing moved before the checkpointer slows to DEFAULT_CHECKPOINT_EVERY_MS. */
const QUIET_ROUNDS = 50;

/** The serving connection's own automatic checkpoint once a background checkpointer runs: a backstop only (pages). */
export const BACKSTOP_AUTOCHECKPOINT_PAGES = 20_000;

// The checkpointer: plain JS evaluated in a worker (no TypeScript loader needed there).
const CHECKPOINTER = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file, { timeout: 0 });
let last = '';
let quietRounds = 0;
let timer;
/** One PASSIVE checkpoint; whether the WAL's frame counts moved since the round before (writes came in), or it was busy. */
const checkpoint = () => {
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    const state = result.busy ? 'busy' : result.log + ':' + result.checkpointed;
    const moved = state === 'busy' || state !== last;
    last = state;
    return moved;
  } catch {
    // busy (another connection checkpoints) or closing: soon again
    return true;
  }
};
// Round after round while writes come in, so the WAL is never far ahead of the database file;
// the quiet pace once nothing has moved for QUIET_ROUNDS rounds.
const loop = () => {
  quietRounds = checkpoint() ? 0 : quietRounds + 1;
  timer = setTimeout(loop, quietRounds >= workerData.quietRounds ? workerData.everyMs : workerData.busyMs);
};
timer = setTimeout(loop, workerData.everyMs);
parentPort.on('message', () => {
  clearTimeout(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
`;

function startCheckpointer(db: Db, file: string, everyMs: number) {
  const worker = new Worker(CHECKPOINTER, {
    eval: true,
    workerData: {
      file,
      everyMs,
      busyMs: Math.min(everyMs, BUSY_CHECKPOINT_EVERY_MS),
      quietRounds: QUIET_ROUNDS,
      module: createRequire(import.meta.url).resolve('better-sqlite3'),
    },
  });
  worker.unref();
  // A checkpointer that fails to start or dies leaves SQLite's own (backstop) checkpoint in charge.
  worker.on('error', () => db.open && db.pragma('wal_autocheckpoint = 1000'));
  db.pragma(`wal_autocheckpoint = ${BACKSTOP_AUTOCHECKPOINT_PAGES}`);
  const close = db.close.bind(db);
  db.close = () => {
    worker.postMessage('stop');
    return close();
  };
}

/** A size in whole MiB, at most `max`; `fallback` for a missing, malformed or (below `min`) too small one. */
function sizeMb(requested: number | undefined, fallback: number, max: number, min = 0): number {
  if (requested === undefined || !Number.isFinite(requested) || requested < min) return fallback;
  return Math.min(max, Math.floor(requested));
}

export function openDatabase(file: string, options: OpenOptions = {}): Db {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const requested = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  const busyTimeoutMs = Number.isFinite(requested) && requested >= 0 ? Math.floor(requested) : DEFAULT_BUSY_TIMEOUT_MS;
  const db = new Database(file, { timeout: busyTimeoutMs });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  // The statement journal of a savepoint in memory: the group commit (transactions.ts)
  // keeps up to MAX_GROUP transactions' savepoints in one write transaction, whose journal
  // would otherwise spill to a temporary file past 64 KiB (issue 12: 10% of a create's CPU).
  db.pragma('temp_store = MEMORY');
  db.pragma(`cache_size = ${-1024 * sizeMb(options.cacheMb, DEFAULT_CACHE_MB, MAX_CACHE_MB, 1)}`);
  const mmapMb = sizeMb(options.mmapMb, 0, MAX_CACHE_MB);
  if (mmapMb > 0) db.pragma(`mmap_size = ${mmapMb * 1024 * 1024}`);
  migrate(db);
  const everyMs = options.checkpointEveryMs;
  if (file !== ':memory:' && everyMs !== undefined && Number.isFinite(everyMs) && everyMs > 0) startCheckpointer(db, file, everyMs);
  return db;
}
