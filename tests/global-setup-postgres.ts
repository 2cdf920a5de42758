// Vitest global setup of the *-pg lanes (vitest.config.ts): one throwaway PostgreSQL server for
// the run (tests/fixtures/postgres.ts) and a migrated template database that every test server
// copies (tests/fixtures/test-db.ts). Removed at the end.
import type { TestProject } from 'vitest/node';
import { createPgStore } from '../sync-server/src/store/pg/store.js';
import { PG_TEMPLATE, startPostgres, type Postgres } from './fixtures/postgres.js';
import pg from 'pg';

const key = Symbol.for('crux.tests.postgres');
const shared = globalThis as { [key]?: { server: Promise<Postgres>; users: number } };

async function start(): Promise<Postgres> {
  const server = await startPostgres();
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${PG_TEMPLATE}`);
  } finally {
    await admin.end();
  }
  const template = await createPgStore({ connectionString: server.url.replace(/\/[^/]*$/, `/${PG_TEMPLATE}`), max: 1 });
  await template.close();
  return server;
}

export default async function setup(project: TestProject) {
  // Both pg lanes in one run share the server (as global-setup.ts shares the emulator).
  const entry = (shared[key] ??= { server: start(), users: 0 });
  entry.users += 1;
  const server = await entry.server;
  project.provide('postgresUrl', server.url);
  return async () => {
    entry.users -= 1;
    if (entry.users > 0) return;
    delete shared[key];
    await server.stop();
  };
}
