// `npm run bench -- processes`: what SERVER_PROCESSES=N buys on this machine. The seeded
// file is copied, and the compiled server is started twice at once, once per copy: with 1 process and
// with 2 (BENCH_PROCESS_COUNTS, default "1,2"); the idle one costs nothing while the other is measured.
// Each row is then measured in turns, BENCH_ROUNDS times (default 4), in the order A B, B A, A B… so
// that the load of other programs on a shared machine falls on both alike; the row reports the
// median and the best of each, with every measurement and the load average in its note. Rows: every
// server row docs/BENCHMARKS.md budgets and one process misses: the hot list, the same signed in, the
// leaderboard (each as a share of the bare Hono route's precomputed bytes, bare-server.mjs in a process
// of its own, measured in the same turns), a varied search, POST /api/responses and a sync push of 50
// responses (random topics; the signed-in rows need the Auth emulator, so BENCH_EMULATOR=0 leaves them
// out). Sizes as `npm run bench -- server` (BENCH_QUICK=1).
// The server's CPU time per request (all its processes, from /proc: Linux) is the figure least moved
// by the machine's other load.
import { loadavg, tmpdir } from 'node:os';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startAuthEmulator, type RunningEmulator } from '../../scripts/auth-emulator.js';
import { openDatabase } from '../../sync-server/src/store/sqlite/connection.js';
import { buildServerForBench, startBareProcess, startCruxProcess, type RunningProcess } from './processes.js';
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
  /** Documents a request carries (a push): the row reports docs/s. */
  docsPerRequest?: number;
  /** The budget in docs/BENCHMARKS.md: a share of the bare route's precomputed bytes (ratio), or a rate (rate). */
  budget?: { kind: 'ratio' | 'rate'; value: number; p99?: number };
}

interface Run {
  rps: number;
  p99: number;
  load: string;
  cpu: number;
  failed: number;
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
  let bare: RunningProcess | null = null;
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
    // The baseline answers the very page the servers answer, from a process of its own.
    const pageFile = join(root, 'hot-page.json');
    writeFileSync(pageFile, await (await fetch(`${servers[0]!.url}/api/topics?sort=hot`)).text());
    bare = await startBareProcess(pageFile);
    await cannon({ connections: 50, duration: 2, url: `${bare.url}/bare/bytes` });

    const bearer = token ? { authorization: `Bearer ${token}` } : null;
    const measured: Row[] = [
      {
        name: 'GET /api/topics?sort=hot',
        options: (url) => ({ url: `${url}/api/topics?sort=hot` }),
        budget: { kind: 'ratio', value: 0.4 },
      },
    ];
    if (bearer)
      measured.push({
        name: 'GET /api/topics?sort=hot, bearer token',
        options: (url) => ({ url: `${url}/api/topics?sort=hot`, headers: bearer }),
        budget: { kind: 'ratio', value: 0.3 },
      });
    measured.push(
      {
        name: 'GET /api/users/leaderboard',
        options: (url) => ({ url: `${url}/api/users/leaderboard` }),
        budget: { kind: 'ratio', value: 0.4 },
      },
      {
        name: 'GET /api/topics?search=<a different word each request>',
        options: (url) => ({ url: `${url}/api/topics` }),
        vary: { kind: 'search', words: [...new Set(SEED_WORDS)], sorts: ['hot', 'new', 'top'] },
      },
    );
    if (bearer) {
      const json = { ...bearer, 'content-type': 'application/json' };
      measured.push(
        {
          name: 'POST /api/responses (random topics)',
          options: (url) => ({ url: `${url}/api/responses`, method: 'POST', headers: json }),
          vary: { kind: 'response', topics: sizes.topics },
          budget: { kind: 'rate', value: 2000, p99: 50 },
        },
        {
          name: 'sync push, 50 response creates per request (10 connections)',
          options: (url) => ({ url: `${url}/api/sync/responses/push`, method: 'POST', headers: json, connections: 10 }),
          vary: { kind: 'response-push', topics: sizes.topics, batch: 50 },
          docsPerRequest: 50,
          budget: { kind: 'rate', value: 5000 },
        },
      );
    }

