// The server's SQLite migrations, applied from a worker thread before it opens its own connection
//: better-sqlite3 is synchronous, so a migration run on the main thread (a long
// one, or one waiting up to DB_BUSY_TIMEOUT_MS for another process's lock) would block the event
// loop, and GET /api/ready could not answer its 503 `migrating`. The worker (migrator-worker.ts) runs the same loop as
// migrate.ts (one IMMEDIATE transaction per migration, the version read again under the lock), with
// the serving connection's pragmas; openDatabase's migrate() then finds nothing left to do (and
// would still apply anything the worker did not).
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DEFAULT_BUSY_TIMEOUT_MS } from './connection.js';
import { loadMigrations } from './migrate.js';
import type { MigratorAnswer, MigratorData } from './migrator-worker.js';
import { startWorker } from './start-worker.js';

/** Applies the pending migrations to `file` off the main thread; rejects with the migration's error. */
export function migrateInWorker(file: string, busyTimeoutMs: number): Promise<void> {
  mkdirSync(dirname(file), { recursive: true });
  const migrations = loadMigrations().map(({ version, sql }) => ({ version, sql }));
  const workerData: MigratorData = {
    file,
    busyTimeoutMs: Number.isFinite(busyTimeoutMs) && busyTimeoutMs >= 0 ? Math.floor(busyTimeoutMs) : DEFAULT_BUSY_TIMEOUT_MS,
    migrations,
  };
  const worker = startWorker('migrator-worker', { workerData });
  return new Promise<void>((resolve, reject) => {
    worker.once('message', (answer: MigratorAnswer) => {
      if (answer.ok) return resolve();
      // As the main thread's error would be (a SQLITE_BUSY code keeps meaning "busy").
      reject(Object.assign(new Error(answer.message), answer.code ? { code: answer.code } : {}));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the migration worker exited (${code}) before it answered`)));
  });
}
