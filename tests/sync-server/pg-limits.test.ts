// Rate limits shared by several server processes on one PostgreSQL database (// point 3): two backends stand for two processes; what one takes the other sees. The
// in-memory backend of a single process answers the same way (one table, both engines).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createMemoryLimitBackend, type LimitBackend } from '../../sync-server/src/http/limit-backend.js';
import { createPgLimitBackend } from '../../sync-server/src/store/pg/limit-backend.js';
import { startPostgres, type Postgres } from '../fixtures/postgres.js';

const rate = { burst: 3, perMinute: 60 }; // one token a second

describe('rate limits across processes (PostgreSQL)', () => {
  let postgres: Postgres;
  const pools: pg.Pool[] = [];
  const backends: LimitBackend[] = [];
  let clock = 1_000_000;
  const processOn = async (options: { leaseMs?: number } = {}) => {
    const pool = new pg.Pool({ connectionString: postgres.url, max: 4 });
    pools.push(pool);
    const backend = await createPgLimitBackend(pool, { now: () => clock, ...options });
    backends.push(backend);
    return backend;
  };
  beforeAll(async () => {
    postgres = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    for (const backend of backends) await backend.close();
    for (const pool of pools) await pool.end();
    await postgres?.stop();
  });

  it('a bucket emptied through one process is empty on the other, and refills with time', async () => {
    const [a, b] = [await processOn(), await processOn()];
    const take = (cost = 1) => ({ bucket: 'userWrites', key: 'ada', rate, cost });
    expect(await a.take([take(2)])).toEqual({ ok: true });
    expect(await b.take([take()])).toEqual({ ok: true });
    expect(await a.take([take()])).toEqual({ ok: false, refused: 0, waitMs: 1000 });
    expect(await b.take([take()])).toEqual({ ok: false, refused: 0, waitMs: 1000 });
    clock += 1000;
    expect(await b.take([take()])).toEqual({ ok: true });
    expect(await a.take([take()])).toMatchObject({ ok: false });
  });

  it('takes all or nothing: a refused bucket leaves the others untouched', async () => {
    const [a, b] = [await processOn(), await processOn()];
    const user = (cost: number) => ({ bucket: 'userWrites', key: 'bob', rate, cost });
    const ip = (cost: number) => ({ bucket: 'ipWrites', key: '10.0.0.1', rate: { burst: 2, perMinute: 60 }, cost });
    expect(await a.take([ip(2)])).toEqual({ ok: true });
    expect(await b.take([user(1), ip(1)])).toEqual({ ok: false, refused: 1, waitMs: 1000 });
    // Bob's own bucket was not charged by the refused request: all three are still there.
    expect(await b.take([user(3)])).toEqual({ ok: true });
  });

  it('a forced take (a pull charged for what it returned) is never refused and leaves the bucket in debt for both', async () => {
    const [a, b] = [await processOn(), await processOn()];
    const pull = (cost: number, force?: boolean) => ({ bucket: 'userPulls', key: 'cy', rate, cost, ...(force ? { force } : {}) });
    expect(await a.take([pull(1)])).toEqual({ ok: true });
    expect(await a.take([pull(5, true)])).toEqual({ ok: true }); // 2 - 5 = -3
    expect(await b.take([pull(1)])).toEqual({ ok: false, refused: 0, waitMs: 4000 });
  });

  it('many concurrent takes from both processes never give out more than the bucket holds', async () => {
    const [a, b] = [await processOn(), await processOn()];
    const big = { burst: 40, perMinute: 1 };
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => (i % 2 ? a : b).take([{ bucket: 'reads', key: 'crowd', rate: big, cost: 1 }])),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(40);
  });

  it('live streams open at once count across processes; a release frees a place', async () => {
    const [a, b] = [await processOn(), await processOn()];
    const stream = { counter: 'userStreams', key: 'cy', max: 2 };
    const first = await a.open([stream]);
    const second = await b.open([stream]);
    expect([first.ok, second.ok]).toEqual([true, true]);
    expect(await a.open([stream])).toEqual({ ok: false, refused: 0 });
    expect(await b.open([{ counter: 'ipStreams', key: '10.0.0.9', max: 5 }, stream])).toEqual({ ok: false, refused: 1 });
    if (second.ok) second.release();
    await expect.poll(async () => (await a.open([stream])).ok, { timeout: 5_000 }).toBe(true);
  });

  it('a process that stops renewing its lease (it died) stops counting once the lease runs out', async () => {
    const gone = await processOn({ leaseMs: 60_000 });
    const alive = await processOn({ leaseMs: 60_000 });
    const stream = { counter: 'userStreams', key: 'dee', max: 1 };
    expect((await gone.open([stream])).ok).toBe(true);
    expect(await alive.open([stream])).toEqual({ ok: false, refused: 0 });
    clock += 61_000; // no heartbeat from `gone` in between
    expect((await alive.open([stream])).ok).toBe(true);
  });
});

describe('rate limits in one process (memory)', () => {
  it('answers like the shared backend', async () => {
    let clock = 0;
    const memory = createMemoryLimitBackend(() => clock);
    const take = (key: string, cost: number) => ({ bucket: 'userWrites', key, rate, cost });
    expect(await memory.take([take('ada', 3)])).toEqual({ ok: true });
    expect(await memory.take([take('bob', 1), take('ada', 1)])).toEqual({ ok: false, refused: 1, waitMs: 1000 });
    expect(await memory.take([take('bob', 3)])).toEqual({ ok: true });
    clock += 1000;
    expect(await memory.take([take('ada', 1)])).toEqual({ ok: true });
    expect(await memory.take([take('cy', 1)])).toEqual({ ok: true });
    expect(await memory.take([{ ...take('cy', 5), force: true }])).toEqual({ ok: true });
    expect(await memory.take([take('cy', 1)])).toEqual({ ok: false, refused: 0, waitMs: 4000 });
    const stream = { counter: 'userStreams', key: 'cy', max: 1 };
    const first = await memory.open([stream]);
    expect(await memory.open([stream])).toEqual({ ok: false, refused: 0 });
    if (first.ok) first.release();
    expect((await memory.open([stream])).ok).toBe(true);
  });
});
