// `npm run bench -- postgres`: the server's read and pull rows on both engines side by side
// (issue 14). Seeds SQLite as the server bench does (BENCH_QUICK=1: a tenth), copies it into a
// throwaway PostgreSQL with the copy tool (timed: what `npm run db:copy-to-pg` costs), then
// measures the same requests against the same app over each store, and how long a commit on one
// process takes to reach another's live stream through LISTEN/NOTIFY. Not a test: no assertion
// on timing. Needs PostgreSQL (Debian's `postgresql`); without it the module reports why.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve, type ServerType } from '@hono/node-server';
import { createApp } from '../../sync-server/src/app.js';
import type { TokenVerifier } from '../../sync-server/src/auth/verifier.js';
import { createPgChangeFeed } from '../../sync-server/src/store/pg/change-feed.js';
import { DEFAULT_RATE_LIMITS } from '../../sync-server/src/http/rate-limit.js';
import { NO_MODERATION_LIMITS } from '../../sync-server/src/domain/limits.js';
import { openDatabase } from '../../sync-server/src/store/sqlite/connection.js';
import { copySqliteToPostgres } from '../../sync-server/src/store/pg/copy-from-sqlite.js';
import { createPgStore } from '../../sync-server/src/store/pg/store.js';
import { createStore } from '../../sync-server/src/store/sqlite/store.js';
import type { Store } from '../../sync-server/src/store/types.js';
import { startPostgres } from '../../scripts/local-postgres.js';
import { largeSeedSizes, seedLarge } from './seed.js';
import type { BenchRow } from './types.js';
import { createLogger } from '../../sync-server/src/observe/logger.js';

/** Logging on, as in production (issue 27: the hot list is measured with it), every line written to /dev/null, not the report. */
const BENCH_LOGGER = createLogger({ LOG_LEVEL: 'info' }, '/dev/null');

const refuseTokens: TokenVerifier = { verify: () => Promise.reject(new Error('no tokens in this bench')) };
const workerFile = fileURLToPath(new URL('./autocannon-worker.mjs', import.meta.url));

interface Measured {
  requestsPerSecond: number;
  latencyP99: number;
  latencyMean: number;
  non2xx: number;
  errors: number;
}

function cannon(options: Record<string, unknown>): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const child = fork(workerFile, [JSON.stringify({ options, pushBatch: 0 })], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let result: Measured | null = null;
    child.once('message', (message: Measured) => (result = message));
    child.once('error', reject);
    child.once('exit', (code) => (result ? resolve(result) : reject(new Error(`autocannon exited with ${code}`))));
  });
}

async function listen(store: Store) {
  const { app } = createApp({
    store,
    verifier: refuseTokens,
    log: () => {},
    logger: BENCH_LOGGER,
    rateLimits: { ...DEFAULT_RATE_LIMITS, enabled: false },
    moderation: NO_MODERATION_LIMITS,
  });
  return new Promise<{ server: ServerType; url: string }>((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
      resolve({ server, url: `http://127.0.0.1:${info.port}` }),
    );
  });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

