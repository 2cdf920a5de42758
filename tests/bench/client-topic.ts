// `npm run bench:topic`: the topic page of a big debate in real Chromium ("Big debates").
// A real server (sync-server/src/main.ts, seeded by direct SQL with a 1,000- and a 10,000-response
// topic) and the real Auth emulator; the built app (dist/) in Debian's Chromium. Measures time to the
// first response row and to interactive (online revisit and offline cold start) and the vote echo
// (click → aria-pressed flips), median of several runs. Not a test: nothing asserts a timing.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { startAuthEmulator, type RunningEmulator } from '../../scripts/auth-emulator.js';
import { openDatabase } from '../../sync-server/src/store/sqlite/connection.js';
import { signInThroughModal } from '../e2e/flows.js';
import type { BenchRow } from './types.js';
import { buildIfStale, CHROME_ARGS } from '../fixtures/build.js';
import { waitForListening } from '../fixtures/listening.js';

export interface BigTopicOptions {
  /** Responses in each seeded topic (default 1,000 and 10,000). */
  sizes?: number[];
  /** Runs per measure; the median is reported (default 5). */
  runs?: number;
  /** Print progress lines (default false). */
  verbose?: boolean;
}

const ROOT = process.cwd();
/** One response in ten is a root; the other nine answer the root before them (a long, flat-ish debate). */
const ROOT_EVERY = 10;
const BUDGET = { firstRowMs: 300, interactiveMs: 1000, echoMs: 50 };

export const topicId = (size: number) => `bench-topic-${size}`;
const responseId = (size: number, i: number) => `bench-${size}-r-${i}`;

const ensureBuild = () => buildIfStale(ROOT);

/** Seeds the server's database file (migrated by openDatabase) with one topic per size. */
export function seed(file: string, sizes: number[]) {
  const db = openDatabase(file);
  const base = Date.UTC(2026, 0, 1);
  let seq = 0;
  db.transaction(() => {
    db.prepare("INSERT INTO users (uid, display_name, email, created_at) VALUES ('bench', 'Bench', NULL, ?)").run(
      new Date(base).toISOString(),
    );
    const topic = db.prepare(
      "INSERT INTO topics (id, title, category, creator_uid, created_at, responses_count, hot, seq) VALUES (?, ?, 'Science', 'bench', ?, ?, 0, ?)",
    );
    const response = db.prepare(`
      INSERT INTO responses (id, topic_id, parent_response_id, quoted_response_id, type, content, creator_uid, created_at, updated_at, comment_count, seq)
      VALUES (?, ?, ?, ?, ?, ?, 'bench', ?, ?, ?, ?)`);
    const types = ['for', 'against', 'neutral'];
    for (const size of sizes) {
      topic.run(topicId(size), `A debate with ${size} responses`, new Date(base).toISOString(), size, ++seq);
      for (let i = 0; i < size; i++) {
        const created = new Date(base + 1000 + i * 10).toISOString();
        const isRoot = i % ROOT_EVERY === 0;
        const parent = isRoot ? null : responseId(size, i - (i % ROOT_EVERY));
        // Every 50th root quotes an earlier response (quote joins are part of the page's work).
        const quoted = isRoot && i % 500 === 0 && i > 0 ? responseId(size, i - 7) : null;
        const children = isRoot ? Math.min(ROOT_EVERY - 1, size - i - 1) : 0;
        response.run(
          responseId(size, i),
          topicId(size),
          parent,
          quoted,
          types[i % 3],
          `Argument ${i}: ${'lorem ipsum '.repeat(8)}`,
          created,
          created,
          children,
          ++seq,
        );
      }
    }
    db.prepare("UPDATE meta SET value = ? WHERE key = 'seq'").run(seq);
  })();
  db.close();
}

export async function startServer(dataDir: string, emulatorHost: string) {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'sync-server/src/main.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      RATE_LIMITS: 'off',
      MODERATION_LIMITS: 'off',
      MAIL_SCHEDULER: 'off',
      FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
    },
  });
  const url = await waitForListening(child);
  return { url, stop: () => child.pid && child.exitCode === null && process.kill(child.pid, 'SIGKILL') };
}

