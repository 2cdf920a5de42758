// The PostgreSQL migrations (store/pg/migrate.ts) applied by several server processes
// starting at once, directly and behind a connection pooler in transaction mode (PgBouncer), where
// a statement outside a transaction may run on any server connection: each migration is applied
// once and every process starts. Against a real PostgreSQL (tests/fixtures/postgres.ts).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratePg } from '../../sync-server/src/store/pg/migrate.js';
import { startPostgres, type Postgres } from '../fixtures/postgres.js';

let server: Postgres;
let databases = 0;
const pools: pg.Pool[] = [];

beforeAll(async () => {
  server = await startPostgres();
}, 60_000);

afterAll(async () => {
  for (const pool of pools) await pool.end();
  await server?.stop();
});

async function freshDatabase(): Promise<string> {
  const name = `crux_migrate_${++databases}`;
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return server.url.replace(/\/[^/]*$/, `/${name}`);
}

/**
 * What a transaction-mode pooler gives a client: BEGIN…COMMIT on one server connection, every
 * other statement on whichever connection is free (here: a new one each time, the extreme case).
 * Session state (a session advisory lock, SET) does not outlive the statement.
 */
function transactionPooled(url: string): pg.Pool {
  const connect = async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    return client;
  };
  return {
    async connect() {
      let pinned: pg.Client | null = null;
      return {
        async query(text: string, params?: unknown[]) {
          if (!pinned && /^\s*BEGIN\b/i.test(text)) pinned = await connect();
          if (pinned) {
            const client = pinned;
            try {
              return await client.query(text, params);
            } finally {
              if (/^\s*(COMMIT|ROLLBACK)\b/i.test(text)) {
                pinned = null;
                await client.end();
              }
            }
          }
          const client = await connect();
          try {
            return await client.query(text, params);
          } finally {
            await client.end();
          }
        },
        release() {},
        // Its connections are opened and ended per statement, so none outlives a statement to fail between two.
        on() {},
        removeListener() {},
      };
    },
  } as unknown as pg.Pool;
}

async function applied(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ version: number; n: string }>(
      'SELECT version, count(*) AS n FROM crux_migrations GROUP BY version ORDER BY version',
    );
    return rows.map((row) => ({ version: row.version, n: Number(row.n) }));
  } finally {
    await client.end();
  }
}

describe('PostgreSQL migrations with several processes starting at once', () => {
  it('directly: each migration applied once, every process starts', async () => {
    const url = await freshDatabase();
    const starting = Array.from({ length: 4 }, () => {
      const pool = new pg.Pool({ connectionString: url, max: 2 });
      pools.push(pool);
      return migratePg(pool);
    });
    const versions = await Promise.all(starting);
    expect(new Set(versions).size).toBe(1);
    const rows = await applied(url);
    expect(rows.length).toBe(versions[0]);
    expect(rows.every((row) => row.n === 1)).toBe(true);
  });

  it('behind a transaction-mode pooler: the lock is held by each migration transaction, so the runs still take turns', async () => {
    const url = await freshDatabase();
    const versions = await Promise.all(Array.from({ length: 4 }, () => migratePg(transactionPooled(url))));
    const rows = await applied(url);
    expect(rows.length).toBe(versions[0]);
    expect(rows.every((row) => row.n === 1)).toBe(true);
    // And no lock is left behind for the next deploy.
    expect(await migratePg(transactionPooled(url))).toBe(versions[0]);
  });
});
