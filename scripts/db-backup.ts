// `npm run db:backup -- [file]`: a consistent copy of the configured database while the servers
// keep serving (docs/OPERATIONS.md "Backups"). SQLite (DATA_DIR): SQLite's online backup API in one
// snapshot, checked with quick_check; PostgreSQL (DATABASE_URL): `pg_dump -Fc`. Without a file:
// BACKUP_DIR (else DATA_DIR/backups)/crux-<UTC time>.sqlite or .dump.
import { join, resolve } from 'node:path';
import { readConfig } from '../sync-server/src/config.js';
import { backupDatabase } from '../sync-server/src/backend.js';
import { backupFileName } from '../sync-server/src/backup/schedule.js';

const config = readConfig();
const given = process.argv[2];
const target = given
  ? resolve(given)
  : join(config.backup.dir ?? join(config.dataDir, 'backups'), backupFileName(new Date(), config.databaseUrl ? 'dump' : 'sqlite'));
const started = Date.now();
try {
  await backupDatabase(config, target);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
console.log(
  `Backed up ${config.databaseUrl ? 'the PostgreSQL database' : config.databaseFile} to ${target} in ${Date.now() - started} ms.`,
);
