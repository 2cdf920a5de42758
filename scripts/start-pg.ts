// `npm run start:pg`: `npm start` on PostgreSQL instead of the embedded SQLite file. Starts a
// local PostgreSQL kept under DATA_DIR/postgres (created on the first run; Debian's
// `postgresql` package or any initdb/pg_ctl on PATH), points DATABASE_URL at its `crux`
// database and runs scripts/start.ts; one Ctrl-C stops both. PG_PORT fixes its port.
// With DATABASE_URL already set, that server is used and nothing is started here.
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { startPostgres, type Postgres } from './local-postgres.js';

let postgres: Postgres | undefined;
let databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  const dir = join(resolve(process.env.DATA_DIR ?? 'data'), 'postgres');
  console.log(`Starting PostgreSQL in ${dir}…`);
  postgres = await startPostgres({
    dir,
    database: 'crux',
    ...(process.env.PG_PORT ? { port: Number(process.env.PG_PORT) } : {}),
  });
  databaseUrl = postgres.url;
  console.log(`PostgreSQL on ${databaseUrl}`);
}

const app = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
  stdio: 'inherit',
  env: { ...process.env, DATABASE_URL: databaseUrl },
});

let stopping = false;
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  app.kill('SIGTERM');
  await postgres?.stop();
  process.exit(code);
}
app.on('exit', (code) => void stop(code ?? 0));
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
