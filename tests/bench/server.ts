// `npm run bench:server`: the server's hot paths under load (issue 12 point 3), each beside a
// bare Hono JSON route served by the same process in the same run. Seeds 100,000 topics /
// 1,000,000 responses / 2,000,000 upvotes (BENCH_QUICK=1: 10k / 100k / 200k; or BENCH_TOPICS,
// BENCH_RESPONSES, BENCH_UPVOTES), starts the real app in-process and measures with autocannon
// from a worker thread. Rate limits are off. Not a test: no assertion on timing.
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PROJECT_ID, startAuthEmulator, type RunningEmulator } from '../../scripts/auth-emulator.js';
import { createApp } from '../../sync-server/src/app.js';
import { createFirebaseVerifier, type TokenVerifier } from '../../sync-server/src/auth/verifier.js';
import { DEFAULT_RATE_LIMITS } from '../../sync-server/src/http/rate-limit.js';
import { NO_MODERATION_LIMITS } from '../../sync-server/src/domain/limits.js';
import { DEFAULT_CHECKPOINT_EVERY_MS, openDatabase } from '../../sync-server/src/store/sqlite/connection.js';
import { createStore } from '../../sync-server/src/store/sqlite/store.js';
import { benchGrouping } from './grouping.js';
import { largeSeedSizes, PROLIFIC_RESPONSES, seedLarge, type LargeSeedSizes } from './seed.js';
import type { BenchRow } from './types.js';
import { createLogger } from '../../sync-server/src/observe/logger.js';

/** Logging on, as in production (issue 27: the hot list is measured with it), every line written to /dev/null, not the report. */
const BENCH_LOGGER = createLogger({ LOG_LEVEL: 'info' }, '/dev/null');

export interface BenchServerOptions {
  sizes?: LargeSeedSizes;
  /** Seconds per measurement (default 10; BENCH_SECONDS). */
  seconds?: number;
  connections?: number;
  /** Also measure the real firebase-admin verifier against the Auth emulator (default true; BENCH_EMULATOR=0 skips). */
  emulator?: boolean;
  log?: (line: string) => void;
}

interface Measured {
  requestsPerSecond: number;
  total: number;
  latencyP50: number;
  latencyP99: number;
  latencyMean: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

const BENCH_TOKEN = 'bench-token';
/** Throughput, not Firebase: one fixed user behind the verifier interface. */
const fakeVerifier: TokenVerifier = {
  async verify(token) {
    if (token !== BENCH_TOKEN) throw new Error('bad token');
    return { uid: 'bench', name: 'Bench', email: null };
  },
};

async function listen(fetch: (request: Request) => Response | Promise<Response>) {
  return new Promise<{ server: ServerType; url: string }>((resolve) => {
    const server = serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve({ server, url: `http://127.0.0.1:${info.port}` }));
  });
}

async function close(server: ServerType) {
  await new Promise<void>((resolve) => {
    if ('closeAllConnections' in server) server.closeAllConnections();
    server.close(() => resolve());
  });
}

const workerFile = fileURLToPath(new URL('./autocannon-worker.mjs', import.meta.url));

function cannon(options: Record<string, unknown>, pushBatch = 0): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const child = fork(workerFile, [JSON.stringify({ options, pushBatch })], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let result: Measured | null = null;
    child.once('message', (message: Measured) => (result = message));
    child.once('error', reject);
    child.once('exit', (code) => (result ? resolve(result) : reject(new Error(`autocannon exited with ${code}`))));
  });
}

