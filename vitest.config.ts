// Six lanes (Vitest projects), each runnable alone: `npm run test:<lane>` (the two PostgreSQL
// ones together: `npm run test:pg`).
//   unit    every test file that needs neither the Auth emulator nor a server
//           (shared/, app/components/, app/auth/, store-contract/, scripts/, the
//           pure data-layer rules, SQLite-only query plans...): seconds, no emulator
//   server  the Hono server over HTTP with real ID tokens (sync-server/)
//   store   the RxDB data layer replicating with the real server (app/*.test.ts)
//   e2e     the built PWA in Chromium (e2e/)
//   server-pg, store-pg   the server and store lanes again with the server on PostgreSQL
//           (postgresLane below; tests/global-setup-postgres.ts starts one for the run)
// A file needs the emulator when it, or a test helper it imports (fixtures/auth.ts,
// fixtures/server.ts, e2e/harness.ts...), injects `authEmulatorHost` or starts an
// emulator itself; the lanes are worked out from that, so a new or moved file lands
// in the right one. Only server, store and e2e start the emulator, and a run of
// several of them starts it once (tests/global-setup.ts).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

const root = dirname(fileURLToPath(import.meta.url));
const testsDir = join(root, 'tests');
const TEST_FILE = /\.test\.tsx?$/;
const NEEDS_EMULATOR = /inject\(\s*['"]authEmulatorHost['"]\s*\)|startAuthEmulator\(/;
// Value imports of relative modules (type-only imports are erased, so they do not count).
const RELATIVE_IMPORT =
  /(?:^|\n)\s*(?:import|export)\s+(?!type\s)(?:[^'"]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === 'node_modules' || (entry.name === 'fixtures' && dir.endsWith('scripts')) ? [] : walk(path);
    return [path];
  });
}

function resolveImport(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(m?js|jsx)$/, '');
  return [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, join(base, 'index.ts')].find((path) => existsSync(path) && !path.endsWith('/'));
}

const verdicts = new Map<string, boolean>();
/** Whether a file under tests/, or a tests/ module it imports, needs the Auth emulator. */
function needsEmulator(file: string): boolean {
  const known = verdicts.get(file);
  if (known !== undefined) return known;
  verdicts.set(file, false); // import cycles
  const source = readFileSync(file, 'utf8');
  let verdict = NEEDS_EMULATOR.test(source);
  for (const match of source.matchAll(RELATIVE_IMPORT)) {
    if (verdict) break;
    const target = resolveImport(file, (match[1] ?? match[2])!);
    if (target && !relative(testsDir, target).startsWith('..')) verdict = needsEmulator(target);
  }
  verdicts.set(file, verdict);
  return verdict;
}

const testFiles = walk(testsDir).filter((file) => TEST_FILE.test(file));
const inDir = (file: string, dir: string) => !relative(join(testsDir, dir), file).startsWith('..');
const lanes: Record<'unit' | 'server' | 'store' | 'e2e', string[]> = { unit: [], server: [], store: [], e2e: [] };
for (const file of testFiles) {
  const lane = inDir(file, 'e2e') ? 'e2e' : !needsEmulator(file) ? 'unit' : inDir(file, 'app') ? 'store' : 'server';
  lanes[lane].push(relative(root, file));
}

const ALL_TESTS = ['tests/**/*.test.ts', 'tests/**/*.test.tsx'];
/** A lane: the test files it owns; the other lanes' files are excluded, so a new file joins exactly one. */
function lane(name: keyof typeof lanes, options: { include?: string[]; emulator: boolean }): TestProjectInlineConfiguration {
  const others = Object.entries(lanes).flatMap(([other, files]) => (other === name ? [] : files));
  // A test of PostgreSQL itself runs in the PostgreSQL lanes only (never as a skipped test here).
  others.push(...Object.keys(POSTGRES_ONLY));
  return {
    test: {
      name,
      root,
      environment: 'node',
      include: options.include ?? lanes[name],
      exclude: ['**/node_modules/**', 'tests/scripts/fixtures/**', ...others],
      globalSetup: options.emulator ? ['tests/global-setup.ts'] : [],
      testTimeout: 30_000,
      hookTimeout: 90_000,
      pool: 'forks',
    },
  };
}

/**
 * The server and store lanes again on PostgreSQL (issue 14): every file of the lane that runs on
 * the test engine (tests/fixtures/test-db.ts: a test server, a test database or a test store), and
 * for server-pg also the unit lane's server files that do (they need no emulator, but their
 * store is the lane's engine). One PostgreSQL for the run.
 * A file that tests SQLite itself stays in the SQLite lanes only, listed here with the reason;
 * tests/scripts/test-lanes.test.ts checks that every server file opening a store is one or the other.
 */
export const SQLITE_ONLY: Record<string, string> = {
  'tests/sync-server/migrations.test.ts': "SQLite's migrations and pragmas",
  'tests/sync-server/migration-003.test.ts': "a SQLite migration's data rewrite",
  'tests/sync-server/query-plans.test.ts': "SQLite's query plans (EXPLAIN QUERY PLAN)",
  'tests/sync-server/store-speed.test.ts': "SQLite's connection handling (the WAL checkpointer, the busy wrapper)",
  'tests/sync-server/sqlite-group-commit.test.ts': "the SQLite store's group commit of its one connection's transactions",
  'tests/sync-server/engines-agree.test.ts': 'runs both engines itself (SQLite copied to its own PostgreSQL)',
};
/** Files that test PostgreSQL itself: only the PostgreSQL lanes run them (with the reason). */
export const POSTGRES_ONLY: Record<string, string> = {
  'tests/sync-server/seed-once.test.ts':
    'two stores on one database stand for two processes; two SQLite connections in one process block each other',
};
export const ON_TEST_ENGINE = /\bstart(?:Mail)?TestServer\(|\btestDatabase\(|\bopenTestStore\(/;
const onTestEngine = (file: string) => !(file in SQLITE_ONLY) && ON_TEST_ENGINE.test(readFileSync(join(root, file), 'utf8'));
function postgresLane(name: string, of: 'server' | 'store'): TestProjectInlineConfiguration {
  const unitServerFiles = of === 'server' ? lanes.unit.filter((file) => inDir(join(root, file), 'sync-server')) : [];
  const files = [...lanes[of], ...unitServerFiles].filter(onTestEngine);
  const base = lane(of, { include: files, emulator: true });
  return {
    test: {
      ...base.test,
      name,
      // Exactly the files above (lane() would exclude the unit lane's).
      exclude: ['**/node_modules/**', 'tests/scripts/fixtures/**'],
      globalSetup: ['tests/global-setup.ts', 'tests/global-setup-postgres.ts'],
      env: { CRUX_TEST_ENGINE: 'postgres' },
    },
  };
}

export default defineConfig({
  test: {
    // Two cores: files run in parallel forks (across lanes too), tests within a file in order.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 90_000,
    projects: [
      // A new file not yet seen by this config (watch mode) runs in unit or e2e by folder.
      lane('unit', { include: ALL_TESTS, emulator: false }),
      lane('server', { emulator: true }),
      lane('store', { emulator: true }),
      postgresLane('server-pg', 'server'),
      postgresLane('store-pg', 'store'),
      lane('e2e', { include: ['tests/e2e/**/*.test.ts'], emulator: true }),
    ],
  },
});
