// Seven lanes (Vitest projects), each runnable alone: `npm run test:<lane>` (the two PostgreSQL
// ones together: `npm run test:pg`).
//   fast    every test file that needs no emulator, no PostgreSQL, no other process and no
//           browser (shared/ rules, app/components/ in jsdom, app/auth/, the pure data-layer
//           and server rules, in-process SQLite): under 30 s, nothing to install or start
//   unit    the other files that need neither the Auth emulator nor PostgreSQL: a server or
//           command as a process of its own, the test runner's own runs, a server on the test
//           engine's SQLite (tests/fixtures/test-db.ts)...
//   server  the Hono server over HTTP with real ID tokens (sync-server/)
//   store   the RxDB data layer replicating with the real server (app/*.test.ts)
//   e2e     the built PWA in Chromium (e2e/)
//   server-pg, store-pg   the server and store lanes again with the server on PostgreSQL
//           (postgresLane below; tests/global-setup-postgres.ts starts one for the run); server-pg
//           also runs the files that start a PostgreSQL of their own (startPostgres: the
//           PostgreSQL store's contract, pg-*.test.ts), so fast and unit need no PostgreSQL binaries
// A file needs the emulator when it, or a test helper it imports (fixtures/auth.ts,
// fixtures/server.ts, e2e/harness.ts...), injects `authEmulatorHost` or starts an
// emulator itself; the lanes are worked out from that, so a new or moved file lands
// in the right one. Only server, store and e2e start the emulator, and a run of
// several of them starts it once (tests/global-setup.ts). A file (or test helper it imports)
// that calls startPostgres needs PostgreSQL. A file is fast when nothing it imports, following
// every relative import through the repository, loads a PostgreSQL client, child_process or a
// browser (NOT_FAST_PACKAGE).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

