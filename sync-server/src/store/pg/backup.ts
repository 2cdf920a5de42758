// Backups of the PostgreSQL database (docs/OPERATIONS.md "Backups"): `pg_dump -Fc`
// (custom format: compressed, restored by pg_restore) and `pg_restore` into an empty database.
// pg_dump reads one snapshot (a REPEATABLE READ transaction) while the servers keep writing, so
// every write committed before it started is in the dump.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { DatabaseInUseError } from '../../backup/errors.js';

const run = promisify(execFile);

/** A custom-format dump's first bytes. */
export const PG_DUMP_MAGIC = 'PGDMP';

/**
 * A PostgreSQL client program: PG_BIN_DIR's, else PATH's, else the newest
 * /usr/lib/postgresql/<version>/bin's (Debian keeps them off PATH). pg_dump must be at least
 * the server's version.
 */
export function findPgTool(name: 'pg_dump' | 'pg_restore', env: NodeJS.ProcessEnv = process.env): string {
  const dirs = [env.PG_BIN_DIR, ...(env.PATH ?? '').split(':')].filter((dir): dir is string => Boolean(dir));
  const root = '/usr/lib/postgresql';
  if (existsSync(root))
    dirs.push(
      ...readdirSync(root)
        .filter((version) => /^\d+(\.\d+)?$/.test(version))
        .sort((a, b) => Number(b) - Number(a))
        .map((version) => join(root, version, 'bin')),
    );
  const found = dirs.map((dir) => join(dir, name)).find((path) => existsSync(path));
  if (!found) throw new Error(`${name} was not found (PG_BIN_DIR, PATH, /usr/lib/postgresql/*/bin): install PostgreSQL's client programs.`);
  return found;
}

function failure(error: unknown): string {
  const { stderr, message } = error as { stderr?: string; message?: string };
  return (stderr?.trim() || message) ?? String(error);
}

/** `pg_dump -Fc` of the database at `url` into `target` (written as `<target>.partial`, then renamed). */
export async function backupPostgres(url: string, target: string): Promise<void> {
  mkdirSync(dirname(target), { recursive: true });
  const partial = `${target}.partial`;
  rmSync(partial, { force: true });
  try {
    await run(findPgTool('pg_dump'), ['--format=custom', '--no-owner', '--no-acl', `--file=${partial}`, `--dbname=${url}`], {
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    rmSync(partial, { force: true });
    throw new Error(`pg_dump failed: ${failure(error)}`);
  }
  renameSync(partial, target);
}

/**
 * `pg_restore` of the dump `file` into the database at `url`, in one transaction. Refuses
 * (DatabaseInUseError) while another session is connected to it (a Crux server always holds its
 * change feed's LISTEN connection) and when it holds topics; a database with Crux's tables but
 * no topic (a server started on it once) has them replaced (--clean).
 */
export async function restorePostgres(file: string, url: string): Promise<void> {
  if (!existsSync(file)) throw new Error(`There is no file ${file}.`);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let clean = false;
  try {
    const others = await client.query<{ n: string }>(
      'SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    if (Number(others.rows[0]!.n) > 0)
      throw new DatabaseInUseError(
        `${others.rows[0]!.n} other session(s) are connected to the database (a server running on it?): stop them before restoring.`,
      );
    const tables = await client.query<{ n: string }>(
      "SELECT count(*) AS n FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')",
    );
    if (Number(tables.rows[0]!.n) > 0) {
      const topics = await client.query<{ found: string | null }>("SELECT to_regclass('topics')::text AS found");
      const held = topics.rows[0]!.found ? Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM topics')).rows[0]!.n) : 0;
      if (held > 0) throw new Error(`The database holds ${held} topic(s): restore into an empty database (createdb), not over live data.`);
      clean = true;
    }
  } finally {
    await client.end();
  }
  try {
    await run(
      findPgTool('pg_restore'),
      [
        '--no-owner',
        '--no-acl',
        '--exit-on-error',
        '--single-transaction',
        ...(clean ? ['--clean', '--if-exists'] : []),
        `--dbname=${url}`,
        file,
      ],
      { maxBuffer: 16 * 1024 * 1024 },
    );
  } catch (error) {
    throw new Error(`pg_restore failed (nothing was restored: one transaction): ${failure(error)}`);
  }
}
