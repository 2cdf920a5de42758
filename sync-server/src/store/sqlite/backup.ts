// Backups of the SQLite database while the server serves, and their restore (// docs/OPERATIONS.md "Backups").
//
// A backup is SQLite's online backup API (better-sqlite3's db.backup()) on a connection of its
// own, run in a worker thread (backup-worker.ts) so a server taking a scheduled backup keeps answering. It copies
// every page in ONE step, so the copy is one read transaction's snapshot: in WAL mode a reader
// blocks no writer, and every write committed (so acknowledged) before it began is in the copy.
// (In several small steps, any write by another connection would restart the copy, and a busy
// server could keep it from ever finishing.) The copy is checked (quick_check) and written to
// `<file>.partial` first, then renamed: a failed backup leaves no half file under the name.
//
// A running server is detected with the database's own locks: in WAL mode every open connection
// holds a shared lock on the file for as long as it is open (the server's, its checkpointer's),
// so a probe that asks for an EXCLUSIVE lock (locking_mode = EXCLUSIVE, BEGIN EXCLUSIVE, no busy
// wait) gets SQLITE_BUSY while any process has it open, and gets it as soon as the last one is
// gone, a kill -9 included (the kernel drops a dead process's locks; a pid file could go stale).
import Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseInUseError } from '../../backup/errors.js';
import type { BackupAnswer, BackupData } from './backup-worker.js';
import { startWorker } from './start-worker.js';

/** The file holds a SQLite database (its header). */
export const SQLITE_MAGIC = 'SQLite format 3\0';

const sidecars = (file: string) => [`${file}-wal`, `${file}-shm`, `${file}-journal`];
const removeWithSidecars = (file: string) => [file, ...sidecars(file)].forEach((path) => rmSync(path, { force: true }));

/** A consistent copy of the database `source` into `target` (replaced if present), from a worker thread. */
export async function backupSqlite(source: string, target: string, options: { busyTimeoutMs?: number } = {}): Promise<void> {
  if (!existsSync(source)) throw new Error(`There is no database at ${source}.`);
  mkdirSync(dirname(target), { recursive: true });
  const partial = `${target}.partial`;
  removeWithSidecars(partial);
  const result = await new Promise<BackupAnswer>((resolve, reject) => {
    const workerData: BackupData = { source, target: partial, timeoutMs: options.busyTimeoutMs ?? 5000 };
    const worker = startWorker('backup-worker', { workerData });
    worker.once('message', (message: BackupAnswer) => {
      resolve(message);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the backup worker stopped (exit code ${code})`)));
  });
  if (!result.ok) {
    removeWithSidecars(partial);
    throw new Error(`Backup of ${source} failed: ${result.message}`);
  }
  rmSync(`${partial}-journal`, { force: true });
  renameSync(partial, target);
}

/**
 * Holds an exclusive lock on `file` (which must exist), or throws DatabaseInUseError when another
 * connection has it open. The caller closes the returned connection.
 */
export function lockSqliteExclusively(file: string): Database.Database {
  const db = new Database(file, { fileMustExist: true, timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
    return db;
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY') || (error as { code?: string }).code?.startsWith('SQLITE_LOCKED'))
      throw new DatabaseInUseError(
        `${file} is open in another process (a server running on it, or a sqlite3 shell): stop it before restoring.`,
      );
    throw error;
  }
}

export interface SqliteRestore {
  /** Where the database the restore replaced was moved (undefined: there was none). */
  previous: string | undefined;
}

/**
 * Puts the backup `backupFile` in place of the database `target`: refuses (DatabaseInUseError)
 * while anything has `target` open. The backup is copied beside the target and checked first;
 * the database it replaces is checkpointed and kept as `<target>.before-restore-<time>`.
 */
export function restoreSqlite(backupFile: string, target: string, now: Date = new Date()): SqliteRestore {
  if (!existsSync(backupFile)) throw new Error(`There is no file ${backupFile}.`);
  mkdirSync(dirname(target), { recursive: true });
  // Refuse early, before copying anything.
  if (existsSync(target)) lockSqliteExclusively(target).close();

  const incoming = `${target}.restoring`;
  removeWithSidecars(incoming);
  copyFileSync(backupFile, incoming);
  try {
    const check = new Database(incoming, { fileMustExist: true });
    try {
      const result = check.pragma('quick_check', { simple: true });
      if (result !== 'ok') throw new Error(`${backupFile} fails quick_check: ${String(result)}`);
      if (!check.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'topics'").get())
        throw new Error(`${backupFile} is a SQLite database but not Crux's (it has no topics table).`);
    } finally {
      check.close();
    }
  } catch (error) {
    removeWithSidecars(incoming);
    throw error;
  }

  let previous: string | undefined;
  if (existsSync(target)) {
    // Again, now holding the lock: everything the old database's WAL holds goes into its file,
    // which is moved aside whole. Closed just before the renames (closing deletes the WAL by name).
    const lock = lockSqliteExclusively(target);
    try {
      lock.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      lock.close();
    }
    previous = `${target}.before-restore-${now
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z')}`;
    renameSync(target, previous);
  }
  sidecars(target).forEach((path) => rmSync(path, { force: true }));
  sidecars(incoming).forEach((path) => rmSync(path, { force: true }));
  renameSync(incoming, target);
  return { previous };
}