async function createUser(emulatorHost: string) {
  const call = async (path: string, body: unknown) => {
    const res = await fetch(`http://${emulatorHost}/identitytoolkit.googleapis.com/v1/${path}?key=fake-api-key`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`Auth emulator ${path}: ${await res.text()}`);
    return (await res.json()) as { idToken: string; localId: string };
  };
  const email = `bench-${Date.now()}@example.com`;
  const password = 'correct-horse-9';
  const user = await call('accounts:signUp', { email, password, returnSecureToken: true });
  await call('accounts:update', { idToken: user.idToken, displayName: 'Bench Voter' });
  return { uid: user.localId, email, password, name: 'Bench Voter', token: user.idToken, refreshToken: '', refresh: async () => '' };
}

// Runs in the page before the app: when the first response row enters the DOM and when a frame
// after it has been drawn (see loadTopic), when the last root row enters the DOM, and every long
// task (> 50 ms) the main thread runs.
const PAGE_PROBE = `
  window.__bench = { title: null, firstRowInDom: null, firstRowFrame: null, allRoots: null, longTasks: [], expectedRoots: 0 };
  try {
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__bench.longTasks.push([e.startTime, e.duration]); })
      .observe({ type: 'longtask', buffered: true });
  } catch {}
  new MutationObserver(() => {
    const b = window.__bench;
    if (b.title === null && document.querySelector('main h1')) b.title = performance.now();
    if (b.firstRowInDom === null && document.querySelector('li[data-testid="response"]')) {
      b.firstRowInDom = performance.now();
      requestAnimationFrame(() => setTimeout(() => (b.firstRowFrame = performance.now()), 0));
    }
    if (b.allRoots === null && b.expectedRoots > 0) {
      const list = document.querySelector('ul.response-list[aria-label="Responses"]');
      if (list && list.childElementCount >= b.expectedRoots) b.allRoots = performance.now();
    }
  }).observe(document, { childList: true, subtree: true });
`;

// In the page: how many responses RxDB has stored (its Dexie database of the public responses).
const STORED_RESPONSES = `
  window.storedResponses = async () => {
    const info = (await indexedDB.databases()).find((db) => /^rxdb-dexie-crux-public.*--responses$/.test(db.name ?? ''));
    if (!info) return 0;
    const db = await new Promise((ok, ko) => { const r = indexedDB.open(info.name); r.onsuccess = () => ok(r.result); r.onerror = () => ko(r.error); });
    try {
      return await new Promise((ok) => { const r = db.transaction('docs').objectStore('docs').count(); r.onsuccess = () => ok(r.result); r.onerror = () => ok(0); });
    } catch { return 0; } finally { db.close(); }
  };
`;

// In the page: what the public database holds (bytes per response), as the JSON of its
// records (the responses' documents, RxDB's replication meta copies) and as Chromium's own count of
// IndexedDB usage on disk (navigator.storage.estimate's usageDetails).
const STORED_BYTES = `
  window.storedBytes = async () => {
    const encoder = new TextEncoder();
    const sizes = { docs: 0, meta: 0, other: 0, indexedDB: 0 };
    for (const info of await indexedDB.databases()) {
      if (!/^rxdb-dexie-crux-public/.test(info.name ?? '')) continue;
      const kind = /--responses$/.test(info.name) ? 'docs' : /rx-replication-meta-/.test(info.name) ? 'meta' : 'other';
      const db = await new Promise((ok, ko) => { const r = indexedDB.open(info.name); r.onsuccess = () => ok(r.result); r.onerror = () => ko(r.error); });
      for (const store of Array.from(db.objectStoreNames)) {
        const records = await new Promise((ok) => { const r = db.transaction(store).objectStore(store).getAll(); r.onsuccess = () => ok(r.result); r.onerror = () => ok([]); });
        for (const record of records) sizes[kind] += encoder.encode(JSON.stringify(record)).length;
      }
      db.close();
    }
    const estimate = await navigator.storage.estimate();
    sizes.indexedDB = estimate.usageDetails?.indexedDB ?? 0;
    return sizes;
  };
`;

/**
 * In the page: reads RxDB's stored responses, then times writing them into a new raw IndexedDB store
 * (ms). A string, not a function: tsx's name helpers do not exist in the page.
 */
