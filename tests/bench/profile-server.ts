// Profiles the production server process under load:
//   npx tsx tests/bench/profile-server.ts [hot] [hot-signed-in] [search] [leaderboard] [reply] [push]
//     [topic] [pull-topics] [pull-responses] [mappings] [roots]   (default: all; the last five are the server
//     bench's varied rows, each request different)
// Seeds one site (the bench's seed: BENCH_QUICK=1 for 10,000 topics / 100,000 responses) into a DATA_DIR,
// compiles the server, and for each scenario starts `node --cpu-prof build/.../main.js` on that folder
// (processes.ts, as `npm run bench -- server` does), drives it for BENCH_SECONDS (5) with autocannon
// from another process, stops it (the profile is written at exit) and prints where the time went
// (profile-summary.ts) and the server's CPU time per request. The profiles stay in the printed folder
// (open them in Chrome DevTools). reply and push need the Auth emulator, started here.
// BENCH_SEEDED=<file.sqlite> copies an already seeded file (npm run bench:seed) instead of seeding
// (the full size takes 60–90 s to seed); each scenario then starts on a fresh copy of it, so the
// writes of one scenario do not change what the next one measures.
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAuthEmulator, type RunningEmulator } from '../../scripts/auth-emulator.js';
import { openDatabase } from '../../sync-server/src/store/sqlite/connection.js';
import { buildServerForBench, processCpuUs, serverProfile, startCruxProcess } from './processes.js';
import { formatSummary, summariseProfile } from './profile-summary.js';
import { largeSeedSizes, rootCursors, SEED_WORDS, seedLarge } from './seed.js';
import { cannon, emulatorToken, type Vary } from './server.js';

interface Scenario {
  path: string;
  method?: 'POST';
  signedIn?: boolean;
  connections?: number;
  vary?: Vary;
}

const sizes = largeSeedSizes();
/** The seeded site's change numbers, for the scenarios that start from a checkpoint (read once seeded). */
interface Site {
  topicSeqs: { lo: number; hi: number };
  bigSeqs: { lo: number; hi: number };
  rootCursors: string[];
}
/** n values from lo to hi, evenly spread (the server bench's varied rows ask the same). */
const spread = (lo: number, hi: number, n: number) =>
  Array.from({ length: n }, (_, i) => Math.round(lo + ((hi - lo) * i) / Math.max(1, n - 1)));
const BIG = 'bench-topic-big';
const paths = (list: string[]): Vary => ({ kind: 'paths', paths: list });
const SCENARIOS: Record<string, (site: Site) => Scenario> = {
  hot: () => ({ path: '/api/topics?sort=hot' }),
  'hot-signed-in': () => ({ path: '/api/topics?sort=hot', signedIn: true }),
  search: () => ({
    path: '/api/topics',
    vary: { kind: 'search', words: [...new Set(SEED_WORDS)], sorts: ['hot', 'new', 'top'], limits: [10, 20, 50, 100] },
  }),
  leaderboard: () => ({ path: '/api/users/leaderboard' }),
  reply: () => ({ path: '/api/responses', method: 'POST', signedIn: true, vary: { kind: 'response', topics: sizes.topics } }),
  push: () => ({
    path: '/api/sync/responses/push',
    method: 'POST',
    signedIn: true,
    connections: 10,
    vary: { kind: 'response-push', topics: sizes.topics, batch: 50 },
  }),
  // The server bench's varied rows (server.ts variedRows), one at a time.
  topic: () => ({
    path: '/',
    vary: paths(spread(0, sizes.topics - 1, 200).map((i) => `/api/topics/${i === 0 ? BIG : `bench-topic-${i}`}`)),
  }),
  'pull-topics': ({ topicSeqs: { lo, hi } }) => ({
    path: '/',
    vary: paths(spread(lo + Math.floor((hi - lo) / 4), hi - 1_000, 100).map((seq) => `/api/sync/topics/pull?seq=${seq}&limit=1000`)),
  }),
  'pull-responses': ({ bigSeqs: { lo, hi } }) => ({
    path: '/',
    vary: paths(
      spread(lo - 1, Math.max(lo - 1, hi - 1_000), 100).map((seq) => `/api/sync/responses/pull?topic_id=${BIG}&seq=${seq}&limit=1000`),
    ),
  }),
  mappings: () => ({ path: '/', vary: paths(spread(4_001, 5_000, 100).map((n) => `/api/responses/mappings?topic_id=${BIG}&limit=${n}`)) }),
  roots: ({ rootCursors: cursors }) => ({
    path: '/',
    vary: paths(cursors.map((cursor) => `/api/responses?topic_id=${BIG}&limit=1000&cursor=${cursor}`)),
  }),
};

