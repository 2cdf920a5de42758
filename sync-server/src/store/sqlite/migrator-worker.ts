// The migrator's thread (migrate-worker.ts starts it): the pending migrations applied to the file on
// a connection of its own with the serving connection's pragmas, in the loop migrate.ts runs (one
// IMMEDIATE transaction per migration, the version read again under the lock). It answers once.
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import type { Migration } from '../migration-files.js';

export interface MigratorData {
  file: string;
  busyTimeoutMs: number;
  migrations: Pick<Migration, 'version' | 'sql'>[];
}

export type MigratorAnswer = { ok: true } | { ok: false; message: string; code: string | undefined };

const port = parentPort;
if (!port) throw new Error('migrator-worker.ts runs as a worker thread');
const data = workerData as MigratorData;
let db: Database.Database | undefined;
try {
  const open = new Database(data.file, { timeout: data.busyTimeoutMs });
  db = open;
  open.pragma('journal_mode = WAL');
  open.pragma('synchronous = NORMAL');
  open.pragma('foreign_keys = ON');
  open.pragma('temp_store = MEMORY');
  const version = () => open.pragma('user_version', { simple: true }) as number;
  for (const migration of data.migrations) {
    if (migration.version <= version()) continue;
    open
      .transaction(() => {
        if (migration.version <= version()) return;
        open.exec(migration.sql);
        open.pragma(`user_version = ${migration.version}`);
      })
      .immediate();
  }
  port.postMessage({ ok: true } satisfies MigratorAnswer);
} catch (error) {
  const failure = error as { message?: unknown; code?: string } | null;
  port.postMessage({ ok: false, message: String(failure?.message || error), code: failure?.code } satisfies MigratorAnswer);
} finally {
  db?.close();
}
