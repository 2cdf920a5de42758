// `npx tsx tests/bench/client-sync-chromium.ts`: what RxDB alone costs to store pulled responses in
// Chromium, beside a raw IndexedDB put of the same records in the same page: push and
// pull (what the app runs), pull only, and a plain bulkInsert (the ceiling of any design that keeps
// RxDB collections on Dexie). The page part is client-sync-page.ts, bundled here by esbuild; the
// server is the real one, seeded like `npm run bench:topic`. BENCH_PULL_BATCHES=500,1000,2000 sets
// the pull page sizes (default 1,000), BENCH_SIZES the topics (default 1,000 and 10,000 responses).
// Not a test: no assertion on timing.
import { build } from 'esbuild';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROME_ARGS } from '../fixtures/build.js';
import { seed, startServer, topicId } from './client-topic.js';
import type { BenchRow } from './types.js';

// The raw write both first and last: its two runs show how much the machine moved meanwhile (their mean is the baseline).
const MODES = ['raw', 'push+pull', 'pull-only', 'bulkInsert', 'raw2'] as const;

async function bundle(): Promise<string> {
  const out = await build({
    entryPoints: [join(process.cwd(), 'tests/bench/client-sync-page.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
    minify: true,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'error',
  });
  return out.outputFiles[0]!.text;
}

export async function benchSyncChromium(): Promise<BenchRow[]> {
  const sizes = (process.env.BENCH_SIZES ?? '1000,10000').split(',').map(Number);
  const batches = (process.env.BENCH_PULL_BATCHES ?? '1000').split(',').map(Number);
  const work = mkdtempSync(join(tmpdir(), 'crux-bench-sync-'));
  const dataDir = join(work, 'data');
  mkdirSync(dataDir);
  seed(join(dataDir, 'crux.sqlite'), sizes);
  // Anonymous pulls only: the server never asks the Auth emulator.
  const server = await startServer(dataDir, '127.0.0.1:1');
  const script = await bundle();
  const rows: BenchRow[] = [];
  try {
    for (const size of sizes) {
      for (const batch of batches) {
        // A new browser each round: in one page, every round ran slower than the one before.
        const browser = await chromium.launch({
          executablePath: process.env.CHROME_BIN ?? '/usr/bin/chromium',
          headless: true,
          args: CHROME_ARGS,
        });
        try {
          // The server's CSP forbids inline scripts (rightly): the bench's own script is let through.
          const page = await browser.newPage({ bypassCSP: true });
          // A page of the server's origin that starts no app (the app would replicate beside the experiment).
          await page.goto(`${server.url}/health`);
          await page.addScriptTag({ content: script });
          const result = await page.evaluate(
            ([id, modes, batchSize]) =>
              (
                window as unknown as {
                  __syncExperiment(
                    id: string,
                    modes: readonly string[],
                    batchSize: number,
                  ): Promise<{ records: number; ms: Record<string, number> }>;
                }
              ).__syncExperiment(id, modes, batchSize),
            [topicId(size), [...MODES], batch] as const,
          );
          const rate = (mode: string) =>
            result.records / ((mode === 'raw' ? (result.ms.raw! + result.ms.raw2!) / 2 : result.ms[mode]!) / 1000);
          for (const mode of MODES.filter((m) => !m.startsWith('raw'))) {
            rows.push({
              name: `RxDB alone (Chromium): ${mode}, ${size} responses, ${batch}/page, rate / raw rate`,
              value: Math.round((rate(mode) / rate('raw')) * 100) / 100,
              unit: 'ratio',
              note: `${Math.round(rate(mode))} docs/s, raw IndexedDB put ${Math.round(rate('raw'))} docs/s (runs ${Math.round(result.ms.raw!)} and ${Math.round(result.ms.raw2!)} ms)`,
            });
          }
        } finally {
          await browser.close();
        }
      }
    }
    return rows;
  } finally {
    server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  benchSyncChromium().then(
    (rows) => {
      for (const row of rows) console.log(`${row.name.padEnd(90)} ${String(row.value).padStart(6)}  ${row.note ?? ''}`);
      process.exit(0);
    },
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
