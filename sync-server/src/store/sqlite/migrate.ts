// Versioned, forward-only migrations: migrations/NNN-name.sql, applied in order,
// each in its own transaction, the version kept in SQLite's user_version.
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';
import { readMigrations, type Migration } from '../migration-files.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/** SQLite's migrations (default: the shipped ones in ./migrations/). */
export function loadMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readMigrations(dir);
}

export function migrate(db: Database.Database, migrations = loadMigrations()): number {
  const version = () => db.pragma('user_version', { simple: true }) as number;
  for (const migration of migrations) {
    if (migration.version <= version()) continue;
    // IMMEDIATE, and the version read again under the lock: two servers starting on
    // one file at once apply each migration once (the second waits, then skips it).
    db.transaction(() => {
      if (migration.version <= version()) return;
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    }).immediate();
  }
  return db.pragma('user_version', { simple: true }) as number;
}
