// `npm run bench -- processes`: what SERVER_PROCESSES=N buys on this machine (issue 28 #2), as a
// back-to-back comparison on one seeded file: the compiled server started with 1 process, measured,
// stopped, then with 2 (BENCH_PROCESS_COUNTS, default "1,2"), and the pair repeated BENCH_ROUNDS times
// (default 2), so a load spike from another program shows as a disagreement between rounds rather
// than as a difference between modes. Each start is warmed up for a second on the hot list before it
// is measured. Rows: the hot list, a varied search, the leaderboard and POST /api/responses (random
// topics; needs the Auth emulator, so BENCH_EMULATOR=0 leaves it out), each noting the load average
// when the measurement began. Sizes as `npm run bench -- server` (BENCH_QUICK=1: 10k topics).
import { loadavg, tmpdir } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startAuthEmulator, type RunningEmulator } from '../../scripts/auth-emulator.js';
import { openDatabase } from '../../sync-server/src/store/sqlite/connection.js';
import { buildServerForBench, startCruxProcess } from './processes.js';
import { largeSeedSizes, SEED_WORDS, seedLarge } from './seed.js';
import { cannon, emulatorToken, type Measured, type Vary } from './server.js';
import type { BenchRow } from './types.js';

const fmt = (n: number) => Math.round(n).toLocaleString('en');

export async function benchServerProcesses(log: (line: string) => void = (line) => console.error(line)): Promise<BenchRow[]> {
  const sizes = largeSeedSizes();
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 2));
  const counts = (process.env.BENCH_PROCESS_COUNTS ?? '1,2').split(',').map((value) => Number(value.trim()));
  const useEmulator = process.env.BENCH_EMULATOR !== '0';
  const rows: BenchRow[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'crux-bench-processes-'));
  let emulator: RunningEmulator | null = null;
  let build: { outDir: string; remove(): void } | null = null;
  try {
    const building = buildServerForBench();
    const emulating = useEmulator ? startAuthEmulator() : Promise.resolve(null);
    building.catch(() => {});
    emulating.catch(() => {});
    log(`seeding ${fmt(sizes.topics)} topics / ${fmt(sizes.responses)} responses…`);
    const seedDb = openDatabase(join(dataDir, 'crux.sqlite'));
    seedLarge(seedDb, sizes);
    seedDb.close();
    [build, emulator] = await Promise.all([building, emulating]);
    const token = emulator ? await emulatorToken(emulator.host) : null;

    for (let round = 1; round <= rounds; round++) {
      for (const count of counts) {
        const crux = await startCruxProcess({
          outDir: build.outDir,
          dataDir,
          emulatorHost: emulator?.host,
          env: { SERVER_PROCESSES: String(count) },
        });
        try {
          const measure = async (name: string, options: Record<string, unknown>, vary?: Vary): Promise<Measured> => {
            const load = loadavg()[0]!.toFixed(1);
            const result = await cannon({ connections: 50, duration: seconds, ...options }, vary);
            if (result.non2xx > 0 || result.errors > 0)
              throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
            log(
              `round ${round}, ${count} process(es), ${name}: ${fmt(result.requestsPerSecond)} req/s, p99 ${result.latencyP99} ms (load ${load})`,
            );
            rows.push({
              name: `processes: ${count}, ${name} (round ${round})`,
              value: Math.round(result.requestsPerSecond),
              unit: 'req/s',
              note: `p50 ${result.latencyP50} ms, p99 ${result.latencyP99} ms; load average ${load} at its start`,
            });
            return result;
          };
          // Warm-up: every process has compiled its hot paths and read its pages once.
          await cannon({ connections: 50, duration: 1, url: `${crux.url}/api/topics?sort=hot` });
          await measure('GET /api/topics?sort=hot', { url: `${crux.url}/api/topics?sort=hot` });
          await measure(
            'GET /api/topics?search=<a different word each request>',
            { url: `${crux.url}/api/topics` },
            { kind: 'search', words: [...new Set(SEED_WORDS)], sorts: ['hot', 'new', 'top'] },
          );
          await measure('GET /api/users/leaderboard', { url: `${crux.url}/api/users/leaderboard` });
          if (token) {
            const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
            // The first signed-in call records the user (as the app's first sync does).
            await fetch(`${crux.url}/api/follows`, { headers });
            await measure(
              'POST /api/responses (random topics)',
              { url: `${crux.url}/api/responses`, method: 'POST', headers },
              { kind: 'response', topics: sizes.topics },
            );
          }
        } finally {
          await crux.stop();
        }
      }
    }
  } finally {
    await emulator?.stop();
    build?.remove();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}
