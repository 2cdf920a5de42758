// `npm run bench:first-load`: the first visit of the built PWA ("First load").
// Builds dist/ when the app changed, starts the real Auth emulator and the real server
// (sync-server/src/main.ts, STATIC_DIR=dist, a temporary DATA_DIR, SEED_DEMO=true), then measures
// in Debian's Chromium: the gzip size of every script the page requests before `/` shows its
// topic rows (network, fresh profile), and Lighthouse's mobile preset (simulated throttling) on
// `/` and on a topic page: performance score, LCP and TBT, the median of several runs, on a quiet
// machine and again while another process keeps one core busy.
// Not a test: nothing asserts a timing.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { startAuthEmulator, type RunningEmulator } from '../../scripts/auth-emulator.js';
import type { BenchRow } from './types.js';
import { buildIfStale, CHROME_ARGS } from '../fixtures/build.js';
import { waitForListening } from '../fixtures/listening.js';

export interface FirstLoadOptions {
  /** Lighthouse runs per page; the median is reported (default 3). */
  runs?: number;
  /** The built app to serve (default dist/, built first when stale). */
  staticDir?: string;
  /** Which pages Lighthouse measures (default both). */
  pages?: readonly ('/' | 'topic page')[];
  /** Skip the runs with one core kept busy (to iterate on one change quickly). */
  quietOnly?: boolean;
  verbose?: boolean;
}

const ROOT = process.cwd();
const CHROME = process.env.CHROME_BIN ?? '/usr/bin/chromium';
/** chrome-launcher (Lighthouse) starts Chromium itself: headless is a flag there. */
const CHROME_FLAGS = ['--headless=new', ...CHROME_ARGS];
/** tbtBusyMs: blocking time allowed while another process keeps a core busy (a load average near 3 here). */
const BUDGET = { firstLoadJsKb: 150, performance: 90, lcpMs: 2500, tbtMs: 200, tbtBusyMs: 600 };

/** A process that keeps one core busy until killed. */
const busyCore = () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });

const ensureBuild = () => buildIfStale(ROOT);

async function startServer(dataDir: string, staticDir: string, emulatorHost: string) {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'sync-server/src/main.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      STATIC_DIR: staticDir,
      SEED_DEMO: 'true',
      MAIL_SCHEDULER: 'off',
      FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
    },
  });
  const url = await waitForListening(child);
  return { url, stop: () => child.pid && child.exitCode === null && process.kill(child.pid, 'SIGKILL') };
}

interface ScriptLoad {
  url: string;
  gz: number;
  /** When the request started, ms after navigation start (Resource Timing). */
  startMs: number;
}

/**
 * The scripts `/` fetched on a first visit (fresh profile) with their gzip sizes (level 9, as the
 * build precompresses), and when the first paint with content (FCP) and the first topic row came.
 */
async function firstLoadScripts(base: string): Promise<{ scripts: ScriptLoad[]; fcpMs: number; firstRowMs: number }> {
  const browser = await chromium.launch({ executablePath: CHROME, headless: true, args: CHROME_FLAGS.slice(1) });
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    const bodies = new Map<string, Promise<number | null>>();
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      bodies.set(
        response.url(),
        response.body().then(
          (body) => gzipSync(body, { level: 9 }).length,
          () => null,
        ),
      );
    });
    await page.goto(`${base}/`, { waitUntil: 'load' });
    await page.locator('[data-testid="topic-row"]').first().waitFor({ timeout: 30_000 });
    const firstRowMs = await page.evaluate(() => performance.now());
    const timing = await page.evaluate(() => ({
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
      starts: performance
        .getEntriesByType('resource')
        .filter((e) => (e as PerformanceResourceTiming).initiatorType === 'script' || e.name.endsWith('.js'))
        .map((e) => [e.name, e.startTime] as const),
    }));
    const scripts: ScriptLoad[] = [];
    for (const [url, startMs] of timing.starts) {
      const gz = await bodies.get(url);
      if (gz != null) scripts.push({ url: new URL(url).pathname, gz, startMs });
    }
    // The entry script itself is in the document, not always in Resource Timing as a script.
    for (const [url, gzPromise] of bodies) {
      if (scripts.some((s) => url.endsWith(s.url))) continue;
      const gz = await gzPromise;
      if (gz != null) scripts.push({ url: new URL(url).pathname, gz, startMs: 0 });
    }
    await context.close();
    return { scripts, fcpMs: timing.fcp, firstRowMs };
  } finally {
    await browser.close();
  }
}

