// The SQLite worker threads (the WAL checkpointer, the migrator, the backup) are TypeScript modules
// beside this file. The server build (scripts/build-server.ts) compiles each to a .js file at the
// same place under its output folder, where the compiled server finds it. Run from the sources (tsx,
// vitest) there is no .js: the thread starts ts-worker.mjs, which loads the .ts through tsx (a
// worker thread on Node 20 gets none of the main thread's module hooks, so it cannot load it itself).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** The worker modules beside this file (the server build compiles each: scripts/build-server.ts). */
export const WORKER_MODULES = ['checkpointer-worker', 'migrator-worker', 'backup-worker'] as const;
export type WorkerModule = (typeof WORKER_MODULES)[number];

export function startWorker(module: WorkerModule, options: WorkerOptions): Worker {
  const compiled = new URL(`./${module}.js`, import.meta.url);
  if (existsSync(fileURLToPath(compiled))) return new Worker(compiled, options);
  const source = new URL(`./${module}.ts`, import.meta.url);
  return new Worker(new URL('./ts-worker.mjs', import.meta.url), { ...options, argv: [source.href] });
}
