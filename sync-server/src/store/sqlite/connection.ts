// Opens the SQLite file with the pragmas Crux relies on and applies migrations.
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
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
  // would otherwise spill to a temporary file past 64 KiB (10% of a create's CPU).
  db.pragma('temp_store = MEMORY');
  db.pragma(`cache_size = ${-1024 * sizeMb(options.cacheMb, DEFAULT_CACHE_MB, MAX_CACHE_MB, 1)}`);
  const mmapMb = sizeMb(options.mmapMb, 0, MAX_CACHE_MB);
  if (mmapMb > 0) db.pragma(`mmap_size = ${mmapMb * 1024 * 1024}`);
  migrate(db);
  return db;
}