const root = dirname(fileURLToPath(import.meta.url));
const testsDir = join(root, 'tests');
const TEST_FILE = /\.test\.tsx?$/;
const NEEDS_EMULATOR = /inject\(\s*['"]authEmulatorHost['"]\s*\)|startAuthEmulator\(/;
const NEEDS_POSTGRES = /\bstartPostgres\(/;
/** Packages a fast file must not load: a PostgreSQL client, other processes, a browser. */
export const NOT_FAST_PACKAGE =
  /^(?:pg|(?:node:)?child_process|playwright-core|@axe-core\/playwright|chrome-launcher|lighthouse|firebase-tools)(?:\/|$)/;
// Value imports of relative modules (type-only imports are erased, so they do not count).
const RELATIVE_IMPORT =
  /(?:^|\n)\s*(?:import|export)\s+(?!type\s)(?:[^'"]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;
// The same for packages (bare specifiers).
const PACKAGE_IMPORT =
  /(?:^|\n)\s*(?:import|export)\s+(?!type\s)(?:[^'"]*?\sfrom\s+)?['"]([^.'"][^'"]*)['"]|import\(\s*['"]([^.'"][^'"]*)['"]\s*\)/g;

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

/** Whether a file under tests/, or a tests/ module it imports, matches `pattern` (memo: its verdicts). */
function testsReach(file: string, pattern: RegExp, memo: Map<string, boolean>): boolean {
  const known = memo.get(file);
  if (known !== undefined) return known;
  memo.set(file, false); // import cycles
  const source = readFileSync(file, 'utf8');
  let verdict = pattern.test(source);
  for (const match of source.matchAll(RELATIVE_IMPORT)) {
    if (verdict) break;
    const target = resolveImport(file, (match[1] ?? match[2])!);
    if (target && !relative(testsDir, target).startsWith('..')) verdict = testsReach(target, pattern, memo);
  }
  memo.set(file, verdict);
  return verdict;
}
const emulatorVerdicts = new Map<string, boolean>();
/** Whether a file under tests/, or a tests/ module it imports, needs the Auth emulator. */
const needsEmulator = (file: string) => testsReach(file, NEEDS_EMULATOR, emulatorVerdicts);
const postgresVerdicts = new Map<string, boolean>();
/** Whether a file under tests/, or a tests/ module it imports, starts a PostgreSQL server of its own. */
const needsPostgres = (file: string) => testsReach(file, NEEDS_POSTGRES, postgresVerdicts);

const packageVerdicts = new Map<string, boolean>();
/** Whether a file, or any module it imports (anywhere in the repository), loads a NOT_FAST_PACKAGE. */
function loadsSlowPackage(file: string): boolean {
  const known = packageVerdicts.get(file);
  if (known !== undefined) return known;
  packageVerdicts.set(file, false); // import cycles
  const source = readFileSync(file, 'utf8');
  let verdict = [...source.matchAll(PACKAGE_IMPORT)].some((match) => NOT_FAST_PACKAGE.test((match[1] ?? match[2])!));
  for (const match of source.matchAll(RELATIVE_IMPORT)) {
    if (verdict) break;
    const target = resolveImport(file, (match[1] ?? match[2])!);
    if (target && !relative(root, target).startsWith('..') && !target.includes('/node_modules/')) verdict = loadsSlowPackage(target);
  }
  packageVerdicts.set(file, verdict);
  return verdict;
}

const testFiles = walk(testsDir).filter((file) => TEST_FILE.test(file));
const inDir = (file: string, dir: string) => !relative(join(testsDir, dir), file).startsWith('..');
type LaneName = 'fast' | 'unit' | 'server' | 'store' | 'e2e' | 'postgres';
/**
 * Each test file's lane (`postgres`: the files that start their own PostgreSQL, run by server-pg).
 * Exported for tests/scripts/test-lanes.test.ts.
 */
export const lanes: Record<LaneName, string[]> = { fast: [], unit: [], server: [], store: [], e2e: [], postgres: [] };
for (const file of testFiles) {
  const lane: LaneName = inDir(file, 'e2e')
    ? 'e2e'
    : needsEmulator(file)
      ? inDir(file, 'app')
        ? 'store'
        : 'server'
      : needsPostgres(file)
        ? 'postgres'
        : loadsSlowPackage(file)
          ? 'unit'
          : 'fast';
  lanes[lane].push(relative(root, file));
}

const ALL_TESTS = ['tests/**/*.test.ts', 'tests/**/*.test.tsx'];
/** A lane: the test files it owns; the other lanes' files are excluded, so a new file joins exactly one. */
function lane(name: Exclude<LaneName, 'postgres'>, options: { include?: string[]; emulator: boolean }): TestProjectInlineConfiguration {
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
 * The server and store lanes again on PostgreSQL: every file of the lane that runs on
 * the test engine (tests/fixtures/test-db.ts: a test server, a test database or a test store), and
 * for server-pg also the unit lane's server files that do (they need no emulator, but their
 * store is the lane's engine) and the files that start a PostgreSQL of their own (lanes.postgres,
 * whatever SQLITE_ONLY says of them). One PostgreSQL for the run.
 * A file that tests SQLite itself stays in the SQLite lanes only, listed here with the reason;
 * tests/scripts/test-lanes.test.ts checks that every server file opening a store is one or the other.
 */
export const SQLITE_ONLY: Record<string, string> = {
  'tests/sync-server/migrations.test.ts': "SQLite's migrations and pragmas",
  'tests/sync-server/migration-003.test.ts': "a SQLite migration's data rewrite",
  'tests/sync-server/migration-006.test.ts': "a SQLite migration's data rewrite",
  'tests/sync-server/migration-008.test.ts': "a SQLite migration's data rewrite (a real upgrade from 007)",
  'tests/sync-server/query-plans.test.ts': "SQLite's query plans (EXPLAIN QUERY PLAN)",
  'tests/sync-server/mention-plans.test.ts': "SQLite's query plans of the mention look-up (EXPLAIN QUERY PLAN)",
  'tests/sync-server/store-speed.test.ts': "SQLite's connection handling (the WAL checkpointer, the busy wrapper)",
  'tests/sync-server/sqlite-group-commit.test.ts': "the SQLite store's group commit of its one connection's transactions",
  'tests/sync-server/engines-agree.test.ts': 'runs both engines itself (SQLite copied to its own PostgreSQL)',
  'tests/sync-server/sqlite-shared-file.test.ts': "SQLite's write lock taken in turn by connections of several processes",
  'tests/sync-server/server-processes.test.ts':
    'SERVER_PROCESSES: several processes on one SQLite file (PostgreSQL runs several servers instead)',
  'tests/sync-server/title-index.test.ts':
    "the SQLite store's title index in memory, against SQLite's own FTS5 (PostgreSQL searches its tsvector)",
  'tests/sync-server/topic-page-json.test.ts':
    "a SQLite title search's page from each topic's JSON kept by its seq (PostgreSQL writes its pages per request)",
  'tests/sync-server/kept-versions.test.ts':
    "the SQLite store's versions kept in memory (PostgreSQL reads them per request: other servers write the same database)",
};
/** Files that test PostgreSQL itself: only the PostgreSQL lanes run them (with the reason). */
export const POSTGRES_ONLY: Record<string, string> = {
  'tests/sync-server/seed-once.test.ts':
    'two stores on one database stand for two processes; two SQLite connections in one process block each other',
};
export const ON_TEST_ENGINE = /\bstart(?:Mail)?TestServer\(|\btestDatabase\(|\bopenTestStore\(/;
const onTestEngine = (file: string) => !(file in SQLITE_ONLY) && ON_TEST_ENGINE.test(readFileSync(join(root, file), 'utf8'));
function postgresLane(name: string, of: 'server' | 'store'): TestProjectInlineConfiguration {
  const unitServerFiles = of === 'server' ? [...lanes.fast, ...lanes.unit].filter((file) => inDir(join(root, file), 'sync-server')) : [];
  const files = [...lanes[of], ...unitServerFiles].filter(onTestEngine);
  // The files that start a PostgreSQL of their own run here (once, on their own engines).
  if (of === 'server') files.push(...lanes.postgres);
  const base = lane(of, { include: files, emulator: true });
  return {
    test: {
      ...base.test,
      name,
      // Exactly the files above (lane() would exclude the unit and fast lanes').
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
      lane('fast', { emulator: false }),
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
