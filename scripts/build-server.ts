// `npm run build:server` (and the second half of `npm run build`): the server compiled to plain
// JavaScript in build/server/, so production runs it with `node` and compiles nothing at start
//. One ES module per command, node_modules left external, shared code in chunks,
// source maps beside them (run with --enable-source-maps for stack traces into the .ts files):
//   build/server/main.js             the server (sync-server/src/main.ts)
//   build/server/db-migrate.js       npm run db:migrate
//   build/server/copy-to-postgres.js npm run db:copy-to-pg
//   build/server/mail-weekly.js      npm run mail:weekly
//   build/server/mail-scheduler.js   npm run mail:scheduler
//   build/server/db-backup.js        npm run db:backup
//   build/server/db-restore.js       npm run db:restore
//   build/server/users-role.js       npm run users:role
//   build/server/users-delete.js     npm run users:delete
// and each worker thread's module at its own place (store/sqlite/start-worker.ts finds the .js there):
//   build/server/sync-server/src/store/sqlite/checkpointer-worker.js (and the same for the
//   migrator and backup workers)
// What the code reads beside itself at run time (the SQL migrations, found from import.meta.url)
// is copied keeping its place under the repository: every sync-server/src/**/*.sql lands at
// build/server/sync-server/src/**/*.sql, and each source file's import.meta.url is rewritten to
// the URL its own place would have there, so `new URL('./migrations/', import.meta.url)` finds
// the copies wherever the folders move. The PWA (dist/) and DATA_DIR stay where the working
// directory puts them, as before.
import { build, type Plugin } from 'esbuild';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WORKER_MODULES } from '../sync-server/src/store/sqlite/start-worker.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_OUT_DIR = join(ROOT, 'build', 'server');

/** The commands compiled: output name → source (relative to the repository). */
export const ENTRY_POINTS: Record<string, string> = {
  main: 'sync-server/src/main.ts',
  'db-migrate': 'scripts/db-migrate.ts',
  'copy-to-postgres': 'scripts/copy-to-postgres.ts',
  'mail-weekly': 'scripts/mail-weekly.ts',
  'mail-scheduler': 'scripts/mail-scheduler.ts',
  'db-backup': 'scripts/db-backup.ts',
  'db-restore': 'scripts/db-restore.ts',
  'users-role': 'scripts/users-role.ts',
  'users-delete': 'scripts/users-delete.ts',
};

/** The worker threads' modules, each built to its own place under the output folder (store/sqlite/start-worker.ts). */
export const WORKER_ENTRY_POINTS: string[] = WORKER_MODULES.map((module) => `sync-server/src/store/sqlite/${module}.ts`);

/** Folders whose files the compiled server reads at run time, copied keeping their layout. */
const RUNTIME_FILES_UNDER = 'sync-server/src';
const RUNTIME_FILE = /\.sql$/;

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? walk(path) : [path];
  });
}

/** Every source file's import.meta.url becomes the URL of its own place under the output folder. */
const importMetaUrlPerFile: Plugin = {
  name: 'crux-import-meta-url',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /\.[cm]?tsx?$/ }, (args) => {
      if (args.path.split(sep).includes('node_modules')) return undefined;
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const place = `./${relative(ROOT, args.path).split(sep).join('/')}`;
      // Every output file (entries and chunks) sits directly in the output folder, but the worker
      // modules', which read no import.meta.url and import only packages and node's own modules.
      const contents = source.replaceAll('import.meta.url', `new URL(${JSON.stringify(place)}, import.meta.url).href`);
      return { contents, loader: args.path.endsWith('x') ? 'tsx' : 'ts' };
    });
  },
};

/** The newest modification time among the server's sources (for `npm start`'s "is the build outdated"). */
export function newestSource(): number {
  const dirs = ['sync-server/src', 'shared', 'scripts'].map((dir) => join(ROOT, dir));
  let newest = statSync(join(ROOT, 'package.json')).mtimeMs;
  for (const file of dirs.flatMap(walk)) newest = Math.max(newest, statSync(file).mtimeMs);
  return newest;
}

/** Compiles the server and its commands into `outDir` (emptied first). */
export async function buildServer(outDir: string = DEFAULT_OUT_DIR): Promise<void> {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  await build({
    absWorkingDir: ROOT,
    entryPoints: [
      ...Object.entries(ENTRY_POINTS).map(([out, source]) => ({ in: source, out })),
      ...WORKER_ENTRY_POINTS.map((source) => ({ in: source, out: source.replace(/\.ts$/, '') })),
    ],
    outdir: outDir,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    chunkNames: 'chunk-[hash]',
    logLevel: 'warning',
    plugins: [importMetaUrlPerFile],
  });
  for (const file of walk(join(ROOT, RUNTIME_FILES_UNDER)).filter((path) => RUNTIME_FILE.test(path))) {
    const target = join(outDir, relative(ROOT, file));
    mkdirSync(dirname(target), { recursive: true });
    cpSync(file, target);
  }
}

// Run when executed (`tsx scripts/build-server.ts [outDir]`), not when imported (start.ts, the tests).
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = resolve(process.argv[2] ?? DEFAULT_OUT_DIR);
  const started = Date.now();
  await buildServer(outDir);
  console.log(`Built the server into ${relative(process.cwd(), outDir) || '.'} in ${Date.now() - started} ms.`);
}