interface LighthouseFigures {
  /** The longest main-thread tasks (start+duration ms, script), for the verbose log. */
  longTasks?: string[];
  /** Main-thread time by kind and script evaluation by file (ms, simulated), for the verbose log. */
  breakdown?: string[];
  fcpMs?: number;
  lcpElement?: string;
  score: number;
  lcpMs: number;
  tbtMs: number;
}

/** One Lighthouse run; a run Lighthouse itself could not record (e.g. NO_NAVSTART) is tried again once. */
async function runLighthouse(url: string, tmp: string): Promise<LighthouseFigures> {
  try {
    return await lighthouseOnce(url, tmp);
  } catch (error) {
    if (!(error instanceof Error && error.message.startsWith('Lighthouse:'))) throw error;
    return lighthouseOnce(url, tmp);
  }
}

async function lighthouseOnce(url: string, tmp: string): Promise<LighthouseFigures> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROME, chromeFlags: CHROME_FLAGS, userDataDir: mkdtempSync(join(tmp, 'lh-')) });
  try {
    const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
    const lhr = result?.lhr;
    if (!lhr) throw new Error(`Lighthouse gave no result for ${url}`);
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
    const lcpElement = lhr.audits['largest-contentful-paint-element']?.details as
      { items?: { items?: { node?: { snippet?: string } }[] }[] } | undefined;
    const snippet = lcpElement?.items?.[0]?.items?.[0]?.node?.snippet;
    const longTasks =
      (lhr.audits['long-tasks']?.details as { items?: { url?: string; duration?: number; startTime?: number }[] } | undefined)?.items ?? [];
    const items = (id: string) => (lhr.audits[id]?.details as { items?: Record<string, unknown>[] } | undefined)?.items ?? [];
    const breakdown = [
      ...items('mainthread-work-breakdown').map((i) => `${String(i.groupLabel)} ${Math.round(Number(i.duration))}`),
      ...items('bootup-time').map(
        (i) =>
          `${String(i.url).replace(/^https?:\/\/[^/]+/, '')} script ${Math.round(Number(i.scripting))} parse ${Math.round(Number(i.scriptParseCompile))}`,
      ),
    ];
    return {
      breakdown,
      fcpMs: Math.round(lhr.audits['first-contentful-paint']?.numericValue ?? NaN),
      longTasks: longTasks
        .slice(0, 6)
        .map((t) => `${Math.round(t.startTime ?? 0)}+${Math.round(t.duration ?? 0)} ${(t.url ?? '').replace(/^https?:\/\/[^/]+/, '')}`),
      lcpElement: snippet?.slice(0, 120),
      score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      lcpMs: Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? NaN),
      tbtMs: Math.round(lhr.audits['total-blocking-time']?.numericValue ?? NaN),
    };
  } finally {
    chrome.kill();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
};

