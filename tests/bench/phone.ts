// `npm run bench -- phone`: a phone joins a big site. For each site size (BENCH_PHONE_TOPICS, default
// 1000,100000,1000000; BENCH_QUICK=1: 1000,10000) the seed (seed.ts seedLarge, kept by size in
// .tmp/bench-seeds/, phone-seeds.ts) is served by the compiled server in its own process, as
// `npm start` runs it (processes.ts, STATIC_DIR the built app), with the real Auth emulator. Then a
// NEW phone (Chromium, a fresh profile, 390 × 844, touch, CPU slowed 4× by CDP as Lighthouse's
// mobile preset does) opens `/` signed out: the first topic row drawn, time to interactive, the
// longest task and the longest task from sync (phone-probe.ts), a tap on a topic to its title;
// it then browses 10 list pages and opens 20 topics, and reports the IndexedDB bytes and the JS heap;
// then it opens the topic with the most responses and, while they arrive, times round trips into the
// page and a tap back to the list. The server's CPU and the bytes sent for the first visit are read too.
// Last, the same profile comes back offline and opens each of those 20 topics.
// BENCH_PHONE_WATCH_S (default 120) caps how long the new phone is watched for its sync to go
// quiet. Not a test: nothing asserts a timing.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { startAuthEmulator, type RunningEmulator } from '../../scripts/auth-emulator.js';
import { buildIfStale, CHROME_ARGS } from '../fixtures/build.js';
import { PHONE_PROBE, readProbe, type ProbeReading } from './phone-probe.js';
import { phoneSeedSizes, seededSite } from './phone-seeds.js';
import { buildServerForBench, processCpuUs, startCruxProcess, type RunningProcess } from './processes.js';
import type { BenchRow } from './types.js';

const ROOT = process.cwd();
const BUDGET = { firstRowMs: 1500, syncTaskMs: 100, indexedDbMb: 25 };
/** The figures of one site size, as the rows report them. */
interface PhoneFigures {
  firstRowMs: number;
  interactiveMs: number;
  quiet: boolean;
  longestTaskMs: number;
  longestSyncTaskMs: number;
  longTasks: number;
  longTaskTotalMs: number;
  tapToTitleMs: number;
  listPages: number;
  topicsOpened: string[];
  indexedDbMb: number;
  heapMb: number;
  readableOffline: number;
  /** The server's CPU time (ms) and the bytes it sent for the new phone's first visit, until its sync went quiet. */
  serverCpuMs: number;
  serverKb: number;
  /** While the big topic's responses arrive: no-op round trips into the page (median, p95) and a tap on the logo to the list. */
  arriving: {
    roundTripMedianMs: number;
    roundTripP95Ms: number;
    tapToListMs: number;
    pullsBeforeTap: number;
    longestSyncTaskMs: number;
    /** The longest tasks from sync, [start, duration] ms in the page's time, and when the tap came, for the log. */
    longestSyncTasks: [number, number][];
    tappedAtMs: number;
  };
}

const fmt = (n: number) => n.toLocaleString('en');
const round = (n: number) => Math.round(n * 10) / 10;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A phone: 390 × 844 at 3×, touch, on a profile folder of its own; offline for the return visit. */
function launchPhone(profile: string, offline: boolean): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROME_BIN ?? '/usr/bin/chromium',
    headless: true,
    args: CHROME_ARGS,
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
    offline,
  });
}

/** Lighthouse's mobile CPU: every task four times as long (CDP Emulation.setCPUThrottlingRate). */
async function slowCpu(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
}

/**
 * BENCH_PHONE_TRACE=<file>: a Chromium trace (main-thread tasks with CPU samples, as DevTools' Performance
 * panel records them) of the big topic's arrival, and one of the 20 topics opened in a second file
 * beside it (the same name with "topics" before its extension), to see what their long tasks are. The last site size's traces are the ones left. Without the
 * variable, nothing is traced.
 */
