// `npm run bench`: the one place speed is measured. Runs every bench module, or those
// named (`npm run bench -- startup server sync topic first-load phone postgres push`; `processes` runs only when
// named), and prints one table: each figure
// with its budget, and a closing line naming every missed budget. The results are also written
// as JSON to bench/results/<time>.json and bench/results/latest.json. Not a test: nothing here
// asserts a timing; sizes and durations come from the BENCH_* variables each module documents.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchRow } from './types.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The benches, cheapest first; each module is loaded only when it runs. */
const BENCHES: Record<string, () => Promise<BenchRow[]>> = {
  startup: async () => (await import('./startup.js')).benchStartup(),
  device: async () => (await import('./device-rules.js')).benchDeviceRules(),
  sync: async () => (await import('./client-sync.js')).benchClientSync(),
  server: async () => (await import('./server.js')).benchServer(),
  topic: async () => (await import('./client-topic.js')).benchBigTopic(),
  'first-load': async () => (await import('./first-load.js')).benchFirstLoad(),
  phone: async () => (await import('./phone.js')).benchPhone(),
  postgres: async () => (await import('./server-pg.js')).benchPostgres(),
  push: async () => (await import('./push-fanout.js')).benchPushFanout(),
  // SERVER_PROCESSES=1 against 2, back to back: only when named, it seeds and starts the server four times.
  processes: async () => (await import('./server-processes.js')).benchServerProcesses(),
};
/** Run only when named. */
const ONLY_WHEN_NAMED = new Set(['processes']);

export function missed(row: BenchRow): boolean {
  if (row.budget === undefined) return false;
  return row.higherIsBetter ? row.value < row.budget : row.value > row.budget;
}

export function formatTable(rows: BenchRow[]): string {
  const width = Math.max(7, ...rows.map((row) => row.name.length));
  const lines = [`${'measure'.padEnd(width)}  ${'value'.padStart(10)} unit     budget        `];
  for (const row of rows) {
    const budget = row.budget === undefined ? '' : `${row.higherIsBetter ? '≥' : '≤'} ${row.budget}`;
    const verdict = row.budget === undefined ? '' : missed(row) ? 'MISSED' : 'ok';
    lines.push(
      `${row.name.padEnd(width)}  ${String(row.value).padStart(10)} ${row.unit.padEnd(8)} ${budget.padEnd(10)} ${verdict.padEnd(6)} ${row.note ?? ''}`.trimEnd(),
    );
  }
  const misses = rows.filter(missed).map((row) => row.name);
  lines.push('', misses.length === 0 ? 'Every budget met.' : `Missed budgets (${misses.length}): ${misses.join('; ')}`);
  return lines.join('\n');
}

async function main() {
  const asked = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
  const unknown = asked.filter((name) => !(name in BENCHES));
  if (unknown.length > 0) throw new Error(`Unknown bench ${unknown.join(', ')}: choose from ${Object.keys(BENCHES).join(', ')}`);
  const names = asked.length > 0 ? asked : Object.keys(BENCHES).filter((name) => !ONLY_WHEN_NAMED.has(name));
  const rows: BenchRow[] = [];
  const failures: string[] = [];
  for (const name of names) {
    console.error(`bench: ${name}...`);
    try {
      rows.push(...(await BENCHES[name]!()));
    } catch (error) {
      // One bench that cannot run (no Chromium, no build) does not hide the others' figures.
      failures.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const table = formatTable(rows);
  console.log(`\n${table}`);
  for (const failure of failures) console.log(`Could not run ${failure}`);

  const dir = join(ROOT, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const result = JSON.stringify({ at: new Date().toISOString(), benches: names, rows, failures }, null, 2);
  writeFileSync(join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}.json`), result);
  writeFileSync(join(dir, 'latest.json'), result);
  if (failures.length > 0) process.exitCode = 1;
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
