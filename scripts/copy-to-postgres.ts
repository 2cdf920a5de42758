// `npm run db:copy-to-pg`: copies the SQLite site (DATA_DIR/crux.sqlite, or `-- --from <file>`)
// into the PostgreSQL database of DATABASE_URL (docs/OPERATIONS.md "PostgreSQL"). Stop the server first; the
// target must be empty. Afterwards, start the servers with DATABASE_URL set.
import { resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { readConfig } from '../sync-server/src/config.js';
import { openDatabase } from '../sync-server/src/store/sqlite/connection.js';
import { copySqliteToPostgres, TargetNotEmptyError } from '../sync-server/src/store/pg/copy-from-sqlite.js';

const config = readConfig();
const fromAt = process.argv.indexOf('--from');
const file = fromAt >= 0 && process.argv[fromAt + 1] ? resolve(process.argv[fromAt + 1]!) : config.databaseFile;
if (!config.databaseUrl) {
  console.error('Set DATABASE_URL to the PostgreSQL database to copy into (postgres://user:password@host:5432/crux).');
  process.exit(1);
}
if (!existsSync(file)) {
  console.error(`No SQLite database at ${file} (use -- --from <file>).`);
  process.exit(1);
}

const started = performance.now();
// Opened as the server opens it: migrated to the current version first.
const sqlite = openDatabase(file);
try {
  console.log(`Copying ${file} into PostgreSQL…`);
  const report = await copySqliteToPostgres(sqlite, config.databaseUrl, (line) => console.log(`  ${line}`));
  const total = Object.values(report.rows).reduce((sum, n) => sum + n, 0);
  console.log(`Done: ${total.toLocaleString('en')} rows in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
} catch (error) {
  console.error(error instanceof TargetNotEmptyError ? error.message : error);
  process.exitCode = 1;
} finally {
  sqlite.close();
}