export async function benchFirstLoad(options: FirstLoadOptions = {}): Promise<BenchRow[]> {
  const runs = options.runs ?? 3;
  const log = (line: string) => options.verbose && console.log(line);
  const staticDir = options.staticDir ? resolve(options.staticDir) : join(ROOT, 'dist');
  if (!options.staticDir) ensureBuild();
  // Chrome and Lighthouse leave profile folders behind: keep them in one folder removed at the end.
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  const tmp = mkdtempSync(join(ROOT, '.tmp', 'first-load-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'crux-first-load-'));
  const savedTmp = process.env.TMPDIR;
  process.env.TMPDIR = tmp;
  let emulator: RunningEmulator | undefined;
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    emulator = await startAuthEmulator();
    server = await startServer(dataDir, staticDir, emulator.host);
    const base = server.url;
    const topics = (await (await fetch(`${base}/api/topics?sort=hot`)).json()) as { items?: { id: string }[] } | { id: string }[];
    const list = Array.isArray(topics) ? topics : (topics.items ?? []);
    const topicId = list[0]?.id;
    if (!topicId) throw new Error('the demo seed gave no topic');

    const { scripts, fcpMs, firstRowMs } = await firstLoadScripts(base);
    for (const s of scripts) log(`script ${s.url}: ${(s.gz / 1024).toFixed(1)} KB gz, requested at ${Math.round(s.startMs)} ms`);
    log(`first contentful paint ${Math.round(fcpMs)} ms, first topic row ${Math.round(firstRowMs)} ms (no throttling)`);
    const kb = (list: ScriptLoad[]) => Math.round((list.reduce((sum, s) => sum + s.gz, 0) / 1024) * 10) / 10;
    const beforePaint = scripts.filter((s) => s.startMs < fcpMs);
    const beforeRows = scripts.filter((s) => s.startMs < firstRowMs);
    const rows: BenchRow[] = [
      {
        name: 'first-load JS of / (gzip)',
        value: kb(beforePaint),
        unit: 'KB',
        budget: BUDGET.firstLoadJsKb,
        note: `${beforePaint.length} scripts requested before the first contentful paint`,
      },
      {
        name: 'JS of / until the first topic row (gzip)',
        value: kb(beforeRows),
        unit: 'KB',
        note: `${beforeRows.length} scripts: the entry, the data layer and whatever else started by then`,
      },
    ];

    const pages = [
      ['/', '/'],
      ['topic page', `/topics/${encodeURIComponent(topicId)}`],
    ] as const;
    for (const [label, path] of pages.filter(([label]) => !options.pages || options.pages.includes(label))) {
      // Quiet, then with another process keeping one of the machine's cores busy: a phone is rarely idle.
      for (const busy of options.quietOnly ? [false] : [false, true]) {
        const burner = busy ? busyCore() : null;
        const figures: LighthouseFigures[] = [];
        const loads: number[] = [];
        try {
          for (let i = 0; i < runs; i++) {
            figures.push(await runLighthouse(base + path, tmp));
            loads.push(loadavg()[0]!);
            log(`lighthouse ${label}${busy ? ' (one core busy)' : ''} #${i + 1}: ${JSON.stringify(figures.at(-1))}`);
          }
        } finally {
          burner?.kill('SIGKILL');
        }
        const suffix = busy ? ', one core busy' : '';
        const note = `Lighthouse 12 mobile, median of ${runs}; load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`;
        rows.push(
          // The score is "higher is better": the budget is its floor, noted as such.
          {
            name: `Lighthouse performance, ${label}${suffix}`,
            value: median(figures.map((f) => f.score)),
            unit: 'score',
            budget: busy ? undefined : BUDGET.performance,
            higherIsBetter: true,
            note,
          },
          {
            name: `LCP, ${label}${suffix}`,
            value: median(figures.map((f) => f.lcpMs)),
            unit: 'ms',
            budget: busy ? undefined : BUDGET.lcpMs,
            note,
          },
          {
            name: `TBT, ${label}${suffix}`,
            value: median(figures.map((f) => f.tbtMs)),
            unit: 'ms',
            budget: busy ? BUDGET.tbtBusyMs : BUDGET.tbtMs,
            note,
          },
        );
      }
    }
    return rows;
  } finally {
    server?.stop();
    await emulator?.stop();
    if (savedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmp;
    rmSync(tmp, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const staticDir = process.argv.find((a) => a.startsWith('--static-dir='))?.slice('--static-dir='.length);
  const runs = Number(process.argv.find((a) => a.startsWith('--runs='))?.slice('--runs='.length) ?? 3);
  const pages = process.argv
    .find((a) => a.startsWith('--pages='))
    ?.slice('--pages='.length)
    .split(',')
    .map((page) => (page === 'topic' ? 'topic page' : '/'));
  const quietOnly = process.argv.includes('--quiet');
  const rows = await benchFirstLoad({ staticDir, runs, verbose: true, ...(pages ? { pages } : {}), quietOnly });
  console.table(rows.map((r) => ({ name: r.name, value: r.value, unit: r.unit, budget: r.budget ?? '', note: r.note ?? '' })));
}