async function traceTo(page: Page, file: string | undefined): Promise<() => Promise<void>> {
  if (!file) return async () => {};
  const cdp = await page.context().newCDPSession(page);
  const events: unknown[] = [];
  cdp.on('Tracing.dataCollected', (e: { value: unknown[] }) => events.push(...e.value));
  await cdp.send('Tracing.start', {
    categories: 'devtools.timeline,disabled-by-default-devtools.timeline,v8.execute,disabled-by-default-v8.cpu_profiler',
    transferMode: 'ReportEvents',
  });
  return async () => {
    const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.end');
    await complete;
    writeFileSync(file, JSON.stringify(events));
  };
}

/** Used JS heap after a full garbage collection, in MB (CDP). */
async function heapAfterGc(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = await cdp.send('Runtime.getHeapUsage');
    return usedSize / (1024 * 1024);
  } finally {
    await cdp.detach();
  }
}

/** IndexedDB's share of the origin's usage (Chromium's usageDetails), in MB: not the service worker's caches. */
async function indexedDbMb(page: Page): Promise<number> {
  const bytes = await page.evaluate(async () => {
    const estimate = (await navigator.storage.estimate()) as StorageEstimate & { usageDetails?: { indexedDB?: number } };
    return estimate.usageDetails?.indexedDB ?? estimate.usage ?? 0;
  });
  return bytes / (1024 * 1024);
}

/** Waits until no sync pull has ended for `quietMs` (a page can take seconds to store on a slow phone), or `capMs` passed; whether it went quiet. */
async function waitForSyncQuiet(page: Page, capMs: number, quietMs = 15_000): Promise<boolean> {
  const deadline = Date.now() + capMs;
  while (Date.now() < deadline) {
    const sinceLastPull = await page.evaluate(() => {
      const pulls = performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/sync/'));
      const last = Math.max(0, ...pulls.map((e) => (e as PerformanceResourceTiming).responseEnd));
      return performance.now() - last;
    });
    if (sinceLastPull >= quietMs) return true;
    await sleep(1000);
  }
  return false;
}

/** Scrolls the home list until `pages` pages of rows are on screen (or no more come); the pages shown. */
async function browseListPages(page: Page, pages: number): Promise<number> {
  const rows = page.locator('[data-testid="topic-row"]');
  const pageSize = await rows.count();
  let shown = 1;
  while (shown < pages) {
    const before = await rows.count();
    // The list's own sentinel brought into view, as a thumb scrolling down does.
    // Not Playwright's scroll: it waits for the sentinel to hold still, which a page still arriving never does.
    await page.evaluate(() => document.querySelector('[data-testid="list-sentinel"]')?.scrollIntoView());
    const grew = await page
      .waitForFunction((n) => document.querySelectorAll('[data-testid="topic-row"]').length > n, before, { timeout: 60_000 })
      .then(
        () => true,
        () => false,
      );
    if (!grew) break;
    shown = Math.ceil((await rows.count()) / Math.max(1, pageSize));
  }
  return shown;
}

/** Opens `count` topics from the list in turn (a tap, the title, back), as a reader does; their ids. */
async function openTopics(page: Page, count: number): Promise<string[]> {
  const ids = await page
    .locator('[data-testid="topic-row"]')
    .evaluateAll((rows, n) => rows.slice(0, n).map((row) => row.getAttribute('data-topic-id')!), count);
  for (const id of ids) {
    await page.locator(`[data-topic-id="${id}"] .topic-row-title`).first().tap();
    await page.waitForURL(`**/topics/${id}`);
    await page.locator('main h1').first().waitFor({ timeout: 60_000 });
    // What the topic shows: its responses, "No responses yet." or a status.
    await page
      .waitForFunction(() => document.querySelector('li[data-testid="response"], main .response-empty, main [role="status"]'), null, {
        timeout: 60_000,
      })
      .catch(() => undefined);
    await page.goBack();
    await page.locator('[data-testid="topic-row"]').first().waitFor({ timeout: 60_000 });
  }
  return ids;
}

