// The compiled server (scripts/build-server.ts, what `npm start` and production run):
// built into a temp folder, it starts with plain `node` (no tsx loader), finds the migrations it
// reads beside itself, and answers; the compiled db:migrate command runs the same way. On
// the test engine, so the PostgreSQL lane runs it there too.
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, ENTRY_POINTS, ROOT, WORKER_ENTRY_POINTS } from '../../scripts/build-server.js';
import { waitForListening } from '../fixtures/listening.js';
import { testDatabase, type TestDatabase } from '../fixtures/test-db.js';

describe('the compiled server', () => {
  let dir: string;
  let outDir: string;
  let database: TestDatabase;
  let env: NodeJS.ProcessEnv;
  const children: ReturnType<typeof spawn>[] = [];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'crux-compiled-'));
    // Inside the repository: the compiled files import their packages from its node_modules.
    mkdirSync(join(ROOT, '.tmp'), { recursive: true });
    outDir = mkdtempSync(join(ROOT, '.tmp', 'compiled-server-'));
    await buildServer(outDir);
    database = await testDatabase(dir, join(dir, 'data', 'crux.sqlite'));
    env = {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: join(dir, 'data'),
      STATIC_DIR: join(dir, 'no-build'),
      SEED_DEMO: 'false',
      RATE_LIMITS: 'off',
      MODERATION_LIMITS: 'off',
      MAIL_SCHEDULER: 'off',
      // /api/health asks no ID token: no emulator has to run.
      FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9',
      ...(database.url ? { DATABASE_URL: database.url } : {}),
    };
    // Nothing may bring a TypeScript loader in through the environment.
    delete env.NODE_OPTIONS;
  }, 90_000);
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
    if (outDir) rmSync(outDir, { recursive: true, force: true });
  });

  it('imports nothing of tsx', () => {
    const code = readdirSync(outDir, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.js'))
      .map((file) => readFileSync(join(outDir, file), 'utf8'));
    expect(code.length).toBeGreaterThan(Object.keys(ENTRY_POINTS).length + WORKER_ENTRY_POINTS.length - 1);
    for (const text of code) expect(text).not.toMatch(/from\s*["']tsx|import\(\s*["']tsx/);
  });

  // Below the output folder, where import.meta.url as rewritten for the files at its top would be wrong.
  it('builds each worker module where the server looks for it, importing only packages (no chunk) and reading no import.meta.url', () => {
    for (const source of WORKER_ENTRY_POINTS) {
      const code = readFileSync(join(outDir, source.replace(/\.ts$/, '.js')), 'utf8');
      expect(
        [...code.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)].map((match) => match[1]),
        source,
      ).not.toContainEqual(expect.stringMatching(/^\./));
      expect(code, source).not.toContain('import.meta.url');
    }
  });

  it('runs the compiled checkpointer and backup workers with plain node', async () => {
    const source = join(dir, 'workers.sqlite');
    const db = new Database(source);
    db.pragma('journal_mode = WAL');
    db.exec("CREATE TABLE topics (id TEXT); INSERT INTO topics VALUES ('a')");
    const compiled = (name: string) => pathToFileURL(join(outDir, 'sync-server/src/store/sqlite', `${name}.js`));
    const checkpointer = new Worker(compiled('checkpointer-worker'), {
      workerData: { file: source, everyMs: 10, busyMs: 10, quietRounds: 50 },
    });
    // Its rounds move the committed pages from the WAL into the database file.
    const before = statSync(source).size;
    const deadline = Date.now() + 5000;
    while (statSync(source).size <= before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(statSync(source).size).toBeGreaterThan(before);
    checkpointer.postMessage('stop');
    expect(await new Promise((resolve) => checkpointer.once('exit', resolve))).toBe(0);
    db.close();
    const backup = new Worker(compiled('backup-worker'), { workerData: { source, target: join(dir, 'copy.sqlite'), timeoutMs: 1000 } });
    expect(await new Promise((resolve) => backup.once('message', resolve))).toEqual({ ok: true });
    await backup.terminate();
    const copy = new Database(join(dir, 'copy.sqlite'), { readonly: true });
    expect(copy.prepare('SELECT id FROM topics').all()).toEqual([{ id: 'a' }]);
    copy.close();
  });

  it('migrates the database with the compiled db:migrate command', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [join(outDir, 'db-migrate.js')], { cwd: dir, env });
    expect(stdout).toMatch(/^Migrated /);
  });

  it('runs the compiled users:role command with plain node (its usage, without arguments)', async () => {
    const run = promisify(execFile)(process.execPath, [join(outDir, 'users-role.js')], { cwd: dir, env });
    await expect(run).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('Usage: npm run users:role -- <email or uid>') });
  });

  it('starts with plain node and answers /api/health', async () => {
    const child = spawn(process.execPath, [join(outDir, 'main.js')], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    const url = await waitForListening(child);
    const response = await fetch(`${url}/api/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    // Its database has the migrated tables.
    const db = await database.openDb();
    try {
      expect(await db.rows('SELECT id FROM topics')).toEqual([]);
    } finally {
      await db.close();
    }
  }, 60_000);
});
