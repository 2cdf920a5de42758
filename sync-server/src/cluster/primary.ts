// SERVER_PROCESSES=N on the SQLite file: N serving processes on one machine, forked
// with node:cluster and sharing the port (Node's primary hands each new connection to the next
// process in turn), each reading the file through its own connection. WAL lets them all read at
// once; writes take SQLite's one write lock in turn (the write token below; store/sqlite/transactions.ts
// waits for it without blocking the event loop), and `seq` is read and bumped under that lock, so the numbers
// stay unique and in commit order across processes. This primary serves no request. It:
// - migrates the file once, before any serving process opens it (they listen meanwhile and answer
//   /api/ready 503 `migrating`), and makes the mail signing key file once;
// - passes each process's committed changes to every other (cluster/ipc-feed.ts), so a live stream
//   held by one hears a write made through another at once;
// - keeps the rate-limit counts for all (cluster/ipc-limits.ts);
// - hands the write token from process to process, so they take SQLite's one write lock in turn, a
//   group commit at a time, first come, first served (cluster/write-token.ts);
// - serves METRICS_PORT with the metrics of all processes summed (prom-client's AggregatorRegistry);
// - starts again a process that exits unexpectedly (same index: index 0 runs the background work);
// - on SIGTERM/SIGINT passes SIGTERM to every process, waits until each has drained, and exits
//   with 0 only if each did (a process still busy after SHUTDOWN_TIMEOUT_MS exits 1 on its own).
import cluster, { type Worker } from 'node:cluster';
import type { Server } from 'node:http';
import { AggregatorRegistry } from 'prom-client';
import type { Config } from '../config.js';
import { loadSigningKey } from '../mail/signing-key.js';
import { logger } from '../observe/logger.js';
import { migrateSqliteFile } from '../backend.js';
import { announce } from '../observe/announce.js';
import { startMetricsServer } from '../observe/metrics-access.js';
import { createLimitKeeper } from './ipc-limits.js';
import { createTokenKeeper } from './write-token.js';
import { isCruxMessage, WORKER_INDEX_ENV, type FromWorker, type ToWorker } from './messages.js';

/** A process that exits this soon after it started (or before it ever served) is not started again: the fault is not passing. */
const RESTART_AFTER_MS = 1000;

export async function runPrimary(config: Config): Promise<void> {
  const count = config.serverProcesses;
  const limits = createLimitKeeper();
  const workers = new Map<number, Worker>();
  const writeToken = createTokenKeeper((index, message) => {
    const worker = workers.get(index);
    if (worker) send(worker, message);
  });
  const servingPorts = new Map<number, number>();
  let announced = false;
  let stopping = false;
  let exitCode = 0;
  let metricsServer: Server | undefined;
  /** undefined while migrating; then null (done) or the failure. */
  let migration: null | string | undefined;
  const waitingForMigration = new Set<Worker>();

  const send = (worker: Worker, message: ToWorker) => {
    if (worker.isConnected()) worker.send(message);
  };
  const answerMigration = (worker: Worker) => {
    if (migration === undefined) waitingForMigration.add(worker);
    else send(worker, migration === null ? { crux: 'migrated' } : { crux: 'migration-failed', message: migration });
  };

  const fork = (index: number) => {
    const startedAt = Date.now();
    const worker = cluster.fork({ [WORKER_INDEX_ENV]: String(index) });
    workers.set(index, worker);
    let served = false;
    worker.on('message', (message: unknown) => {
      if (!isCruxMessage<FromWorker>(message)) return;
      switch (message.crux) {
        case 'changes':
          for (const other of workers.values()) if (other !== worker) send(other, message);
          return;
        case 'opening':
          answerMigration(worker);
          return;
        case 'want-token':
          writeToken.want(index);
          return;
        case 'release-token':
          writeToken.release(index);
          return;
        case 'serving':
          served = true;
          servingPorts.set(index, message.port);
          if (!announced && servingPorts.size === count) {
            announced = true;
            // The line tests and scripts read (as one process prints it), once every process serves.
            announce(`Crux server listening on http://${config.host}:${message.port}`, { port: message.port, processes: count });
          }
          return;
        default:
          void limits.answer(index, message, (answer) => send(worker, answer));
      }
    });
    worker.on('exit', (code, signal) => {
      limits.releaseAll(index);
      waitingForMigration.delete(worker);
      if (workers.get(index) === worker) workers.delete(index);
      writeToken.gone(index);
      servingPorts.delete(index);
      if (stopping) {
        // One that did not drain in time (exit 1) makes the primary's exit 1 too.
        if (code !== 0) exitCode = 1;
        if (workers.size === 0) stopped();
        return;
      }
      logger.error({ index, code, signal }, `Server process ${index} exited unexpectedly (${signal ?? `code ${code}`}).`);
      if (!served || Date.now() - startedAt < RESTART_AFTER_MS) {
        // It could not start (the reason is in its own log): the others stop too.
        exitCode = 1;
        void stop();
        return;
      }
      fork(index);
    });
  };

  const stopped = () => {
    metricsServer?.close();
    if (exitCode === 0) logger.info('Shutdown: every server process drained.');
    else logger.error('Shutdown: not every server process drained (see their lines above).');
    process.exit(exitCode);
  };
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    if (workers.size === 0) return stopped();
    for (const worker of workers.values()) worker.process.kill('SIGTERM');
    // Each drains within SHUTDOWN_TIMEOUT_MS and exits on its own; past that (and a margin) it is ended.
    const deadline = setTimeout(() => {
      logger.error('Shutdown: a server process did not exit; ending it.');
      exitCode = 1;
      for (const worker of workers.values()) worker.process.kill('SIGKILL');
    }, config.shutdownTimeoutMs + 5000);
    deadline.unref();
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());

  // Made once here, so no two processes race to create it (mail/signing-key.ts); they read it.
  loadSigningKey({ configured: config.mail.signingKey, dataDir: config.dataDir, publicUrl: config.mail.publicUrl, warn: () => {} });

  // Forked first: they listen (and answer /api/ready 503 `migrating`) while the file migrates.
  for (let index = 0; index < count; index++) fork(index);
  try {
    await migrateSqliteFile(config);
    migration = null;
  } catch (error) {
    logger.fatal({ err: error }, 'The server could not start: the migrations failed');
    migration = error instanceof Error ? error.message : String(error);
  }
  for (const worker of waitingForMigration) answerMigration(worker);
  waitingForMigration.clear();

  if (config.metrics.port !== undefined) {
    const aggregator = new AggregatorRegistry();
    const metrics = await startMetricsServer(config.metrics.port, config.metrics.host, async () => ({
      body: await aggregator.clusterMetrics(),
      contentType: aggregator.contentType,
    }));
    metricsServer = metrics.server;
    const port = metrics.port;
    announce(`Metrics on http://${config.metrics.host}:${port}/metrics`, { metricsPort: port });
  }
}
