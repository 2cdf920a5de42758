// Versioned, forward-only migrations of the PostgreSQL store: migrations/NNN-name.sql, applied
// in order, each in its own transaction, recorded in crux_migrations. Each of those transactions
// first takes a transaction-level advisory lock and then checks crux_migrations again, so several
// server processes starting at once apply each migration once (the others wait, then find it
// recorded). Transaction-level, not a session lock around the run: it works behind a connection
// pooler in transaction mode (PgBouncer), where consecutive statements of one "session" may run
// on different server connections and a session lock could be taken on one and released on
// another (docs/OPERATIONS.md "PostgreSQL").
import { fileURLToPath } from 'node:url';
import type { Pool, PoolClient } from 'pg';
import { readMigrations, type Migration } from '../migration-files.js';
import { checkOut } from './checkout.js';
import { migrateSeq } from './seq.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
/** The migrations' lock ('crum' in ASCII; the seq lock is 'crux'). */
export const MIGRATE_LOCK_KEY = 0x6372756d;

/** Runs `work` in a transaction holding the migration lock. */
async function underLock<T>(client: PoolClient, work: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATE_LOCK_KEY]);
    const result = await work();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}

/** Applies the pending migrations; resolves to the latest version applied. */
export async function migratePg(pool: Pool, migrations: Migration[] = readMigrations(MIGRATIONS_DIR)): Promise<number> {
  const { client, release } = await checkOut(pool);
  try {
    await underLock(client, async () => {
      await client.query(`CREATE TABLE IF NOT EXISTS crux_migrations (
        version    integer PRIMARY KEY,
        name       text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
      await migrateSeq(client);
    });
    for (const migration of migrations) {
      await underLock(client, async () => {
        // Checked under the lock: another process may have applied it while this one waited.
        const { rowCount } = await client.query('SELECT 1 FROM crux_migrations WHERE version = $1', [migration.version]);
        if (rowCount) return;
        try {
          await client.query(migration.sql);
        } catch (error) {
          throw new Error(`PostgreSQL migration ${migration.name} failed: ${(error as Error).message}`, { cause: error });
        }
        await client.query('INSERT INTO crux_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
      });
    }
    return Math.max(0, ...migrations.map((migration) => migration.version));
  } finally {
    release();
  }
}
