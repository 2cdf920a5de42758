// The processes of `npm run bench -- server`: the production server compiled and run
// as `npm start` runs it (`node build/server/main.js`), in a process of its own on its own data
// folder, and the bare Hono baseline in another (bare-server.mjs). The load generator is a third
// (autocannon-worker.mjs, forked per measurement). Nothing here shares an event loop with the
// server it measures, so a ratio to the bare route is a ratio to the stack's own ceiling.
// BENCH_SERVER_PROCESSES=N starts the server with SERVER_PROCESSES=N (a primary and N serving
// processes on the one SQLite file; with --cpu-prof each writes its own profile).
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { buildServer } from '../../scripts/build-server.js';
import { freePort } from '../../scripts/free-port.js';

const ROOT = process.cwd();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface RunningProcess {
  url: string;
  pid: number;
  /** Ends the process (SIGTERM: the server drains and exits, so a --cpu-prof profile is written). */
  stop(): Promise<void>;
}

/** A process's user + system CPU time so far, in µs (Linux /proc/<pid>/stat, clock ticks of 10 ms). */
export function processCpuUs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** The server compiled into a fresh folder under .tmp/ (its imports resolve from the repository's node_modules). */
export async function buildServerForBench(): Promise<{ outDir: string; remove(): void }> {
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  const outDir = mkdtempSync(join(ROOT, '.tmp', 'bench-build-'));
  await buildServer(outDir);
  return { outDir, remove: () => rmSync(outDir, { recursive: true, force: true }) };
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
  });
}

async function stopChild(child: ChildProcess, graceMs = 30_000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited(child);
  clearTimeout(timer);
}

export interface CruxProcessOptions {
  outDir: string;
  /** DATA_DIR: holds crux.sqlite (seeded before the start). */
  dataDir: string;
  /** FIREBASE_AUTH_EMULATOR_HOST; without an emulator an address nothing answers (no signed-in request is made then). */
  emulatorHost?: string;
  /** Writes a CPU profile (--cpu-prof) into this folder when the server exits. */
  profileDir?: string;
  /** More of the server's environment (DATABASE_URL, PG_POOL_MAX for PostgreSQL). */
  env?: Record<string, string>;
}

/** `node build/server/main.js` with the environment of a production start, rate and moderation limits off. */
export async function startCruxProcess(opts: CruxProcessOptions): Promise<RunningProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: opts.dataDir,
    STATIC_DIR: join(opts.dataDir, 'no-build'),
    SEED_DEMO: 'false',
    MAIL_SCHEDULER: 'off',
    RATE_LIMITS: 'off',
    MODERATION_LIMITS: 'off',
    FIREBASE_AUTH_EMULATOR_HOST: opts.emulatorHost ?? '127.0.0.1:9',
    // BENCH_SERVER_PROCESSES=N: the SQLite file served by N processes (SERVER_PROCESSES, docs/OPERATIONS.md).
    ...(process.env.BENCH_SERVER_PROCESSES ? { SERVER_PROCESSES: process.env.BENCH_SERVER_PROCESSES } : {}),
    ...opts.env,
  };
  // Production's own level (info, every request logged): not whatever the shell running the bench set.
  // BENCH_SERVER_LOG_LEVEL sets another (e.g. silent, to see what the request lines cost).
  delete env.LOG_LEVEL;
  if (process.env.BENCH_SERVER_LOG_LEVEL) env.LOG_LEVEL = process.env.BENCH_SERVER_LOG_LEVEL;
  const profile = opts.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${opts.profileDir}`] : [];
  // The log lines go to /dev/null: written as in production, not read.
  const child = spawn(process.execPath, [...profile, '--enable-source-maps', join(opts.outDir, 'main.js')], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env,
  });
  const started = performance.now();
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} before it served`);
      if (performance.now() - started > 120_000) throw new Error('the server did not answer /api/ready in 120 s');
      const ready = await fetch(`${url}/api/ready`).then(
        (response) => response.ok,
        () => false,
      );
      if (ready) break;
      await sleep(50);
    }
  } catch (error) {
    await stopChild(child, 1000);
    throw error;
  }
  return { url, pid: child.pid!, stop: () => stopChild(child) };
}

/**
 * The server's main-thread profile in a folder: the largest .cpuprofile (its worker threads, the WAL
 * checkpointer among them, write small ones of their own beside it).
 */
export function serverProfile(dir: string): string | undefined {
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => join(dir, name));
  return files.sort((a, b) => statSync(b).size - statSync(a).size)[0];
}

const bareFile = fileURLToPath(new URL('./bare-server.mjs', import.meta.url));

/** The bare Hono baseline in its own process, answering `pageFile`'s JSON: /bare/bytes (precomputed) and /bare/json (c.json per request). */
export async function startBareProcess(pageFile: string): Promise<RunningProcess> {
  const child = fork(bareFile, [pageFile], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message: { port: number }) => resolve(message.port));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the bare Hono process exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => stopChild(child) };
}
