// `npm run bench -- postgres`: the server's read and pull rows on both engines side by side
//. Seeds SQLite as the server bench does (BENCH_QUICK=1: a tenth), copies it into a
// throwaway PostgreSQL with the copy tool (timed: what `npm run db:copy-to-pg` costs), then measures
// the same requests against the production server over each engine, compiled and in a process of
// its own as in the server bench (tests/bench/processes.ts), and how long a commit on
// one process takes to reach another's live stream through LISTEN/NOTIFY; then the server bench's
// missed rows on each engine, PostgreSQL behind one server and behind two (server-pg-misses.ts;
// BENCH_PG_MISSES_ONLY=1: those rows alone). Not a test: no assertion on timing. Needs PostgreSQL
// (Debian's `postgresql`); without it the module reports why.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPgChangeFeed } from '../../sync-server/src/store/pg/change-feed.js';
import { openDatabase } from '../../sync-server/src/store/sqlite/connection.js';
import { copySqliteToPostgres } from '../../sync-server/src/store/pg/copy-from-sqlite.js';
import { startPostgres } from '../../scripts/local-postgres.js';
import { startAuthEmulator, type RunningEmulator } from '../../scripts/auth-emulator.js';
import { benchMissedRowsOnEngines } from './server-pg-misses.js';
import { buildServerForBench, startCruxProcess, type RunningProcess } from './processes.js';
import { largeSeedSizes, rootCursors, seedLarge } from './seed.js';
import { cannon, type Measured } from './server.js';
import type { BenchRow } from './types.js';
import { PULL_ANSWER_MAX } from '../../shared/sync-protocol.js';
import { RESPONSES_ANSWER_MAX } from '../../sync-server/src/routes/responses.js';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

export async function benchPostgres(log: (line: string) => void = (line) => console.error(line)): Promise<BenchRow[]> {
  const sizes = largeSeedSizes();
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  const size = `${sizes.topics.toLocaleString('en')} topics / ${sizes.responses.toLocaleString('en')} responses`;
  const rows: BenchRow[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'crux-bench-pg-'));
  const pgDataDir = mkdtempSync(join(tmpdir(), 'crux-bench-pg-data-'));
  const pgSecondDataDir = mkdtempSync(join(tmpdir(), 'crux-bench-pg-data-'));
  const missesOnly = process.env.BENCH_PG_MISSES_ONLY === '1';
  const building = buildServerForBench();
  building.catch(() => {});
  // The signed-in rows (the writes) check real ID tokens from the Auth emulator.
  const emulating = startAuthEmulator();
  emulating.catch(() => {});
  const postgres = await startPostgres();
  const running: RunningProcess[] = [];
  let emulator: RunningEmulator | null = null;
  try {
    log(`postgres: seeding SQLite with ${size}…`);
    const db = openDatabase(join(dir, 'crux.sqlite'));
    const seeded = seedLarge(db, sizes);
    const range = (sql: string, ...args: unknown[]) => db.prepare(sql).get(...args) as { lo: number; hi: number };
    const topicSeqs = range('SELECT min(seq) AS lo, max(seq) AS hi FROM topics');
    const bigSeqs = range('SELECT min(seq) AS lo, max(seq) AS hi FROM responses WHERE topic_id = ?', seeded.bigTopicId);
    const bigRootCursors = rootCursors(db, seeded.bigTopicId, 100);
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

    // Each engine behind the production server, compiled and in its own process:
    // SQLite on the seeded DATA_DIR, PostgreSQL on the copy (DATABASE_URL).
    const build = await building;
    emulator = await emulating;
    const pgServer = (dataDir: string) =>
      startCruxProcess({
        outDir: build.outDir,
        dataDir,
        emulatorHost: emulator!.host,
        env: { DATABASE_URL: postgres.url, PG_POOL_MAX: '20' },
      });
    const engines = {
      SQLite: await startCruxProcess({ outDir: build.outDir, dataDir: dir, emulatorHost: emulator.host }),
      PostgreSQL: await pgServer(pgDataDir),
    };
    running.push(...Object.values(engines));
    const urls: Record<string, string> = Object.fromEntries(Object.entries(engines).map(([name, server]) => [name, server.url]));
    const measures: Array<{
      name: string;
      path: string;
      /** Each request a different one of these paths (the server bench's varied rows). */
      paths?: string[];
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
        name: `GET /api/responses?topic_id= (big topic, first page: ${RESPONSES_ANSWER_MAX})`,
        path: `/api/responses?topic_id=${seeded.bigTopicId}`,
        connections: 1,
        row: (m) => ({ value: Number(m.latencyMean.toFixed(1)), unit: 'ms', budget: 50, note: `mean; p99 ${m.latencyP99} ms` }),
      },
      {
        name: `sync pull of responses, big topic, ${PULL_ANSWER_MAX} per page`,
        path: `/api/sync/responses/pull?topic_id=${seeded.bigTopicId}&limit=${PULL_ANSWER_MAX}`,
        connections: 4,
        row: (m) => ({
          value: Math.round(m.requestsPerSecond * PULL_ANSWER_MAX),
          unit: 'docs/s',
          note: `${Math.round(m.requestsPerSecond)} req/s, p99 ${m.latencyP99} ms`,
        }),
      },
      // The server bench's varied rows (server.ts variedRows): large pages, every request a different one.
      ...variedMeasures(seeded.bigTopicId, sizes.topics, topicSeqs, bigSeqs, bigRootCursors),
    ];
    for (const measure of missesOnly ? [] : measures) {
      for (const engine of Object.keys(engines)) {
        const vary = measure.paths ? { kind: 'paths' as const, paths: measure.paths } : undefined;
        const result = await cannon({ url: `${urls[engine]}${measure.path}`, connections: measure.connections, duration: seconds }, vary);
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

    // The missed rows on each engine; PostgreSQL also behind a second server on the same database.
    const pgSecond = await pgServer(pgSecondDataDir);
    running.push(pgSecond);
    rows.push(
      ...(await benchMissedRowsOnEngines({
        engines: [
          { label: 'sqlite, 1 process', urls: [engines.SQLite.url] },
          { label: 'postgres, 1 server', urls: [engines.PostgreSQL.url] },
          { label: 'postgres, 2 servers', urls: [engines.PostgreSQL.url, pgSecond.url] },
        ],
        emulatorHost: emulator.host,
        topics: sizes.topics,
        seconds,
        log,
      })),
    );
  } finally {
    for (const server of running) await server.stop();
    await (emulator ?? (await emulating.catch(() => null)))?.stop();
    await building.then(
      (built) => built.remove(),
      () => {},
    );
    await postgres.stop();
    rmSync(dir, { recursive: true, force: true });
    rmSync(pgDataDir, { recursive: true, force: true });
    rmSync(pgSecondDataDir, { recursive: true, force: true });
  }
  return rows;
}

