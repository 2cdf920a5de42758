// The storage contract against the PostgreSQL store, on a real PostgreSQL started for
// this file (tests/fixtures/postgres.ts). Each test gets a fresh database, copied from a migrated
// template (CREATE DATABASE … TEMPLATE is much faster than migrating each time).
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { createPgStore } from '../../sync-server/src/store/pg/store.js';
import { startPostgres, type Postgres } from '../fixtures/postgres.js';
import { runStoreContract } from './store-contract.js';

let server: Postgres;
let admin: pg.Pool;
let databases = 0;
const TEMPLATE = 'crux_contract_template';
const urlOf = (database: string) => server.url.replace(/\/[^/]*$/, `/${database}`);

beforeAll(async () => {
  server = await startPostgres();
  admin = new pg.Pool({ connectionString: server.url, max: 2 });
  await admin.query(`CREATE DATABASE ${TEMPLATE}`);
  const template = await createPgStore({ connectionString: urlOf(TEMPLATE), max: 1 });
  await template.close();
}, 60_000);

afterAll(async () => {
  await admin?.end();
  await server?.stop();
});

runStoreContract('PostgreSQL', async () => {
  const database = `crux_contract_${++databases}`;
  await admin.query(`CREATE DATABASE ${database} TEMPLATE ${TEMPLATE}`);
  const store = await createPgStore({ connectionString: urlOf(database), max: 4 });
  return {
    store,
    async close() {
      await store.close();
      await admin.query(`DROP DATABASE ${database}`);
    },
  };
});