export async function benchPostgres(log: (line: string) => void = (line) => console.error(line)): Promise<BenchRow[]> {
  const sizes = largeSeedSizes();
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  const size = `${sizes.topics.toLocaleString('en')} topics / ${sizes.responses.toLocaleString('en')} responses`;
  const rows: BenchRow[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'crux-bench-pg-'));
  const postgres = await startPostgres();
  const servers: ServerType[] = [];
  const stores: Store[] = [];
  try {
    log(`postgres: seeding SQLite with ${size}…`);
    const db = openDatabase(join(dir, 'bench.sqlite'));
    const seeded = seedLarge(db, sizes);
    const t0 = performance.now();
    await copySqliteToPostgres(db, postgres.url, (line) => log(`postgres: ${line}`));
    const copySeconds = (performance.now() - t0) / 1000;
    db.close();
    rows.push({
      name: 'postgres: copy of the SQLite site (npm run db:copy-to-pg)',
      value: Number(copySeconds.toFixed(1)),
      unit: 's',
      note: size,
    });

    const engines = {
      SQLite: createStore(openDatabase(join(dir, 'bench.sqlite'))),
      PostgreSQL: await createPgStore({ connectionString: postgres.url, max: 20 }),
    };
    stores.push(...Object.values(engines));
    const urls: Record<string, string> = {};
    for (const [name, store] of Object.entries(engines)) {
      const { server, url } = await listen(store);
      servers.push(server);
      urls[name] = url;
    }
    const measures: Array<{
      name: string;
      path: string;
      connections: number;
      row: (m: Measured) => Pick<BenchRow, 'value' | 'unit' | 'note' | 'budget' | 'higherIsBetter'>;
    }> = [
      {
        name: 'GET /api/topics?sort=hot p99',
        path: '/api/topics?sort=hot',
        connections: 50,
        row: (m) => ({ value: m.latencyP99, unit: 'ms', budget: 25, note: `${Math.round(m.requestsPerSecond)} req/s` }),
      },
      {
        name: 'GET /api/topics?search=energy p99',
        path: '/api/topics?sort=hot&search=energy',
        connections: 50,
        row: (m) => ({ value: m.latencyP99, unit: 'ms', budget: 50, note: `${Math.round(m.requestsPerSecond)} req/s` }),
      },
      {
        name: 'GET /api/responses?topic_id= (big topic, first page of 1,000)',
        path: `/api/responses?topic_id=${seeded.bigTopicId}`,
        connections: 1,
        row: (m) => ({ value: Number(m.latencyMean.toFixed(1)), unit: 'ms', budget: 50, note: `mean; p99 ${m.latencyP99} ms` }),
      },
      {
        name: 'sync pull of responses, big topic, 1,000 per page',
        path: `/api/sync/responses/pull?topic_id=${seeded.bigTopicId}&limit=1000`,
        connections: 4,
        row: (m) => ({
          value: Math.round(m.requestsPerSecond * 1000),
          unit: 'docs/s',
          note: `${Math.round(m.requestsPerSecond)} req/s, p99 ${m.latencyP99} ms`,
        }),
      },
    ];
    for (const measure of measures) {
      for (const engine of Object.keys(engines)) {
        const result = await cannon({ url: `${urls[engine]}${measure.path}`, connections: measure.connections, duration: seconds });
        log(`postgres: ${engine} ${measure.name}: ${Math.round(result.requestsPerSecond)} req/s, p99 ${result.latencyP99} ms`);
        if (result.non2xx > 0 || result.errors > 0)
          throw new Error(`${engine} ${measure.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
        rows.push({ name: `${engine === 'SQLite' ? 'sqlite  ' : 'postgres'}: ${measure.name}`, ...measure.row(result) });
      }
    }

    // Two processes' change feeds on one database: a commit published on A, heard on B.
    const a = createPgChangeFeed({ connectionString: postgres.url, log: () => {} });
    const b = createPgChangeFeed({ connectionString: postgres.url, log: () => {} });
    try {
      await Promise.all([a.ready, b.ready]);
      const latencies: number[] = [];
      for (let i = 0; i < 200; i++) {
        const heard = new Promise<number>((resolve) => {
          const started = performance.now();
          const stop = b.subscribe(() => {
            stop();
            resolve(performance.now() - started);
          });
          a.publish([{ collection: 'topics' }]);
        });
        latencies.push(await heard);
      }
      latencies.sort((x, y) => x - y);
      rows.push({
        name: 'postgres: a commit on process A heard by a live stream on process B (LISTEN/NOTIFY) p99',
        value: Number(percentile(latencies, 99).toFixed(1)),
        unit: 'ms',
        budget: 2000,
        note: `p50 ${percentile(latencies, 50).toFixed(1)} ms over ${latencies.length}`,
      });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  } finally {
    for (const server of servers) {
      await new Promise<void>((resolve) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => resolve());
      });
    }
    for (const store of stores) await store.close();
    await postgres.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
