// `npm run bench -- server` (or `npm run bench:server`): the server's hot paths under load,
// measured as users run it, in three kinds of process:
//   1. the production server, compiled (scripts/build-server.ts) and started as `npm start` starts it,
//      `node build/.../main.js` with NODE_ENV=production and its default log level, on its own
//      DATA_DIR whose crux.sqlite is seeded first (rate and moderation limits off, no demo, no mail);
//   2. a bare Hono app (bare-server.mjs) answering the same 20 topics as precomputed bytes and
//      with c.json per request: the stack's ceiling every ratio row divides by;
//   3. autocannon (autocannon-worker.mjs), forked for each measurement.
// Sizes: 100,000 topics / 1,000,000 responses / 2,000,000 upvotes (BENCH_QUICK=1: 10k / 100k / 200k;
// or BENCH_TOPICS, BENCH_RESPONSES, BENCH_UPVOTES). The signed-in rows (a bearer token, every write)
// use real ID tokens from the Auth emulator, verified by the server's firebase-admin verifier;
// BENCH_EMULATOR=0 skips them. BENCH_PROFILE=1 starts the server with --cpu-prof and prints where
// the profile went. Not a test: no assertion on timing.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startAuthEmulator, type RunningEmulator } from '../../scripts/auth-emulator.js';
import { openDatabase } from '../../sync-server/src/store/sqlite/connection.js';
import { benchGrouping } from './grouping.js';
import { buildServerForBench, serverProfile, startBareProcess, startCruxProcess, type RunningProcess } from './processes.js';
import { largeSeedSizes, PROLIFIC_RESPONSES, rootCursors, SEED_WORDS, seedLarge, type LargeSeedSizes } from './seed.js';
import type { BenchRow } from './types.js';
import { PULL_ANSWER_MAX } from '../../shared/sync-protocol.js';
import { RESPONSES_ANSWER_MAX } from '../../sync-server/src/routes/responses.js';

export interface BenchServerOptions {
  sizes?: LargeSeedSizes;
  /** Seconds per measurement (default 10; BENCH_SECONDS). */
  seconds?: number;
  connections?: number;
  /** Measure the signed-in rows with ID tokens from the Auth emulator (default true; BENCH_EMULATOR=0 skips them). */
  emulator?: boolean;
  /** Profile the server process (--cpu-prof; BENCH_PROFILE=1). */
  profile?: boolean;
  log?: (line: string) => void;
}

