// `npm run db:restore -- <file>`: puts a backup made by `npm run db:backup` in place of the
// configured database (docs/OPERATIONS.md "Backups"). Refuses (exit code 2) while a server runs on
// it. SQLite (DATA_DIR): refused while any process has DATA_DIR/crux.sqlite open (an exclusive-lock
// probe); the backup is checked, and the database it replaces is kept as
// crux.sqlite.before-restore-<time>. PostgreSQL (DATABASE_URL): `pg_restore` in one transaction into
// an empty database; refused while another session is connected to it or when it holds topics.
import { resolve } from 'node:path';
import { readConfig } from '../sync-server/src/config.js';
import { restoreDatabase } from '../sync-server/src/backend.js';
import { DatabaseInUseError } from '../sync-server/src/backup/errors.js';

const config = readConfig();
const given = process.argv[2];
if (!given) {
  console.error('Usage: npm run db:restore -- <backup file>');
  process.exit(1);
}
try {
  console.log(await restoreDatabase(config, resolve(given)));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(error instanceof DatabaseInUseError ? 2 : 1);
}
