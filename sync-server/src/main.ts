// The server's entry (`npm start` runs its compiled copy, build/server/main.js): one process that
// serves (serve.ts), or with SERVER_PROCESSES=N on the SQLite file a primary (cluster/primary.ts)
// that migrates once and forks N serving processes sharing the port (docs/OPERATIONS.md "Several
// processes on one SQLite file"). The primary's forks run this file again, as cluster workers.
import cluster from 'node:cluster';
import { readConfig } from './config.js';

// A configuration mistake stops the start here, with its message (as before SERVER_PROCESSES).
const config = readConfig();
if (config.serverProcesses > 1 && cluster.isPrimary) {
  const { runPrimary } = await import('./cluster/primary.js');
  await runPrimary(config);
} else {
  const { serveProcess } = await import('./serve.js');
  const role = cluster.isWorker ? (await import('./cluster/worker.js')).joinPrimary() : undefined;
  await serveProcess(config, role);
}