/** The change numbers the checkpoint scenarios start from, read from the seeded file. */
function readSite(file: string): Site {
  const db = openDatabase(file);
  try {
    const range = (sql: string, ...args: unknown[]) => db.prepare(sql).get(...args) as { lo: number; hi: number };
    return {
      topicSeqs: range('SELECT min(seq) AS lo, max(seq) AS hi FROM topics'),
      bigSeqs: range('SELECT min(seq) AS lo, max(seq) AS hi FROM responses WHERE topic_id = ?', BIG),
      rootCursors: rootCursors(db, BIG, 100),
    };
  } finally {
    db.close();
  }
}

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !(name in SCENARIOS));
if (unknown.length > 0) {
  console.error(`Unknown scenario ${unknown.join(', ')}: choose from ${Object.keys(SCENARIOS).join(', ')}`);
  process.exit(2);
}
const names = asked.length > 0 ? asked : Object.keys(SCENARIOS);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const dataDir = mkdtempSync(join(tmpdir(), 'crux-prof-data-'));
const profiles = mkdtempSync(join(tmpdir(), 'crux-prof-'));
let emulator: RunningEmulator | null = null;
const build = await buildServerForBench();
try {
  if (names.some((name) => SCENARIOS[name]!({ topicSeqs: { lo: 0, hi: 0 }, bigSeqs: { lo: 0, hi: 0 }, rootCursors: [] }).signedIn)) {
    emulator = await startAuthEmulator();
  }
  const seeded = process.env.BENCH_SEEDED;
  if (seeded) {
    if (!existsSync(seeded)) throw new Error(`BENCH_SEEDED: no file ${seeded}`);
  } else {
    console.error(`seeding ${sizes.topics.toLocaleString('en')} topics / ${sizes.responses.toLocaleString('en')} responses…`);
    const db = openDatabase(join(dataDir, 'crux.sqlite'));
    seedLarge(db, sizes);
    db.close();
  }
  if (seeded) copySeeded(seeded, dataDir);
  const site = readSite(join(dataDir, 'crux.sqlite'));
  for (const name of names) {
    const scenario = SCENARIOS[name]!(site);
    if (seeded) copySeeded(seeded, dataDir);
    const profileDir = join(profiles, name);
    const crux = await startCruxProcess({ outDir: build.outDir, dataDir, emulatorHost: emulator?.host, profileDir });
    try {
      const headers: Record<string, string> = scenario.method ? { 'content-type': 'application/json' } : {};
      if (scenario.signedIn) {
        headers.authorization = `Bearer ${await emulatorToken(emulator!.host)}`;
        await fetch(`${crux.url}/api/follows`, { headers });
      }
      const cpuBefore = processCpuUs(crux.pid);
      const result = await cannon(
        {
          url: `${crux.url}${scenario.path}`,
          connections: scenario.connections ?? 50,
          duration: seconds,
          method: scenario.method ?? 'GET',
          headers,
        },
        scenario.vary,
      );
      const cpuUs = processCpuUs(crux.pid) - cpuBefore;
      console.log(
        `\n${name}: ${Math.round(result.requestsPerSecond)} req/s, p99 ${result.latencyP99} ms, ` +
          `server CPU ${Math.round(cpuUs / Math.max(1, result.total))} µs per request` +
          (result.non2xx || result.errors ? ` (non-2xx ${result.non2xx}, errors ${result.errors})` : ''),
      );
    } finally {
      await crux.stop();
    }
    const file = serverProfile(profileDir);
    console.log(file ? `${formatSummary(`${name}: ${file}`, summariseProfile(file))}` : `${name}: no profile written into ${profileDir}`);
  }
  console.log(`\nprofiles in ${profiles}`);
} finally {
  await emulator?.stop();
  build.remove();
  // The seeded site (about 200 MB quick, 1.1 GB full) goes with the run; the profiles stay.
  rmSync(dataDir, { recursive: true, force: true });
}

/** A fresh copy of a seeded file (and its WAL, if one is left) as dataDir's crux.sqlite. */
function copySeeded(file: string, dataDir: string) {
  for (const suffix of ['-wal', '-shm']) rmSync(join(dataDir, `crux.sqlite${suffix}`), { force: true });
  copyFileSync(file, join(dataDir, 'crux.sqlite'));
  if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, join(dataDir, 'crux.sqlite-wal'));
}
