// `npm run bench -- startup`: the server's start-up, run with tsx (TypeScript compiled at every
// start, as `npm run dev:server`) and compiled (`node build/server/main.js`, as `npm start` and
// production). Each start is a process of its own on a fresh SQLite folder: the time
// from spawn until /api/health answers, and the resident memory (RSS) once it has sat idle.
// BENCH_STARTUP_RUNS starts of each (5); the figures are medians. Not a test: no budget.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildServer } from '../../scripts/build-server.js';
import { freePort } from '../../scripts/free-port.js';
import type { BenchRow } from './types.js';

const ROOT = process.cwd();
const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 5);
/** How long a started server sits idle before its RSS is read. */
const IDLE_MS = 2000;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The process's resident set size in MB (Linux /proc; `ps` elsewhere would do the same). */
function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((row) => row.startsWith('VmRSS:'));
  return Number(line?.match(/\d+/)?.[0] ?? NaN) / 1024;
}

async function startOnce(args: string[]): Promise<{ ms: number; rss: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'crux-bench-startup-'));
  const port = await freePort();
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      STATIC_DIR: join(dataDir, 'no-build'),
      SEED_DEMO: 'false',
      MAIL_SCHEDULER: 'off',
      // /api/health asks no ID token: no emulator has to run.
      FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9',
    },
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
      if (performance.now() - started > 60_000) throw new Error(`${args.join(' ')} did not answer /api/health in 60 s`);
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (response) => response.ok,
        () => false,
      );
      if (ok) break;
      await sleep(5);
    }
    const ms = performance.now() - started;
    await sleep(IDLE_MS);
    return { ms, rss: rssMb(child.pid!) };
  } finally {
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function benchStartup(): Promise<BenchRow[]> {
  // Inside the repository: the compiled files import their packages from its node_modules.
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  const outDir = mkdtempSync(join(ROOT, '.tmp', 'bench-build-'));
  try {
    await buildServer(outDir);
    const ways = {
      tsx: ['--import', 'tsx', 'sync-server/src/main.ts'],
      compiled: ['--enable-source-maps', join(outDir, 'main.js')],
    };
    const results: Record<string, { ms: number[]; rss: number[] }> = { tsx: { ms: [], rss: [] }, compiled: { ms: [], rss: [] } };
    // Alternate the two, so a busy moment of the machine does not fall on one of them only.
    for (let run = 0; run < RUNS; run += 1) {
      for (const [way, args] of Object.entries(ways)) {
        const { ms, rss } = await startOnce(args);
        results[way]!.ms.push(ms);
        results[way]!.rss.push(rss);
      }
    }
    const note = `median of ${RUNS} starts`;
    return Object.entries(results).flatMap(([way, { ms, rss }]) => [
      { name: `server start-up, ${way} (spawn to /api/health)`, value: Math.round(median(ms)), unit: 'ms', note },
      { name: `server idle RSS, ${way} (${IDLE_MS / 1000} s after start)`, value: Math.round(median(rss) * 10) / 10, unit: 'MB', note },
    ]);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}