const RAW_WRITE_OF_STORED_RESPONSES = `(async () => {
  const open = (name, upgrade) => new Promise((ok, ko) => {
    const request = upgrade ? indexedDB.open(name, 1) : indexedDB.open(name);
    if (upgrade) request.onupgradeneeded = () => upgrade(request.result);
    request.onsuccess = () => ok(request.result);
    request.onerror = () => ko(request.error);
  });
  const info = (await indexedDB.databases()).find((db) => /^rxdb-dexie-crux-public.*--responses$/.test(db.name ?? ''));
  const source = await open(info.name);
  const docs = await new Promise((ok, ko) => {
    const request = source.transaction('docs').objectStore('docs').getAll();
    request.onsuccess = () => ok(request.result);
    request.onerror = () => ko(request.error);
  });
  source.close();
  const raw = await open('bench-raw-' + Date.now(), (db) =>
    db.createObjectStore('responses', { keyPath: 'id' }).createIndex('topic_created', ['topic_id', 'created_at']));
  const start = performance.now();
  for (let i = 0; i < docs.length; i += 1000) {
    await new Promise((ok, ko) => {
      const tx = raw.transaction('responses', 'readwrite');
      for (const doc of docs.slice(i, i + 1000)) tx.objectStore('responses').put(doc);
      tx.oncomplete = () => ok();
      tx.onerror = () => ko(tx.error);
    });
  }
  const ms = performance.now() - start;
  raw.close();
  return { ms, records: docs.length };
})()`;

/** In the page (BENCH_DEBUG): the document's timing, each script and style sheet, the first paint. A string: see above. */
const TIMELINE = `(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const r = Math.round;
  return {
    document: { workerStart: r(nav.workerStart), responseStart: r(nav.responseStart), responseEnd: r(nav.responseEnd),
      domInteractive: r(nav.domInteractive), domContentLoaded: r(nav.domContentLoadedEventEnd) },
    fcp: r(performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1),
    resources: performance.getEntriesByType('resource').filter((e) => /\\.(js|css)$/.test(e.name))
      .map((e) => e.name.replace(/^.*\\//, '') + ' ' + r(e.startTime) + '→' + r(e.responseEnd)),
  };
})()`;

interface Load {
  /** The topic's title (the app has started and read the topic): what the page costs before any response. */
  title: number;
  /** The first response row in the DOM. */
  firstRowInDom: number;
  /** The first response row drawn: the first contentful paint if it was in the DOM by then, else the first frame after it. */
  firstRow: number;
  allRoots: number;
  interactive: number;
}

/** Opens the topic page and waits until every root row is in the DOM, then one quiet second. */
async function loadTopic(page: Page, base: string, size: number, profileTo?: string): Promise<Load> {
  const roots = Math.ceil(size / ROOT_EVERY);
  // BENCH_PROFILE=dir (a directory of your own): a CPU profile of the load (open it in Chrome DevTools' Performance panel).
  const cdp = profileTo ? await page.context().newCDPSession(page) : null;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  await page.goto(`${base}/topics/${topicId(size)}`);
  await page.evaluate((n) => ((window as unknown as { __bench: { expectedRoots: number } }).__bench.expectedRoots = n), roots);
  await page.waitForFunction(
    (n) => document.querySelectorAll('ul.response-list[aria-label="Responses"] > li[data-testid="response"]').length >= n,
    roots,
    { timeout: 60_000, polling: 100 },
  );
  await page.waitForTimeout(1000);
  if (cdp && profileTo) writeFileSync(profileTo, JSON.stringify((await cdp.send('Profiler.stop')).profile));
  const probe = await page.evaluate(() => {
    const b = (
      window as unknown as {
        __bench: { title: number; firstRowInDom: number; firstRowFrame: number; allRoots: number | null; longTasks: [number, number][] };
      }
    ).__bench;
    // Drawn: a row in the DOM by the first contentful paint is drawn then (paint timing gives the
    // frame's presentation time; a row in the page's own HTML enters the DOM while its style sheets
    // still hold rendering back). A row added later is drawn by the first frame after it: a task
    // queued from that frame's animation callback runs after the frame (after the next long task
    // too, so it errs long).
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime;
    return {
      title: b.title,
      firstRowInDom: b.firstRowInDom,
      firstRow: fcp !== undefined && fcp >= b.firstRowInDom ? fcp : b.firstRowFrame,
      allRoots: b.allRoots ?? performance.now(),
      longTasks: b.longTasks,
    };
  });
  // Interactive: the first row is there and the main thread ran no long task since (TTI's idea, shortened).
  const lastLongTaskEnd = Math.max(0, ...probe.longTasks.map(([start, duration]) => start + duration));
  if (process.env.BENCH_DEBUG) {
    // Where the time before the title goes: the document, each script and style sheet, the first paint.
    const timeline = await page.evaluate(TIMELINE);
    console.log(JSON.stringify(timeline));
  }
  if (process.env.BENCH_DEBUG)
    console.log(
      `long tasks after the first row (start ms, duration ms): ${JSON.stringify(probe.longTasks.filter(([start, d]) => start + d > probe.firstRow).map((t) => t.map(Math.round)))}`,
    );
  return {
    title: probe.title,
    firstRowInDom: probe.firstRowInDom,
    firstRow: probe.firstRow,
    allRoots: probe.allRoots,
    interactive: Math.max(probe.firstRow, lastLongTaskEnd),
  };
}

