// `npm run db:restore -- <file>`: puts a backup made by `npm run db:backup` in place of the
// configured database (docs/OPERATIONS.md "Backups"). Refuses (exit code 2) while a server runs on
// it. SQLite (DATA_DIR): refused while any process has DATA_DIR/crux.sqlite open (an exclusive-lock
// probe); the backup is checked, and the database it replaces is kept as
// crux.sqlite.before-restore-<time>. PostgreSQL (DATABASE_URL): `pg_restore` in one transaction into
// an empty database; refused while another session is connected to it or when it holds topics.
import { closeSync, openSync, readSync } from 'node:fs';
import { resolve } from 'node:path';
import { PG_DUMP_MAGIC, restorePostgres } from '../sync-server/src/backup/postgres.js';
import { DatabaseInUseError, SQLITE_MAGIC, restoreSqlite } from '../sync-server/src/backup/sqlite.js';
import { readConfig } from '../sync-server/src/config.js';

const config = readConfig();
const given = process.argv[2];
if (!given) {
  console.error('Usage: npm run db:restore -- <backup file>');
  process.exit(1);
}
const file = resolve(given);

/** The file's first bytes, to tell a SQLite database from a pg_dump archive. */
function head(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(16);
    const read = readSync(fd, buffer, 0, 16, 0);
    return buffer.subarray(0, read).toString('latin1');
  } finally {
    closeSync(fd);
  }
}

try {
  const start = head(file);
  if (config.databaseUrl) {
    if (!start.startsWith(PG_DUMP_MAGIC))
      throw new Error(`${file} is not a pg_dump custom-format archive (DATABASE_URL is set: restoring into PostgreSQL).`);
    await restorePostgres(file, config.databaseUrl);
    console.log(`Restored ${file} into the PostgreSQL database.`);
  } else {
    if (start !== SQLITE_MAGIC)
      throw new Error(`${file} is not a SQLite database (DATABASE_URL is unset: restoring into ${config.databaseFile}).`);
    const { previous } = restoreSqlite(file, config.databaseFile);
    console.log(`Restored ${file} to ${config.databaseFile}${previous ? `; the database it replaced is ${previous}` : ''}.`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(error instanceof DatabaseInUseError ? 2 : 1);
}