    const measure = async (label: string, pid: number, row: Row, url: string): Promise<Run> => {
      const load = loadavg()[0]!.toFixed(1);
      const cpuBefore = treeCpuSeconds(pid);
      const result: Measured = await cannon({ connections: 50, duration: seconds, ...row.options(url) }, row.vary);
      const cpu = ((treeCpuSeconds(pid) - cpuBefore) / Math.max(1, result.total)) * 1e6;
      // Counted, not fatal: on a loaded machine the emulator's token check can time out (the other mode's turns still count).
      const failed = result.non2xx + result.errors;
      log(
        `${label}, ${row.name}: ${fmt(result.requestsPerSecond)} req/s, p99 ${result.latencyP99} ms, ` +
          `server CPU ${fmt(cpu)} µs a request (load ${load})${failed ? `, ${failed} not answered 2xx` : ''}`,
      );
      return { rps: result.requestsPerSecond, p99: result.latencyP99, load, cpu, failed };
    };
    const bareRow: Row = { name: 'bare Hono route, precomputed bytes', options: (url) => ({ url: `${url}/bare/bytes` }) };

    for (const row of measured) {
      const results = counts.map(() => [] as Run[]);
      const bareRuns: Run[] = [];
      for (let round = 0; round < rounds; round++) {
        // The baseline takes its turn among the servers' for a ratio row, in the same alternating order.
        const order: Array<number | 'bare'> = [...counts.map((_, i) => i), ...(row.budget?.kind === 'ratio' ? (['bare'] as const) : [])];
        if (round % 2) order.reverse();
        for (const i of order) {
          if (i === 'bare') bareRuns.push(await measure('bare', bare.pid, bareRow, bare.url));
          else results[i]!.push(await measure(`${counts[i]} process(es)`, servers[i]!.pid, row, servers[i]!.url));
        }
      }
      const bareMedian = bareRuns.length ? median(bareRuns.map((run) => run.rps)) : 0;
      for (const [i, count] of counts.entries()) {
        const runs = results[i]!;
        const rps = median(runs.map((run) => run.rps));
        const p99 = median(runs.map((run) => run.p99));
        const perDoc = row.docsPerRequest ?? 1;
        const each = runs
          .map((run) => `${fmt(run.rps)} (p99 ${run.p99}, load ${run.load}${run.failed ? `, ${run.failed} not 2xx` : ''})`)
          .join(', ');
        const cpu = `median server CPU ${fmt(median(runs.map((run) => run.cpu)))} µs a request (all its processes)`;
        const name = `processes: ${count}, ${row.name}, median of ${runs.length}`;
        if (row.budget?.kind === 'ratio') {
          rows.push({
            name,
            value: Number((rps / bareMedian).toFixed(2)),
            unit: 'x bare',
            budget: row.budget.value,
            higherIsBetter: true,
            note: `${fmt(rps)} req/s / bare bytes (one process) ${fmt(bareMedian)} req/s, median p99 ${p99} ms, ${cpu}; each: ${each}; bare each: ${bareRuns.map((run) => fmt(run.rps)).join(', ')}`,
          });
          continue;
        }
        rows.push({
          name,
          value: Math.round(rps * perDoc),
          unit: perDoc > 1 ? 'docs/s' : 'req/s',
          ...(row.budget ? { budget: row.budget.value, higherIsBetter: true } : {}),
          note: `best ${fmt(Math.max(...runs.map((run) => run.rps)) * perDoc)}, median p99 ${p99} ms, ${cpu}; each (req/s): ${each}`,
        });
        if (row.budget?.p99 !== undefined) rows.push({ name: `${name}, p99`, value: p99, unit: 'ms', budget: row.budget.p99 });
      }
    }
  } finally {
    for (const server of servers) await server.stop();
    await bare?.stop();
    await emulator?.stop();
    build?.remove();
    rmSync(root, { recursive: true, force: true });
  }
  return rows;
}