/**
 * The JS heap the page holds once it has settled (what docs/BENCHMARKS.md measures: the heap after opening
 * the 10,000-response topic): used bytes after a full garbage collection, by CDP, in MB. Taken in a
 * browser that has this one tab, so no other page shares its renderer's heap.
 */
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

/** Clicks the first root's upvote button and times the echo: the click event to aria-pressed flipping. */
async function voteEcho(page: Page, size: number): Promise<number> {
  const id = responseId(size, 0);
  const button = page.locator(`li[data-response-id="${id}"] > article .vote-button`);
  await button.waitFor();
  await page.waitForFunction(
    (sel) => !document.querySelector(sel)?.hasAttribute('disabled'),
    `li[data-response-id="${id}"] > article .vote-button`,
  );
  await page.evaluate((rowId) => {
    const w = window as unknown as { __echo: Promise<number> };
    const selector = `li[data-response-id="${rowId}"] > article .vote-button`;
    const before = document.querySelector(selector)!.getAttribute('aria-pressed');
    w.__echo = new Promise((resolve) => {
      let clickedAt = 0;
      document.addEventListener('click', (e) => (clickedAt = e.timeStamp), { capture: true, once: true });
      const row = document.querySelector(`li[data-response-id="${rowId}"]`)!;
      const observer = new MutationObserver(() => {
        const pressed = document.querySelector(selector)?.getAttribute('aria-pressed');
        if (clickedAt && pressed && pressed !== before) {
          observer.disconnect();
          resolve(performance.now() - clickedAt);
        }
      });
      observer.observe(row, { attributes: true, childList: true, subtree: true });
    });
  }, id);
  await button.click();
  // A click that never echoes (the row replaced under the observer) fails the run instead of hanging it.
  return page.evaluate(() =>
    Promise.race([
      (window as unknown as { __echo: Promise<number> }).__echo,
      new Promise<number>((_, reject) => setTimeout(() => reject(new Error('vote echo: aria-pressed did not flip within 20 s')), 20_000)),
    ]),
  );
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const round = (n: number) => Math.round(n * 10) / 10;

export async function benchBigTopic(opts: BigTopicOptions = {}): Promise<BenchRow[]> {
  const sizes = opts.sizes ?? [1_000, 10_000];
  const runs = opts.runs ?? 5;
  const log = (line: string) => opts.verbose && console.log(line);
  ensureBuild();
  const work = mkdtempSync(join(tmpdir(), 'crux-bench-topic-'));
  const dataDir = join(work, 'data');
  const profile = join(work, 'profile');
  let emulator: RunningEmulator | undefined;
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let context: BrowserContext | undefined;
  const launch = (offline: boolean) =>
    chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROME_BIN ?? '/usr/bin/chromium',
      headless: true,
      args: CHROME_ARGS,
      offline,
    });
  try {
    emulator = await startAuthEmulator();
    spawnSync('mkdir', ['-p', dataDir]);
    seed(join(dataDir, 'crux.sqlite'), sizes);
    server = await startServer(dataDir, emulator.host);
    const user = await createUser(emulator.host);
    log(`server ${server.url}, emulator ${emulator.host}`);

    // First visit: sign in, open every topic until all its responses are on this device.
    context = await launch(false);
    await context.addInitScript(PAGE_PROBE);
    await context.addInitScript(STORED_RESPONSES);
    await context.addInitScript(STORED_BYTES);
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${server.url}/`);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 });
    await signInThroughModal(page, user);
    const rows: BenchRow[] = [];
    let stored = 0;
    interface Bytes {
      docs: number;
      meta: number;
      other: number;
      indexedDB: number;
    }
    const bytes = () => page.evaluate(() => (window as unknown as { storedBytes(): Promise<Bytes> }).storedBytes());
    for (const size of sizes) {
      const bytesBefore = await bytes();
      // The initial replication of this topic's responses in Chromium: from opening the page until
      // every one is in IndexedDB (RxDB's responses store), beside a raw IndexedDB write of the same records.
      // BENCH_PROFILE=dir: also a CPU profile of this initial replication (sync-<size>.cpuprofile).
      const cdp = process.env.BENCH_PROFILE ? await page.context().newCDPSession(page) : null;
      if (cdp) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
        await cdp.send('Profiler.start');
      }
      const start = performance.now();
      await page.goto(`${server.url}/topics/${topicId(size)}#response-${responseId(size, size - 1)}`);
      stored += size;
      // Polled from here: waitForFunction takes a returned promise for a truthy value.
      const count = () => page.evaluate(() => (window as unknown as { storedResponses(): Promise<number> }).storedResponses());
      for (const deadline = Date.now() + 180_000; (await count()) < stored;) {
        if (Date.now() > deadline) throw new Error(`the ${size}-response topic never reached IndexedDB`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const syncMs = performance.now() - start;
      if (cdp) {
        const { profile } = await cdp.send('Profiler.stop');
        writeFileSync(join(process.env.BENCH_PROFILE!, `sync-${size}.cpuprofile`), JSON.stringify(profile));
        await cdp.detach();
      }
      // RxDB writes its meta copies after the documents: counted once the replication is quiet.
      await page.waitForTimeout(2000);
      const bytesAfter = await bytes();
      const per = (key: keyof Bytes) => Math.round((bytesAfter[key] - bytesBefore[key]) / size);
      const rawWrite = await page.evaluate<{ ms: number; records: number }>(RAW_WRITE_OF_STORED_RESPONSES);
      const rawMs = rawWrite.ms;
      const syncRate = size / (syncMs / 1000);
      const rawRate = rawWrite.records / (rawMs / 1000);
      rows.push(
        {
          name: `client sync (Chromium): initial replication, ${size} responses`,
          value: Math.round(syncRate),
          unit: 'docs/s',
          note: 'page opened → all in IndexedDB',
        },
        {
          name: `client sync (Chromium): raw IndexedDB put, ${stored} responses`,
          value: Math.round(rawRate),
          unit: 'docs/s',
          note: 'the same records, 1,000 per transaction',
        },
        {
          name: `client sync (Chromium): IndexedDB bytes per response, ${size}`,
          value: per('indexedDB'),
          unit: 'B',
          note: `on disk (storage.estimate); JSON of the records: documents ${per('docs')} B, replication meta ${per('meta')} B`,
        },
        {
          name: `client sync (Chromium): ${size} responses rate / raw rate`,
          value: Math.round((syncRate / rawRate) * 100) / 100,
          unit: 'ratio',
          budget: 0.5,
          higherIsBetter: true,
        },
      );
      // The hash link waits for the topic's last response: it is the last one pulled.
      await page.locator(`#response-${responseId(size, size - 1)}`).waitFor({ timeout: 120_000 });
      log(`topic ${size} on the device: ${Math.round(syncMs)} ms, raw write of ${stored} records ${Math.round(rawMs)} ms`);
    }

    // BENCH_SYNC_ONLY=1: the initial replication's rows alone, without the page loads.
    if (process.env.BENCH_SYNC_ONLY) return rows;

    const measure = (size: string, loads: Load[]) => {
      rows.push(
        {
          name: `topic page ${size}: first response row`,
          value: round(median(loads.map((l) => l.firstRow))),
          unit: 'ms',
          budget: BUDGET.firstRowMs,
          note: 'drawn: the first paint with it',
        },
        {
          name: `topic page ${size}: first response row in the DOM`,
          value: round(median(loads.map((l) => l.firstRowInDom))),
          unit: 'ms',
        },
        {
          name: `topic page ${size}: interactive`,
          value: round(median(loads.map((l) => l.interactive))),
          unit: 'ms',
          budget: BUDGET.interactiveMs,
        },
        {
          name: `topic page ${size}: topic title`,
          value: round(median(loads.map((l) => l.title))),
          unit: 'ms',
          note: "in the DOM (from the kept page's HTML or the app)",
        },
        {
          name: `topic page ${size}: first row after the title`,
          value: round(median(loads.map((l) => l.firstRowInDom - l.title))),
          unit: 'ms',
          note: 'the responses part alone (app start-up is issue 12 point 1)',
        },
        {
          name: `topic page ${size}: all root rows`,
          value: round(median(loads.map((l) => l.allRoots))),
          unit: 'ms',
          note: 'every root row in the DOM',
        },
      );
    };

    // Vote echo, signed in, on each size.
    for (const size of sizes) {
      const echoPage = await context.newPage();
      await loadTopic(echoPage, server.url, size);
      const echoes: number[] = [];
      for (let i = 0; i < runs * 2; i++) echoes.push(await voteEcho(echoPage, size));
      await echoPage.close();
      rows.push({
        name: `vote echo, ${size}-response topic`,
        value: round(median(echoes)),
        unit: 'ms',
        budget: BUDGET.echoMs,
        note: `click → aria-pressed flips, ${echoes.length} clicks`,
      });
      log(`echo ${size}: ${echoes.map(round).join(', ')}`);
    }

    // Online revisit: a new tab on the warm profile (service worker, caches, IndexedDB).
    for (const size of sizes) {
      const loads: Load[] = [];
      for (let i = 0; i < runs; i++) {
        const tab = await context.newPage();
        loads.push(await loadTopic(tab, server.url, size));
        await tab.close();
      }
      log(
        `online revisit ${size}: ${JSON.stringify(loads.map((l) => [round(l.title), round(l.firstRowInDom), round(l.firstRow), round(l.interactive)]))}`,
      );
      measure(`${size}, online revisit`, loads);
    }
    await context.close();
    context = undefined;

    // Offline cold start: the browser restarted with no network, the page served by the service worker.
    for (const size of sizes) {
      const loads: Load[] = [];
      let heapMb = 0;
      for (let i = 0; i < runs; i++) {
        context = await launch(true);
        await context.addInitScript(PAGE_PROBE);
        const tab = context.pages()[0] ?? (await context.newPage());
        const profileTo = process.env.BENCH_PROFILE && i === 0 ? join(process.env.BENCH_PROFILE, `offline-${size}.cpuprofile`) : undefined;
        loads.push(await loadTopic(tab, server.url, size, profileTo));
        if (i === runs - 1) heapMb = await heapAfterGc(tab);
        await context.close();
        context = undefined;
      }
      log(
        `offline cold start ${size}: ${JSON.stringify(loads.map((l) => [round(l.title), round(l.firstRowInDom), round(l.firstRow), round(l.interactive)]))}`,
      );
      rows.push({
        name: `topic page ${size}, offline cold start: JS heap once opened`,
        value: Math.round(heapMb * 10) / 10,
        unit: 'MB',
        note: 'every root row shown and one quiet second, then a full GC (CDP Runtime.getHeapUsage); the only tab of its browser',
      });
      measure(`${size}, offline cold start`, loads);
    }
    return rows;
  } finally {
    await context?.close().catch(() => undefined);
    server?.stop();
    await emulator?.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

const isMissed = (r: BenchRow) => r.budget !== undefined && (r.higherIsBetter ? r.value < r.budget : r.value > r.budget);

export function printTable(rows: BenchRow[]) {
  const width = Math.max(...rows.map((r) => r.name.length)) + 2;
  console.log(`\n${'measure'.padEnd(width)}${'value'.padStart(10)} ${'budget'.padStart(8)}  note`);
  for (const r of rows) {
    const missed = isMissed(r) ? '  MISSED' : '';
    console.log(
      `${r.name.padEnd(width)}${`${r.value} ${r.unit}`.padStart(10)} ${(r.budget !== undefined ? String(r.budget) : '').padStart(8)}  ${r.note ?? ''}${missed}`,
    );
  }
  const missed = rows.filter(isMissed);
  console.log(missed.length ? `\nmissed budgets: ${missed.map((r) => r.name).join('; ')}` : '\nevery budget met');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  benchBigTopic({ runs: Number(process.env.BENCH_RUNS ?? 5), verbose: true }).then(
    (rows) => {
      printTable(rows);
      process.exit(0);
    },
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