export async function emulatorToken(host: string): Promise<string> {
  const res = await fetch(`http://${host}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=fake-api-key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `bench-${Date.now()}@example.com`, password: 'correct-horse-9', returnSecureToken: true }),
  });
  const body = (await res.json()) as { idToken?: string };
  if (!body.idToken) throw new Error(`Auth emulator sign-up failed: ${JSON.stringify(body)}`);
  return body.idToken;
}

export async function benchServer(opts: BenchServerOptions = {}): Promise<BenchRow[]> {
  const sizes = opts.sizes ?? largeSeedSizes();
  const seconds = opts.seconds ?? Number(process.env.BENCH_SECONDS ?? 10);
  const connections = opts.connections ?? 50;
  const useEmulator = opts.emulator ?? process.env.BENCH_EMULATOR !== '0';
  const log = opts.log ?? ((line: string) => console.error(line));
  // Opinion groups (issue 29 #2) first: its own small database, the same sizes in quick runs.
  const rows: BenchRow[] = await benchGrouping(log);
  const size = `${sizes.topics.toLocaleString('en')} topics / ${sizes.responses.toLocaleString('en')} responses`;

  const dir = mkdtempSync(join(tmpdir(), 'crux-bench-server-'));
  // As the server runs it: the WAL checkpointed by a background thread, not inside a request's COMMIT
  // (BENCH_BG_CHECKPOINT=0: SQLite's own automatic checkpoint, to compare).
  const checkpointEveryMs = process.env.BENCH_BG_CHECKPOINT === '0' ? undefined : DEFAULT_CHECKPOINT_EVERY_MS;
  const store = createStore(openDatabase(join(dir, 'bench.sqlite'), { checkpointEveryMs }));
  let emulator: RunningEmulator | null = null;
  const servers: ServerType[] = [];
  try {
    log(`seeding ${size} / ${sizes.upvotes.toLocaleString('en')} upvotes…`);
    const t0 = performance.now();
    // The store's connection is private; the seed writes through a second connection to the same file.
    const seedDb = openDatabase(join(dir, 'bench.sqlite'));
    const seeded = seedLarge(seedDb, sizes);
    seedDb.close();
    const seedSeconds = (performance.now() - t0) / 1000;
    rows.push({ name: 'server: seed (direct SQLite, one transaction)', value: Math.round(seedSeconds), unit: 's', note: size });
    log(`seeded in ${seedSeconds.toFixed(1)} s`);

    const rateLimits = { ...DEFAULT_RATE_LIMITS, enabled: false };
    const { app } = createApp({
      store,
      verifier: fakeVerifier,
      log: () => {},
      logger: BENCH_LOGGER,
      rateLimits,
      moderation: NO_MODERATION_LIMITS,
    });
    const main = await listen(app.fetch);
    servers.push(main.server);

    // The baseline: a bare Hono JSON route answering the same 20 topics, precomputed.
    const samplePage: unknown = await (await fetch(`${main.url}/api/topics?sort=hot`)).json();
    const bare = new Hono().get('/bare', (c) => c.json(samplePage));
    const baseline = await listen(bare.fetch);
    servers.push(baseline.server);

    const run = async (name: string, options: Record<string, unknown>, pushBatch = 0) => {
      const result = await cannon({ connections, duration: seconds, ...options }, pushBatch);
      log(
        `${name}: ${Math.round(result.requestsPerSecond)} req/s, p50 ${result.latencyP50} ms, p99 ${result.latencyP99} ms` +
          (result.non2xx || result.errors ? ` (non-2xx ${result.non2xx}, errors ${result.errors})` : ''),
      );
      if (result.non2xx > 0 || result.errors > 0) throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
      return result;
    };
    const auth = { authorization: `Bearer ${BENCH_TOKEN}` };

    const bareResult = await run('bare Hono JSON route', { url: `${baseline.url}/bare` });
    rows.push({ name: 'baseline: bare Hono JSON route (same 20 topics)', value: Math.round(bareResult.requestsPerSecond), unit: 'req/s' });
    const ratioRow = (name: string, result: Measured, budget: number) =>
      rows.push({
        name,
        value: Number((result.requestsPerSecond / bareResult.requestsPerSecond).toFixed(2)),
        unit: 'x bare',
        budget,
        higherIsBetter: true,
        note: `${Math.round(result.requestsPerSecond)} req/s, p99 ${result.latencyP99} ms`,
      });

    const hot = await run('GET /api/topics?sort=hot', { url: `${main.url}/api/topics?sort=hot` });
    ratioRow(`server: GET /api/topics?sort=hot, ${connections} connections`, hot, 0.4);
    rows.push({ name: 'server: GET /api/topics?sort=hot p99', value: hot.latencyP99, unit: 'ms', budget: 25 });

    const hotAuth = await run('GET /api/topics?sort=hot + bearer (fake verifier)', {
      url: `${main.url}/api/topics?sort=hot`,
      headers: auth,
    });
    ratioRow('server: GET /api/topics?sort=hot, bearer token (fake verifier)', hotAuth, 0.3);

    if (useEmulator) {
      try {
        emulator = await startAuthEmulator();
        process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
        const token = await emulatorToken(emulator.host);
        const real = createApp({
          store,
          verifier: createFirebaseVerifier(PROJECT_ID, undefined, { maxCachedTokens: 10_000 }),
          log: () => {},
          logger: BENCH_LOGGER,
          rateLimits,
          moderation: NO_MODERATION_LIMITS,
        });
        const realServer = await listen(real.app.fetch);
        servers.push(realServer.server);
        const hotReal = await run('GET /api/topics?sort=hot + bearer (firebase-admin + emulator)', {
          url: `${realServer.url}/api/topics?sort=hot`,
          headers: { authorization: `Bearer ${token}` },
        });
        ratioRow('server: GET /api/topics?sort=hot, bearer token (firebase-admin verifier, token cache)', hotReal, 0.3);
      } catch (error) {
        log(`real verifier row skipped: ${String(error)}`);
        rows.push({ name: 'server: bearer token (firebase-admin verifier)', value: Number.NaN, unit: 'x bare', note: 'not measured' });
      }
    }

    const search = await run('GET /api/topics?search=energy', { url: `${main.url}/api/topics?sort=hot&search=energy` });
    rows.push({
      name: 'server: GET /api/topics?search=energy p99',
      value: search.latencyP99,
      unit: 'ms',
      budget: 50,
      note: `${Math.round(search.requestsPerSecond)} req/s`,
    });

    const page = await run('GET /api/responses?topic_id= (1 connection)', {
      url: `${main.url}/api/responses?topic_id=${seeded.bigTopicId}`,
      connections: 1,
    });
    rows.push({
      name: `server: GET /api/responses?topic_id= (${sizes.bigTopicRoots.toLocaleString('en')}-root topic, first page of 1,000)`,
      value: Number(page.latencyMean.toFixed(1)),
      unit: 'ms',
      budget: 50,
      note: `mean; p99 ${page.latencyP99} ms`,
    });

    // Issue 25 #5: a user's page and a topic's stance totals cost the same whatever the size behind them.
    const userPage = await run('GET /api/users/{uid}', { url: `${main.url}/api/users/${seeded.prolificUid}` });
    rows.push({
      name: `server: GET /api/users/{uid} p99 (a user with ${Math.min(PROLIFIC_RESPONSES, sizes.bigTopicRoots).toLocaleString('en')} responses)`,
      value: userPage.latencyP99,
      unit: 'ms',
      // Issue 25's budget for both rows: p99 ≤ 25 ms under 50 connections.
      budget: 25,
      note: `${Math.round(userPage.requestsPerSecond)} req/s`,
    });
    const stances = await run('GET /api/topics/{id}/stances', { url: `${main.url}/api/topics/${seeded.bigTopicId}/stances` });
    rows.push({
      name: `server: GET /api/topics/{id}/stances p99 (a ${sizes.bigTopicRoots.toLocaleString('en')}-response topic)`,
      value: stances.latencyP99,
      unit: 'ms',
      budget: 25,
      note: `${Math.round(stances.requestsPerSecond)} req/s`,
    });

    // The sync pull of a followed topic: the first 1,000 responses of the big topic (each root cites
    // one or two sources, read for the whole page in one query).
    const pullPage = await run('sync pull of responses, 1,000 per page (4 connections)', {
      url: `${main.url}/api/sync/responses/pull?topic_id=${seeded.bigTopicId}&limit=1000`,
      connections: 4,
    });
    rows.push({
      name: 'server: sync pull of responses, big topic, 1,000 per page',
      value: Math.round(pullPage.requestsPerSecond * 1000),
      unit: 'docs/s',
      note: `${Math.round(pullPage.requestsPerSecond)} req/s, p99 ${pullPage.latencyP99} ms`,
    });

    const post = await run('POST /api/responses', {
      url: `${main.url}/api/responses`,
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ topic_id: seeded.bigTopicId, type: 'for', content: 'A new argument posted by the bench.' }),
    });
    rows.push({
      name: 'server: POST /api/responses (big topic)',
      value: Math.round(post.requestsPerSecond),
      unit: 'req/s',
      budget: 2000,
      higherIsBetter: true,
    });
    rows.push({ name: 'server: POST /api/responses p99', value: post.latencyP99, unit: 'ms', budget: 50 });

    const pushed = await run(
      'sync push, 50 creates per request',
      {
        url: `${main.url}/api/sync/topics/push`,
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        connections: 10,
      },
      50,
    );
    rows.push({
      name: 'server: sync push, 50 topic creates per request',
      value: Math.round(pushed.requestsPerSecond * 50),
      unit: 'docs/s',
      budget: 5000,
      higherIsBetter: true,
      note: `${Math.round(pushed.requestsPerSecond)} req/s, p99 ${pushed.latencyP99} ms`,
    });
  } finally {
    for (const server of servers) await close(server);
    await emulator?.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

export function printRows(rows: BenchRow[]) {
  const width = Math.max(...rows.map((row) => row.name.length));
  for (const row of rows) {
    const budget = row.budget === undefined ? '' : `budget ${row.budget}`;
    console.log(`${row.name.padEnd(width)}  ${String(row.value).padStart(9)} ${row.unit.padEnd(7)} ${budget.padEnd(14)} ${row.note ?? ''}`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  benchServer().then(
    (rows) => {
      printRows(rows);
      process.exit(0);
    },
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