export interface Measured {
  requestsPerSecond: number;
  total: number;
  latencyP50: number;
  latencyP99: number;
  latencyMean: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

/** What makes each request differ (autocannon-worker.mjs). */
export type Vary =
  | { kind: 'search'; words: string[]; sorts: string[]; limits?: number[] }
  | { kind: 'paths'; paths: string[] }
  | { kind: 'response'; topics: number }
  | { kind: 'response-push'; topics: number; batch: number }
  | { kind: 'topic-push'; batch: number };

const workerFile = fileURLToPath(new URL('./autocannon-worker.mjs', import.meta.url));

/** One autocannon measurement from a process of its own. */
export function cannon(options: Record<string, unknown>, vary?: Vary): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const child = fork(workerFile, [JSON.stringify({ options, vary })], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
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

const fmt = (n: number) => Math.round(n).toLocaleString('en');

export async function benchServer(opts: BenchServerOptions = {}): Promise<BenchRow[]> {
  const sizes = opts.sizes ?? largeSeedSizes();
  const seconds = opts.seconds ?? Number(process.env.BENCH_SECONDS ?? 10);
  const connections = opts.connections ?? 50;
  const useEmulator = opts.emulator ?? process.env.BENCH_EMULATOR !== '0';
  const profile = opts.profile ?? process.env.BENCH_PROFILE === '1';
  const log = opts.log ?? ((line: string) => console.error(line));
  // Opinion groups first: its own small database, the same sizes in quick runs.
  const rows: BenchRow[] = await benchGrouping(log);
  const size = `${fmt(sizes.topics)} topics / ${fmt(sizes.responses)} responses`;

  const dataDir = mkdtempSync(join(tmpdir(), 'crux-bench-server-'));
  const profileDir = profile ? mkdtempSync(join(tmpdir(), 'crux-bench-profile-')) : undefined;
  let emulator: RunningEmulator | null = null;
  let build: { outDir: string; remove(): void } | null = null;
  const running: RunningProcess[] = [];
  try {
    // The build and the emulator start while this process seeds.
    const building = buildServerForBench();
    const emulating = useEmulator ? startAuthEmulator() : Promise.resolve(null);
    building.catch(() => {});
    emulating.catch(() => {});
    log(`seeding ${size} / ${fmt(sizes.upvotes)} upvotes into ${dataDir}/crux.sqlite…`);
    const t0 = performance.now();
    const seedDb = openDatabase(join(dataDir, 'crux.sqlite'));
    const seeded = seedLarge(seedDb, sizes);
    // Where the varied pulls start from: checkpoints spread over the topics' and the big topic's seqs.
    const seqRange = (sql: string, ...params: string[]) => seedDb.prepare<string[], SeqRange>(sql).get(...params)!;
    const topicSeqs = seqRange('SELECT min(seq) AS lo, max(seq) AS hi FROM topics');
    const bigSeqs = seqRange('SELECT min(seq) AS lo, max(seq) AS hi FROM responses WHERE topic_id = ?', seeded.bigTopicId);
    const bigRootCursors = rootCursors(seedDb, seeded.bigTopicId, 100);
    seedDb.close();
    const seedSeconds = (performance.now() - t0) / 1000;
    rows.push({ name: 'server: seed (direct SQLite, one transaction)', value: Math.round(seedSeconds), unit: 's', note: size });
    log(`seeded in ${seedSeconds.toFixed(1)} s`);
    [build, emulator] = await Promise.all([building, emulating]);

    const crux = await startCruxProcess({
      outDir: build.outDir,
      dataDir,
      emulatorHost: emulator?.host,
      profileDir,
      // GET /metrics on the main port: the event loop's longest delay during each varied row.
      env: { METRICS_TOKEN },
    });
    running.push(crux);
    log(`server: node ${build.outDir}/main.js, pid ${crux.pid}, ${crux.url}, SERVER_PROCESSES=${process.env.BENCH_SERVER_PROCESSES ?? 1}`);
    // The baseline answers the very page the server answers.
    const pageFile = join(dataDir, 'hot-page.json');
    writeFileSync(pageFile, await (await fetch(`${crux.url}/api/topics?sort=hot`)).text());
    const bare = await startBareProcess(pageFile);
    running.push(bare);

    const run = async (name: string, options: Record<string, unknown>, vary?: Vary) => {
      const result = await cannon({ connections, duration: seconds, ...options }, vary);
      log(
        `${name}: ${Math.round(result.requestsPerSecond)} req/s, p50 ${result.latencyP50} ms, p99 ${result.latencyP99} ms` +
          (result.non2xx || result.errors ? ` (non-2xx ${result.non2xx}, errors ${result.errors})` : ''),
      );
      if (result.non2xx > 0 || result.errors > 0) throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
      return result;
    };

    const bareBytes = await run('bare Hono route, precomputed bytes', { url: `${bare.url}/bare/bytes` });
    const bareJson = await run('bare Hono route, c.json per request', { url: `${bare.url}/bare/json` });
    rows.push({
      name: 'baseline: bare Hono route, precomputed JSON bytes (same 20 topics)',
      value: Math.round(bareBytes.requestsPerSecond),
      unit: 'req/s',
      note: `own process; p99 ${bareBytes.latencyP99} ms`,
    });
    rows.push({
      name: 'baseline: bare Hono JSON route (same 20 topics)',
      value: Math.round(bareJson.requestsPerSecond),
      unit: 'req/s',
      note: `c.json per request, own process; p99 ${bareJson.latencyP99} ms`,
    });
    // The budget is a share of the ceiling (precomputed bytes); the share of c.json is in the note.
    const ratioRow = (name: string, result: Measured, budget: number) =>
      rows.push({
        name,
        value: Number((result.requestsPerSecond / bareBytes.requestsPerSecond).toFixed(2)),
        unit: 'x bare',
        budget,
        higherIsBetter: true,
        note:
          `${fmt(result.requestsPerSecond)} req/s, p99 ${result.latencyP99} ms; bare ${fmt(bareBytes.requestsPerSecond)} (bytes) / ` +
          `${fmt(bareJson.requestsPerSecond)} (c.json) req/s; ${(result.requestsPerSecond / bareJson.requestsPerSecond).toFixed(2)} of c.json`,
      });

    const hot = await run('GET /api/topics?sort=hot', { url: `${crux.url}/api/topics?sort=hot` });
    ratioRow(`server: GET /api/topics?sort=hot, ${connections} connections`, hot, 0.4);
    rows.push({ name: 'server: GET /api/topics?sort=hot p99', value: hot.latencyP99, unit: 'ms', budget: 25 });

    let auth: Record<string, string> | null = null;
    if (emulator) {
      auth = { authorization: `Bearer ${await emulatorToken(emulator.host)}` };
      // The first signed-in call records the user (as the app's first sync does).
      const first = await fetch(`${crux.url}/api/follows`, { headers: auth });
      if (!first.ok) throw new Error(`GET /api/follows with an emulator token answered ${first.status}`);
      const hotReal = await run('GET /api/topics?sort=hot + bearer (firebase-admin + emulator)', {
        url: `${crux.url}/api/topics?sort=hot`,
        headers: auth,
      });
      ratioRow('server: GET /api/topics?sort=hot, bearer token (firebase-admin verifier, Auth emulator)', hotReal, 0.3);
    } else log('BENCH_EMULATOR=0: the signed-in rows (bearer token, POST, sync push) are skipped');

    const search = await run('GET /api/topics?search=energy', { url: `${crux.url}/api/topics?sort=hot&search=energy` });
    rows.push({
      name: 'server: GET /api/topics?search=energy p99',
      value: search.latencyP99,
      unit: 'ms',
      budget: 50,
      note: `${fmt(search.requestsPerSecond)} req/s; the same word each time (served from the page cache)`,
    });
    const words = [...new Set(SEED_WORDS)];
    const sorts = ['hot', 'new', 'top'];
    const varied = await run(
      'GET /api/topics?search=<a different word each request>',
      { url: `${crux.url}/api/topics` },
      { kind: 'search', words, sorts },
    );
    rows.push({
      name: 'server: GET /api/topics?search=<a different word each request> p99',
      value: varied.latencyP99,
      unit: 'ms',
      budget: 50,
      note: `${fmt(varied.requestsPerSecond)} req/s; ${words.length} title words × ${sorts.length} sorts in turn (more pages than the cache keeps)`,
    });

    rows.push(
      ...(await variedRows({ crux: crux.url, bare: bare.url, run, connections, sizes, seeded, topicSeqs, bigSeqs, bigRootCursors })),
    );

    const leaderboard = await run('GET /api/users/leaderboard', { url: `${crux.url}/api/users/leaderboard` });
    ratioRow('server: GET /api/users/leaderboard', leaderboard, 0.4);

    const page = await run(`GET /api/responses?topic_id= (${connections} connections)`, {
      url: `${crux.url}/api/responses?topic_id=${seeded.bigTopicId}`,
    });
    rows.push({
      name: `server: GET /api/responses?topic_id= (${fmt(sizes.bigTopicRoots)}-root topic, first page: ${RESPONSES_ANSWER_MAX}) p99`,
      value: page.latencyP99,
      unit: 'ms',
      budget: 250,
      note: `${connections} connections, ${fmt(page.requestsPerSecond)} req/s, mean ${page.latencyMean.toFixed(1)} ms`,
    });

    // A user's page and a topic's stance totals cost the same whatever the size behind them.
    const userPage = await run('GET /api/users/{uid}', { url: `${crux.url}/api/users/${seeded.prolificUid}` });
    rows.push({
      name: `server: GET /api/users/{uid} p99 (a user with ${fmt(Math.min(PROLIFIC_RESPONSES, sizes.bigTopicRoots))} responses)`,
      value: userPage.latencyP99,
      unit: 'ms',
      // The budget in docs/BENCHMARKS.md for both rows: p99 ≤ 25 ms under 50 connections.
      budget: 25,
      note: `${fmt(userPage.requestsPerSecond)} req/s`,
    });
    const stances = await run('GET /api/topics/{id}/stances', { url: `${crux.url}/api/topics/${seeded.bigTopicId}/stances` });
    rows.push({
      name: `server: GET /api/topics/{id}/stances p99 (a ${fmt(sizes.bigTopicRoots)}-response topic)`,
      value: stances.latencyP99,
      unit: 'ms',
      budget: 25,
      note: `${fmt(stances.requestsPerSecond)} req/s`,
    });

    // The sync pull of a followed topic: the first page of the big topic's responses (each root cites
    // one or two sources, read for the whole page in one query), as the app asks for it.
    const pullPage = await run(`sync pull of responses, ${PULL_ANSWER_MAX} per page (4 connections)`, {
      url: `${crux.url}/api/sync/responses/pull?topic_id=${seeded.bigTopicId}&limit=${PULL_ANSWER_MAX}`,
      connections: 4,
    });
    rows.push({
      name: `server: sync pull of responses, big topic, ${PULL_ANSWER_MAX} per page`,
      value: Math.round(pullPage.requestsPerSecond * PULL_ANSWER_MAX),
      unit: 'docs/s',
      note: `${fmt(pullPage.requestsPerSecond)} req/s, p99 ${pullPage.latencyP99} ms`,
    });

    // The writes last: they change the pages the reads above measured.
    if (auth) {
      const json = { ...auth, 'content-type': 'application/json' };
      const post = await run(
        'POST /api/responses (random topics)',
        { url: `${crux.url}/api/responses`, method: 'POST', headers: json },
        { kind: 'response', topics: sizes.topics },
      );
      rows.push({
        name: 'server: POST /api/responses (random topics)',
        value: Math.round(post.requestsPerSecond),
        unit: 'req/s',
        budget: 2000,
        higherIsBetter: true,
      });
      rows.push({ name: 'server: POST /api/responses p99', value: post.latencyP99, unit: 'ms', budget: 50 });

      const pushedResponses = await run(
        'sync push, 50 response creates per request',
        { url: `${crux.url}/api/sync/responses/push`, method: 'POST', headers: json, connections: 10 },
        { kind: 'response-push', topics: sizes.topics, batch: 50 },
      );
      rows.push({
        name: 'server: sync push, 50 response creates per request (random topics)',
        value: Math.round(pushedResponses.requestsPerSecond * 50),
        unit: 'docs/s',
        budget: 5000,
        higherIsBetter: true,
        note: `${fmt(pushedResponses.requestsPerSecond)} req/s, p99 ${pushedResponses.latencyP99} ms`,
      });
      const pushed = await run(
        'sync push, 50 topic creates per request',
        { url: `${crux.url}/api/sync/topics/push`, method: 'POST', headers: json, connections: 10 },
        { kind: 'topic-push', batch: 50 },
      );
      rows.push({
        name: 'server: sync push, 50 topic creates per request',
        value: Math.round(pushed.requestsPerSecond * 50),
        unit: 'docs/s',
        budget: 5000,
        higherIsBetter: true,
        note: `${fmt(pushed.requestsPerSecond)} req/s, p99 ${pushed.latencyP99} ms`,
      });
    }
  } finally {
    for (const process of running.reverse()) await process.stop();
    await emulator?.stop();
    build?.remove();
    rmSync(dataDir, { recursive: true, force: true });
    if (profileDir) log(`server CPU profile: ${serverProfile(profileDir) ?? `none written into ${profileDir}`}`);
  }
  return rows;
}

interface SeqRange {
  lo: number;
  hi: number;
}

const METRICS_TOKEN = `bench-metrics-${process.pid}-${Date.now()}`;

/**
 * The event loop's longest delay since the last scrape (prom-client's nodejs_eventloop_lag_max_seconds,
 * reset by each scrape), in ms: scraped before a row to start afresh, and after it to read the row's.
 */
async function loopMaxMs(url: string): Promise<number> {
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  if (!res.ok) throw new Error(`GET /metrics answered ${res.status}`);
  const found = /^nodejs_eventloop_lag_max_seconds\s+([\d.e+-]+)$/m.exec(await res.text());
  return found ? Math.round(Number(found[1]) * 1000) : NaN;
}

interface VariedRowsInput {
  crux: string;
  bare: string;
  run: (name: string, options: Record<string, unknown>, vary?: Vary) => Promise<Measured>;
  connections: number;
  sizes: LargeSeedSizes;
  seeded: { bigTopicId: string };
  topicSeqs: SeqRange;
  bigSeqs: SeqRange;
  bigRootCursors: string[];
}

/** `count` whole numbers spread evenly from lo to hi (the checkpoints and sizes a varied row takes in turn). */
function spread(lo: number, hi: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => Math.round(lo + ((hi - lo) * i) / Math.max(1, count - 1)));
}

/**
 * Rows where every request differs, as users' do (a search word, sort and size; the topic read; a
 * pull's checkpoint; a page size): nothing the server kept for the request before answers it. Each row
 * is paired with a run of the bare route just before it (bare-server.mjs, its own process): the
 * machine is shared, so the ratio of the two, taken minutes apart at most, says more than either
 * alone. The note gives the event loop's longest delay during the row, read from the server's
 * /metrics: a large page made in one turn shows there as the time every other request waited.
 */
async function variedRows(input: VariedRowsInput): Promise<BenchRow[]> {
  const { crux, bare, run, connections, sizes, seeded, topicSeqs, bigSeqs, bigRootCursors } = input;
  const rows: BenchRow[] = [];
  const varied = async (label: string, vary: Vary, p99Budget: number, options: Record<string, unknown> = {}) => {
    const baseline = await run(`bare Hono route, before "${label}"`, { url: `${bare}/bare/bytes` });
    await loopMaxMs(crux);
    const result = await run(label, { url: `${crux}/`, ...options }, vary);
    const loopMax = await loopMaxMs(crux);
    const ratio = result.requestsPerSecond / baseline.requestsPerSecond;
    rows.push({
      name: `server (varied): ${label} p99`,
      value: result.latencyP99,
      unit: 'ms',
      budget: p99Budget,
      note:
        `${fmt(result.requestsPerSecond)} req/s = ${ratio.toFixed(3)} x bare (${fmt(baseline.requestsPerSecond)} req/s just before); ` +
        `p50 ${result.latencyP50} ms; event loop's longest delay ${loopMax} ms; ${connections} connections`,
    });
    rows.push({
      name: `server (varied): ${label}, event loop's longest delay`,
      value: loopMax,
      unit: 'ms',
      // A turn longer than this is a wait every other request shares.
      budget: 100,
    });
  };
  const topicIds = spread(0, sizes.topics - 1, 200).map((i) => (i === 0 ? seeded.bigTopicId : `bench-topic-${i}`));

  await varied(
    'GET /api/topics?search=<word>&sort=<sort>&limit=<size>',
    { kind: 'search', words: [...new Set(SEED_WORDS)], sorts: ['hot', 'new', 'top'], limits: [10, 20, 50, 100] },
    50,
    { url: `${crux}/api/topics` },
  );
  await varied('GET /api/topics/{id} (200 topics in turn)', { kind: 'paths', paths: topicIds.map((id) => `/api/topics/${id}`) }, 25);
  const midTopics = spread(topicSeqs.lo + Math.floor((topicSeqs.hi - topicSeqs.lo) / 4), topicSeqs.hi - 1_000, 100);
  // Pulls ask for 1,000, as an older app did; the server answers at most PULL_ANSWER_MAX.
  await varied(
    `sync pull of topics, limit=1000 (${PULL_ANSWER_MAX} answered) from a checkpoint (100 checkpoints in turn)`,
    { kind: 'paths', paths: midTopics.map((seq) => `/api/sync/topics/pull?seq=${seq}&limit=1000`) },
    250,
  );
  const bigFrom = spread(bigSeqs.lo - 1, Math.max(bigSeqs.lo - 1, bigSeqs.hi - 1_000), 100);
  await varied(
    `sync pull of the big topic's responses, limit=1000 (${PULL_ANSWER_MAX} answered) from a checkpoint (100 in turn)`,
    { kind: 'paths', paths: bigFrom.map((seq) => `/api/sync/responses/pull?topic_id=${seeded.bigTopicId}&seq=${seq}&limit=1000`) },
    250,
  );
  await varied(
    "GET /api/responses/mappings, the big topic's first page (4,001–5,000 pairs in turn)",
    { kind: 'paths', paths: spread(4_001, 5_000, 100).map((n) => `/api/responses/mappings?topic_id=${seeded.bigTopicId}&limit=${n}`) },
    250,
  );
  await varied(
    `GET /api/responses?topic_id=, the big topic's roots, limit=1000 (${RESPONSES_ANSWER_MAX} answered) from a cursor (100 in turn)`,
    { kind: 'paths', paths: bigRootCursors.map((cursor) => `/api/responses?topic_id=${seeded.bigTopicId}&limit=1000&cursor=${cursor}`) },
    250,
  );
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