/** n values from lo to hi, evenly spread. */
const spread = (lo: number, hi: number, n: number) =>
  Array.from({ length: n }, (_, i) => Math.round(lo + ((hi - lo) * i) / Math.max(1, n - 1)));

/** The varied large-page rows, 50 connections, p99 against the server bench's budgets. */
function variedMeasures(
  big: string,
  topics: number,
  topicSeqs: { lo: number; hi: number },
  bigSeqs: { lo: number; hi: number },
  bigRootCursors: string[],
) {
  const p99 = (budget: number) => (m: Measured) => ({
    value: m.latencyP99,
    unit: 'ms',
    budget,
    note: `${Math.round(m.requestsPerSecond)} req/s, p50 ${m.latencyP50} ms; every request different`,
  });
  const { lo, hi } = topicSeqs;
  return [
    {
      name: 'GET /api/topics/{id} (200 topics in turn) p99',
      path: '/',
      paths: spread(0, topics - 1, 200).map((i) => `/api/topics/${i === 0 ? big : `bench-topic-${i}`}`),
      connections: 50,
      row: p99(25),
    },
    {
      name: `sync pull of topics, limit=1000 (${PULL_ANSWER_MAX} answered) from a checkpoint (100 in turn) p99`,
      path: '/',
      paths: spread(lo + Math.floor((hi - lo) / 4), hi - 1_000, 100).map((seq) => `/api/sync/topics/pull?seq=${seq}&limit=1000`),
      connections: 50,
      row: p99(250),
    },
    {
      name: `sync pull of the big topic's responses, limit=1000 (${PULL_ANSWER_MAX} answered) from a checkpoint (100 in turn) p99`,
      path: '/',
      paths: spread(bigSeqs.lo - 1, Math.max(bigSeqs.lo - 1, bigSeqs.hi - 1_000), 100).map(
        (seq) => `/api/sync/responses/pull?topic_id=${big}&seq=${seq}&limit=1000`,
      ),
      connections: 50,
      row: p99(250),
    },
    {
      name: "GET /api/responses/mappings, the big topic's first page (4,001–5,000 pairs in turn) p99",
      path: '/',
      paths: spread(4_001, 5_000, 100).map((n) => `/api/responses/mappings?topic_id=${big}&limit=${n}`),
      connections: 50,
      row: p99(250),
    },
    {
      name: `GET /api/responses?topic_id=, the big topic's roots, limit=1000 (${RESPONSES_ANSWER_MAX} answered) from a cursor (100 in turn) p99`,
      path: '/',
      paths: bigRootCursors.map((cursor) => `/api/responses?topic_id=${big}&limit=1000&cursor=${cursor}`),
      connections: 50,
      row: p99(250),
    },
  ];
}
