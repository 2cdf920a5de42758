// `npm run bench -- processes`: what SERVER_PROCESSES=N buys on this machine (issue 28 #2). The seeded
// file is copied, and the compiled server is started twice at once, once per copy: with 1 process and
// with 2 (BENCH_PROCESS_COUNTS, default "1,2"); the idle one costs nothing while the other is measured.
// Each row is then measured in turns, BENCH_ROUNDS times (default 4), in the order A B, B A, A B… so
// that the load of other programs on a shared machine falls on both alike; the row reports the
// median and the best of each, with every measurement and the load average in its note. Rows: the
// hot list, a varied search, the leaderboard and POST /api/responses (random topics; needs the Auth
// emulator, so BENCH_EMULATOR=0 leaves it out). Sizes as `npm run bench -- server` (BENCH_QUICK=1).
// The server's CPU time per request (all its processes, from /proc: Linux) is the figure least moved
// by the machine's other load.
import { loadavg, tmpdir } from 'node:os';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startAuthEmulator, type RunningEmulator } from '../../scripts/auth-emulator.js';
import { openDatabase } from '../../sync-server/src/store/sqlite/connection.js';
import { buildServerForBench, startCruxProcess, type RunningProcess } from './processes.js';
import { largeSeedSizes, SEED_WORDS, seedLarge } from './seed.js';
import { cannon, emulatorToken, type Measured, type Vary } from './server.js';
import type { BenchRow } from './types.js';

const fmt = (n: number) => Math.round(n).toLocaleString('en');

/** CPU seconds (user + system) used so far by the process `pid` and its children (Linux's /proc; 0 elsewhere). */
function treeCpuSeconds(pid: number): number {
  const ticks = (stat: string) => {
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), cpu: Number(fields[11]) + Number(fields[12]) };
  };
  try {
    let total = ticks(readFileSync(`/proc/${pid}/stat`, 'utf8')).cpu;
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = ticks(readFileSync(`/proc/${entry}/stat`, 'utf8'));
        if (stat.ppid === pid) total += stat.cpu;
      } catch {
        // gone meanwhile
      }
    }
    return total / 100; // USER_HZ
  } catch {
    return 0;
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

interface Row {
  name: string;
  options: (url: string) => Record<string, unknown>;
  vary?: Vary;
}

export async function benchServerProcesses(log: (line: string) => void = (line) => console.error(line)): Promise<BenchRow[]> {
  const sizes = largeSeedSizes();
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 4));
  const counts = (process.env.BENCH_PROCESS_COUNTS ?? '1,2').split(',').map((value) => Number(value.trim()));
  const useEmulator = process.env.BENCH_EMULATOR !== '0';
  const rows: BenchRow[] = [];
  const root = mkdtempSync(join(tmpdir(), 'crux-bench-processes-'));
  let emulator: RunningEmulator | null = null;
  let build: { outDir: string; remove(): void } | null = null;
  const servers: RunningProcess[] = [];
  try {
    const building = buildServerForBench();
    const emulating = useEmulator ? startAuthEmulator() : Promise.resolve(null);
    building.catch(() => {});
    emulating.catch(() => {});
    log(`seeding ${fmt(sizes.topics)} topics / ${fmt(sizes.responses)} responses…`);
    const first = join(root, 'p0');
    mkdirSync(first);
    const seedDb = openDatabase(join(first, 'crux.sqlite'));
    seedLarge(seedDb, sizes);
    seedDb.pragma('wal_checkpoint(TRUNCATE)');
    seedDb.close();
    const dirs = counts.map((_, i) => join(root, `p${i}`));
    for (const dir of dirs.slice(1)) {
      mkdirSync(dir);
      copyFileSync(join(first, 'crux.sqlite'), join(dir, 'crux.sqlite'));
    }
    [build, emulator] = await Promise.all([building, emulating]);
    const token = emulator ? await emulatorToken(emulator.host) : null;
    for (const [i, count] of counts.entries()) {
      const crux = await startCruxProcess({
        outDir: build.outDir,
        dataDir: dirs[i]!,
        emulatorHost: emulator?.host,
        env: { SERVER_PROCESSES: String(count) },
      });
      servers.push(crux);
      // Warm-up: every process has compiled its hot paths and read its pages once.
      await cannon({ connections: 50, duration: 2, url: `${crux.url}/api/topics?sort=hot` });
      if (token) await fetch(`${crux.url}/api/follows`, { headers: { authorization: `Bearer ${token}` } }); // records the user
    }
    const measured: Row[] = [
      { name: 'GET /api/topics?sort=hot', options: (url) => ({ url: `${url}/api/topics?sort=hot` }) },
      {
        name: 'GET /api/topics?search=<a different word each request>',
        options: (url) => ({ url: `${url}/api/topics` }),
        vary: { kind: 'search', words: [...new Set(SEED_WORDS)], sorts: ['hot', 'new', 'top'] },
      },
      { name: 'GET /api/users/leaderboard', options: (url) => ({ url: `${url}/api/users/leaderboard` }) },
    ];
    if (token)
      measured.push({
        name: 'POST /api/responses (random topics)',
        options: (url) => ({
          url: `${url}/api/responses`,
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        }),
        vary: { kind: 'response', topics: sizes.topics },
      });

    for (const row of measured) {
      const results = counts.map(() => [] as Array<{ rps: number; p99: number; load: string; cpu: number; failed: number }>);
      for (let round = 0; round < rounds; round++) {
        const order = counts.map((_, i) => i);
        if (round % 2) order.reverse();
        for (const i of order) {
          const load = loadavg()[0]!.toFixed(1);
          const cpuBefore = treeCpuSeconds(servers[i]!.pid);
          const result: Measured = await cannon({ connections: 50, duration: seconds, ...row.options(servers[i]!.url) }, row.vary);
          const cpuPerRequest = ((treeCpuSeconds(servers[i]!.pid) - cpuBefore) / Math.max(1, result.total)) * 1e6;
          // Counted, not fatal: on a loaded machine the emulator's token check can time out (the other mode's turns still count).
          const failed = result.non2xx + result.errors;
          results[i]!.push({ rps: result.requestsPerSecond, p99: result.latencyP99, load, cpu: cpuPerRequest, failed });
          log(
            `${counts[i]} process(es), ${row.name}: ${fmt(result.requestsPerSecond)} req/s, p99 ${result.latencyP99} ms, ` +
              `server CPU ${fmt(cpuPerRequest)} µs a request (load ${load})${failed ? `, ${failed} not answered 2xx` : ''}`,
          );
        }
      }
      for (const [i, count] of counts.entries()) {
        const runs = results[i]!;
        rows.push({
          name: `processes: ${count}, ${row.name}, median of ${runs.length}`,
          value: Math.round(median(runs.map((run) => run.rps))),
          unit: 'req/s',
          note:
            `best ${fmt(Math.max(...runs.map((run) => run.rps)))} req/s, median p99 ${median(runs.map((run) => run.p99))} ms, ` +
            `median server CPU ${fmt(median(runs.map((run) => run.cpu)))} µs a request (all its processes); each: ` +
            runs
              .map((run) => `${fmt(run.rps)} (p99 ${run.p99}, load ${run.load}${run.failed ? `, ${run.failed} not 2xx` : ''})`)
              .join(', '),
        });
      }
    }
  } finally {
    for (const server of servers) await server.stop();
    await emulator?.stop();
    build?.remove();
    rmSync(root, { recursive: true, force: true });
  }
  return rows;
}
