// Versioned, forward-only migrations of the PostgreSQL store: migrations/NNN-name.sql, applied
// in order, each in its own transaction, recorded in crux_migrations. A session advisory lock
// around the run makes several server processes starting at once apply each migration once
// (the others wait, then find it recorded).
import { fileURLToPath } from 'node:url';
import type { Pool } from 'pg';
import { loadMigrations, type Migration } from '../migrate.js';
import { migrateSeq } from './seq.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
/** The migration run's lock ('crum' in ASCII; the seq lock is 'crux'). */
export const MIGRATE_LOCK_KEY = 0x6372756d;

/** Applies the pending migrations; resolves to the latest version applied. */
export async function migratePg(pool: Pool, migrations: Migration[] = loadMigrations(MIGRATIONS_DIR)): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATE_LOCK_KEY]);
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS crux_migrations (
        version    integer PRIMARY KEY,
        name       text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
      await migrateSeq(client);
      const { rows } = await client.query<{ version: number }>('SELECT version FROM crux_migrations');
      const applied = new Set(rows.map((row) => row.version));
      for (const migration of migrations) {
        if (applied.has(migration.version)) continue;
        await client.query('BEGIN');
        try {
          await client.query(migration.sql);
          await client.query('INSERT INTO crux_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw new Error(`PostgreSQL migration ${migration.name} failed: ${(error as Error).message}`, { cause: error });
        }
      }
      return Math.max(0, ...migrations.map((migration) => migration.version));
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATE_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}
