// A serving process of SERVER_PROCESSES=N (cluster/primary.ts forked it): what it shares with the
// others goes through the primary. Its index (0 … N-1) comes from the primary; index 0 runs the
// background work and the WAL checkpointer (serve.ts). Its metrics are summed by the primary's
// GET /metrics (prom-client's AggregatorRegistry asks each process over the same IPC channel).
import { AggregatorRegistry } from 'prom-client';
import type { SharedSqliteFile } from '../backend.js';
import { registry } from '../observe/metrics.js';
import { createIpcChangeFeed, type IpcChannel } from './ipc-feed.js';
import { createIpcLimitBackend } from './ipc-limits.js';
import { createIpcWriteToken } from './write-token.js';
import { isCruxMessage, WORKER_INDEX_ENV, type ToWorker } from './messages.js';

/** Which process answered (only with CRUX_TEST_PROCESS_HEADER=1, for the tests): its index. */
export const PROCESS_HEADER = 'X-Crux-Server-Process';

export interface ServerProcessRole {
  index: number;
  sharedFile: SharedSqliteFile;
  /** Tells the primary this process serves on `port`. */
  serving(port: number): void;
}

/** This process's part, from the primary's environment and IPC channel. */
export function joinPrimary(channel: IpcChannel = process as unknown as IpcChannel): ServerProcessRole {
  const index = Number(process.env[WORKER_INDEX_ENV]);
  if (!Number.isInteger(index) || index < 0) throw new Error(`${WORKER_INDEX_ENV} is not set: this process is started by the primary.`);
  AggregatorRegistry.setRegistries([registry]);
  // Its constructor starts answering the primary's metrics requests.
  new AggregatorRegistry();
  const changes = createIpcChangeFeed(channel);
  const limits = createIpcLimitBackend(channel);
  const migrated = new Promise<void>((resolve, reject) => {
    channel.on('message', (message) => {
      if (!isCruxMessage<ToWorker>(message)) return;
      if (message.crux === 'migrated') resolve();
      else if (message.crux === 'migration-failed') reject(new Error(message.message));
    });
  });
  migrated.catch(() => {}); // awaited (and reported) by openBackend
  channel.send({ crux: 'opening' });
  return {
    index,
    sharedFile: { migrated, changes, limits, checkpointer: index === 0, writeToken: createIpcWriteToken(channel) },
    serving: (port) => channel.send({ crux: 'serving', port }),
  };
}
