// Browser test harness: a fresh vite build when app sources are newer than dist/,
// the real server (sync-server/src/main.ts) as a child process on port 0 with a
// temporary DATA_DIR and the run's Auth emulator, and Debian's Chromium.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, rmdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { waitForListening } from '../fixtures/listening';
import { buildIfStale, CHROME_ARGS } from '../fixtures/build';

export { CHROME_ARGS };

const ROOT = process.cwd();

/** Builds dist/ once when app/, public/, shared/ or vite.config.ts changed since the last build. */
export async function ensureBuild(): Promise<void> {
  const lock = join(ROOT, '.tmp', 'e2e-build.lock');
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  // Several test files may start at once: one builds, the others wait.
  for (let i = 0; ; i++) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (i > 600) rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    buildIfStale(ROOT);
  } finally {
    rmdirSync(lock);
  }
}

export interface RunningServer {
  url: string;
  dataDir: string;
  stop(): void;
}

const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of children)
    if (child.pid)
      try {
        process.kill(child.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
});

export async function startServer(options: { seedDemo?: boolean; env?: Record<string, string> } = {}): Promise<RunningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'crux-e2e-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'sync-server/src/main.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO: String(options.seedDemo ?? false),
      FIREBASE_AUTH_EMULATOR_HOST: inject('authEmulatorHost'),
      // The account's state read on every request: a disabled or deleted account is refused at once.
      AUTH_STATUS_CACHE_SECONDS: '0',
      // New-account limits and the spam check off: the tests' fresh accounts post quickly.
      MODERATION_LIMITS: 'off',
      ...options.env,
    },
  });
  children.add(child);
  const url = await waitForListening(child);
  return {
    url,
    dataDir,
    stop() {
      if (child.pid && child.exitCode === null) process.kill(child.pid, 'SIGKILL');
      children.delete(child);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROME_BIN ?? '/usr/bin/chromium', headless: true, args: CHROME_ARGS });
}

/** A page that records console errors and uncaught exceptions (ignoring offline noise). */
export async function newPage(context: BrowserContext): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  // Under Vitest's 30 s test timeout: a step that hangs fails with its own locator and call log,
  // not as a bare "Test timed out" (tests that need longer waits pass their own timeout).
  page.setDefaultTimeout(25_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/ERR_INTERNET_DISCONNECTED|net::ERR_FAILED/.test(m.text())) errors.push(m.text());
  });
  page.on('dialog', (d) => void d.accept());
  return { page, errors };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync('/tmp/crux-shots', { recursive: true });
  await page.screenshot({ path: `/tmp/crux-shots/${name}.png`, fullPage: true });
}