/** The returning phone, offline: how many of the topics show their title (the service worker's shell, the device's data). */
async function readableOffline(profile: string, base: string, ids: string[]): Promise<number> {
  const context = await launchPhone(profile, true);
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    let readable = 0;
    for (const id of ids) {
      const ok = await page
        .goto(`${base}/topics/${id}`)
        .then(() => page.locator('main h1').first().waitFor({ timeout: 20_000 }))
        .then(
          () => true,
          () => false,
        );
      if (ok) readable++;
    }
    return readable;
  } finally {
    await context.close();
  }
}

/** What the page received from the server so far (the document, the API, the sync), in KB: resource timing's transfer sizes. */
async function receivedKb(page: Page): Promise<number> {
  const bytes = await page.evaluate(() =>
    [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
      .map((e) => (e as PerformanceResourceTiming).transferSize || (e as PerformanceResourceTiming).encodedBodySize || 0)
      .reduce((sum, n) => sum + n, 0),
  );
  return bytes / 1024;
}

/** The big topic opened, and while its responses still arrive: round trips into the page, then a tap to the list. */
async function whileBigTopicArrives(page: Page, base: string): Promise<PhoneFigures['arriving']> {
  const stopTrace = await traceTo(page, process.env.BENCH_PHONE_TRACE);
  await page.goto(`${base}/topics/bench-topic-big`);
  await page.locator('main h1').first().waitFor({ timeout: 120_000 });
  // A round trip is answered only when the main thread is free: what a tap waits for too.
  const trips: number[] = [];
  for (let i = 0; i < 10; i++) {
    const sent = performance.now();
    await page.evaluate(() => 0);
    trips.push(performance.now() - sent);
    await sleep(200);
  }
  trips.sort((a, b) => a - b);
  const pullsBeforeTap = await page.evaluate(
    () => performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/sync/responses/pull')).length,
  );
  const tappedAtMs = await page.evaluate(() => performance.now());
  const tapped = performance.now();
  await page.locator('a.site-logo').tap();
  await page.locator('[data-testid="topic-row"]').first().waitFor({ timeout: 120_000 });
  const tapToListMs = performance.now() - tapped;
  // The replication goes on behind the list (the topic stays kept): its tasks since the topic opened.
  await waitForSyncQuiet(page, 60_000, 5_000);
  await stopTrace();
  const { longestSyncTaskMs, longestSyncTasks } = await readProbe(page);
  return {
    longestSyncTaskMs,
    roundTripMedianMs: trips[Math.floor(trips.length / 2)]!,
    roundTripP95Ms: trips[Math.ceil(trips.length * 0.95) - 1]!,
    tapToListMs,
    pullsBeforeTap,
    longestSyncTasks,
    tappedAtMs,
  };
}

async function measureSite(
  base: string,
  serverPid: number,
  work: string,
  watchMs: number,
  log: (line: string) => void,
): Promise<PhoneFigures> {
  const profile = mkdtempSync(join(work, 'phone-'));
  const context = await launchPhone(profile, false);
  let probe: ProbeReading;
  try {
    await context.addInitScript(PHONE_PROBE);
    const page = context.pages()[0] ?? (await context.newPage());
    await slowCpu(page);
    // The server's share of a first sync: its CPU from the first request until the phone's sync is quiet.
    const cpuBefore = processCpuUs(serverPid);
    await page.goto(`${base}/`);
    await page.locator('[data-testid="topic-row"]').first().waitFor({ timeout: 120_000 });
    const quiet = await waitForSyncQuiet(page, watchMs);
    const serverCpuMs = (processCpuUs(serverPid) - cpuBefore) / 1000;
    const serverKb = await receivedKb(page);
    probe = await readProbe(page);
    log(
      `first row ${round(probe.firstRowMs)} ms, ${probe.longTasks} long tasks, the longest ${round(probe.longestTaskMs)} ms, quiet ${quiet}; server ${round(serverCpuMs)} ms CPU, ${round(serverKb)} KB sent`,
    );

    // A tap on the first topic while whatever sync still runs: to its title.
    const first = page.locator('[data-testid="topic-row"] .topic-row-title').first();
    const tapped = Date.now();
    await first.tap();
    await page.locator('main h1').first().waitFor({ timeout: 120_000 });
    const tapToTitleMs = Date.now() - tapped;
    await page.goBack();
    await page.locator('[data-testid="topic-row"]').first().waitFor({ timeout: 120_000 });

    const listPages = await browseListPages(page, 10);
    const stopTopicsTrace = await traceTo(page, process.env.BENCH_PHONE_TRACE?.replace(/(\.json)?$/, '.topics.json'));
    const topicsOpened = await openTopics(page, 20);
    await stopTopicsTrace();
    await waitForSyncQuiet(page, watchMs);
    // The sync's tasks over the whole visit (browsing too): the longest from sync.
    const visit = await readProbe(page);
    log(`the visit's longest tasks from sync: ${visit.longestSyncTasks.map(([at, ms]) => `${round(ms)} ms at ${round(at)}`).join(', ')}`);
    const figures: PhoneFigures = {
      firstRowMs: probe.firstRowMs,
      interactiveMs: probe.interactiveMs,
      quiet,
      longestTaskMs: Math.max(probe.longestTaskMs, visit.longestTaskMs),
      longestSyncTaskMs: Math.max(probe.longestSyncTaskMs, visit.longestSyncTaskMs),
      longTasks: visit.longTasks,
      longTaskTotalMs: visit.longTaskTotalMs,
      tapToTitleMs,
      listPages,
      topicsOpened,
      indexedDbMb: await indexedDbMb(page),
      heapMb: await heapAfterGc(page),
      readableOffline: 0,
      serverCpuMs,
      serverKb,
      arriving: {
        roundTripMedianMs: 0,
        roundTripP95Ms: 0,
        tapToListMs: 0,
        pullsBeforeTap: 0,
        longestSyncTaskMs: 0,
        longestSyncTasks: [],
        tappedAtMs: 0,
      },
    };
    // Last, so that the big topic's responses count in none of the figures above.
    figures.arriving = await whileBigTopicArrives(page, base);
    log(
      `big topic arriving: round trip ${round(figures.arriving.roundTripMedianMs)} / ${round(figures.arriving.roundTripP95Ms)} ms, tap to the list ${round(figures.arriving.tapToListMs)} ms after ${figures.arriving.pullsBeforeTap} pulls; longest tasks from sync ${figures.arriving.longestSyncTasks.map(([at, ms]) => `${round(ms)} ms at ${round(at)}`).join(', ')}; tap at ${round(figures.arriving.tappedAtMs)}`,
    );

    await context.close();
    figures.readableOffline = await readableOffline(profile, base, topicsOpened);
    return figures;
  } finally {
    await context.close().catch(() => undefined);
  }
}

function rowsFor(label: string, f: PhoneFigures, watchS: number): BenchRow[] {
  const cap = f.quiet ? '' : ` (sync still pulling after the ${watchS} s watched)`;
  return [
    {
      name: `phone ${label}: first topic row`,
      value: Math.round(f.firstRowMs),
      unit: 'ms',
      budget: BUDGET.firstRowMs,
      note: 'new phone, 4× CPU, drawn',
    },
    {
      name: `phone ${label}: interactive`,
      value: Math.round(f.interactiveMs),
      unit: 'ms',
      note: `first row and no long task for 5 s after${cap}`,
    },
    {
      name: `phone ${label}: longest task`,
      value: Math.round(f.longestTaskMs),
      unit: 'ms',
      note: `${f.longTasks} long tasks, ${fmt(Math.round(f.longTaskTotalMs))} ms in all, over the visit`,
    },
    {
      name: `phone ${label}: longest task from sync`,
      value: Math.round(f.longestSyncTaskMs),
      unit: 'ms',
      budget: BUDGET.syncTaskMs,
      note: 'a long task while a sync page was being stored (phone-probe.ts)',
    },
    {
      name: `phone ${label}: tap on a topic → its title`,
      value: Math.round(f.tapToTitleMs),
      unit: 'ms',
      note: 'right after the first row',
    },
    {
      name: `phone ${label}: while a big topic arrives, a round trip into the page (median / p95)`,
      value: Math.round(f.arriving.roundTripMedianMs),
      unit: 'ms',
      note: `p95 ${Math.round(f.arriving.roundTripP95Ms)} ms; 10 no-op evaluations 200 ms apart right after its title, ${f.arriving.pullsBeforeTap} response pulls made by then`,
    },
    {
      name: `phone ${label}: while a big topic arrives, a tap on the logo → the list`,
      value: Math.round(f.arriving.tapToListMs),
      unit: 'ms',
      note: 'the topic with the most responses (bench-topic-big), its pull still under way',
    },
    {
      name: `phone ${label}: while a big topic arrives, the longest task from sync`,
      value: Math.round(f.arriving.longestSyncTaskMs),
      unit: 'ms',
      budget: BUDGET.syncTaskMs,
      note: 'from its opening until its pulls were quiet for 5 s (phone-probe.ts)',
    },
    {
      name: `phone ${label}: IndexedDB after browsing`,
      value: round(f.indexedDbMb),
      unit: 'MB',
      budget: BUDGET.indexedDbMb,
      note: `${f.listPages} list pages, ${f.topicsOpened.length} topics; storage.estimate usageDetails${cap}`,
    },
    {
      name: `phone ${label}: server CPU for the first visit`,
      value: Math.round(f.serverCpuMs),
      unit: 'ms',
      note: `the server process's CPU from the first request until the new phone's sync was quiet (/proc); the same at every size is the budget${cap}`,
    },
    {
      name: `phone ${label}: bytes sent for the first visit`,
      value: Math.round(f.serverKb),
      unit: 'KB',
      note: `the page, its scripts and every API and sync answer until the sync was quiet (resource timing)${cap}`,
    },
    { name: `phone ${label}: JS heap after browsing`, value: round(f.heapMb), unit: 'MB', note: 'after a full GC' },
    {
      name: `phone ${label}: topics opened readable offline`,
      value: f.readableOffline,
      unit: 'topics',
      budget: f.topicsOpened.length,
      higherIsBetter: true,
      note: `of ${f.topicsOpened.length}: the returning phone, offline, each topic's title`,
    },
  ];
}

export async function benchPhone(log: (line: string) => void = (line) => console.error(line)): Promise<BenchRow[]> {
  const watchS = Number(process.env.BENCH_PHONE_WATCH_S ?? 120);
  buildIfStale(ROOT);
  const work = mkdtempSync(join(tmpdir(), 'crux-bench-phone-'));
  let emulator: RunningEmulator | undefined;
  let build: { outDir: string; remove(): void } | undefined;
  const rows: BenchRow[] = [];
  try {
    [build, emulator] = await Promise.all([buildServerForBench(), startAuthEmulator()]);
    for (const sizes of phoneSeedSizes()) {
      const label = `${fmt(sizes.topics)} topics`;
      const seeded = seededSite(sizes, log);
      const dataDir = mkdtempSync(join(work, 'data-'));
      copyFileSync(seeded, join(dataDir, 'crux.sqlite'));
      mkdirSync(join(dataDir, 'no-build'), { recursive: true });
      let server: RunningProcess | undefined;
      try {
        server = await startCruxProcess({
          outDir: build.outDir,
          dataDir,
          emulatorHost: emulator.host,
          env: { STATIC_DIR: process.env.BENCH_PHONE_DIST ?? join(ROOT, 'dist') }, // another build, e.g. unminified for a trace
        });
        const load = loadavg()[0]!.toFixed(1);
        log(`${label}: ${server.url}, load ${load}`);
        // One size that fails (a page that never came under load) does not lose the others' rows.
        const figures = await measureSite(server.url, server.pid, work, watchS * 1000, log).catch((error: unknown) => {
          log(`${label}: could not measure: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
          return null;
        });
        if (figures) rows.push(...rowsFor(label, figures, watchS).map((row) => ({ ...row, note: `${row.note ?? ''}; load ${load}` })));
      } finally {
        await server?.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
    return rows;
  } finally {
    await emulator?.stop();
    build?.remove();
    rmSync(work, { recursive: true, force: true });
  }
}
