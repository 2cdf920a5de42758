// A PostgreSQL server that ends this process's connections (a restart, an idle or transaction
// timeout, a pooler, an operator's pg_terminate_backend) never takes the process down: an idle
// pooled connection that dies is replaced on the next use, and a transaction whose connection
// dies between two statements fails as a request, its connection thrown away. Before, pg's
// unheard 'error' event (the rate limits' pool had no listener; a client taken out of a pool has
// none) ended the process with an uncaught exception.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { openBackend, type Backend } from '../../sync-server/src/backend.js';
import { startPostgres, type Postgres } from '../fixtures/postgres.js';

describe('PostgreSQL ending the connections', () => {
  let postgres: Postgres;
  let backend: Backend;
  let admin: pg.Client;
  const logged: string[] = [];
  const rate = { burst: 100, perMinute: 600 };

  beforeAll(async () => {
    postgres = await startPostgres();
    backend = await openBackend(
      { databaseUrl: postgres.url, pgPoolMax: 4, databaseFile: '', dbBusyTimeoutMs: 5_000 },
      { log: (message) => logged.push(message) },
    );
    admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
  }, 60_000);
  afterAll(async () => {
    await admin?.end();
    await backend?.close();
    await postgres?.stop();
  });

  /** Ends every connection to the database but the admin's; resolves when PostgreSQL has. */
  const terminateOthers = async (state?: string) => {
    const { rows } = await admin.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
         AND backend_type = 'client backend' AND ($1::text IS NULL OR state = $1)`,
      [state ?? null],
    );
    for (const { pid } of rows) await admin.query('SELECT pg_terminate_backend($1, 5000)', [pid]);
    return rows.length;
  };
  const settle = () => new Promise((resolve) => setTimeout(resolve, 300));
  const take = (key: string) => backend.limits.take([{ bucket: 'userWrites', key, rate, cost: 1 }]);

  it('idle pooled connections that die are replaced on the next use', async () => {
    // Connections in every pool: the store's, the rate limits', the change feed's.
    expect((await backend.store.topics.list({ sort: 'hot', limit: 5, offset: 0, viewer: null })).length).toBe(0);
    expect(await take('ada')).toEqual({ ok: true });
    expect(await terminateOthers()).toBeGreaterThan(0);
    await settle();
    expect((await backend.store.topics.list({ sort: 'new', limit: 5, offset: 0, viewer: null })).length).toBe(0);
    expect(await take('ada')).toEqual({ ok: true });
    expect(logged.some((line) => /rate limits/.test(line))).toBe(true);
  });

  it('a transaction whose connection dies between two statements fails; the next one works', async () => {
    let inside!: () => void;
    const started = new Promise<void>((resolve) => (inside = resolve));
    let finish!: () => void;
    const held = new Promise<void>((resolve) => (finish = resolve));
    const failing = backend.store.transaction(async () => {
      await backend.store.nextSeq();
      inside();
      await held;
      await backend.store.nextSeq();
    });
    const outcome = failing.then(
      () => 'committed',
      (error: Error) => error.message,
    );
    await started;
    expect(await terminateOthers('idle in transaction')).toBe(1);
    await settle();
    finish();
    expect(await outcome).not.toBe('committed');
    // The seq lock went with the connection: the next writer goes on.
    const seq = await backend.store.transaction(() => backend.store.nextSeq());
    expect(seq).toBeGreaterThan(0);
  });
});
