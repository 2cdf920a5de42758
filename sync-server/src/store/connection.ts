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
}

export function openDatabase(file: string, options: OpenOptions = {}): Db {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const requested = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  const busyTimeoutMs = Number.isFinite(requested) && requested >= 0 ? Math.floor(requested) : DEFAULT_BUSY_TIMEOUT_MS;
  const db = new Database(file, { timeout: busyTimeoutMs });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  migrate(db);
  return db;
}

/** SQLite could not get its lock within the busy timeout (SQLITE_BUSY and its extended codes). */
export function isBusyError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}
