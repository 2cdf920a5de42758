// The server's WAL checkpointer: a worker thread with its own connection (checkpointer-worker.ts)
// checkpoints the WAL every so often, instead of whichever request's COMMIT crosses SQLite's
// 1,000-page threshold (that checkpoint's fsyncs stalled the event loop, and with it every
// request in flight, for 10–300 ms). The serving connection keeps a high automatic threshold only as
// a backstop. For the server process (backend.ts); tests, scripts and `:memory:` go without.
import type { CheckpointerData } from './checkpointer-worker.js';
import type { Db } from './connection.js';
import { startWorker } from './start-worker.js';

/** How often the server's background checkpointer runs while nothing is written (backend.ts; the bench). */
export const DEFAULT_CHECKPOINT_EVERY_MS = 500;
/**
 * How soon it runs again while writes come in. Every 500 ms let the WAL run ahead of the file under a
 * full write load: it reached the backstop about once a second, and the request whose COMMIT crossed
 * it copied thousands of pages on the event loop, the p99 of a reply (121–130 ms at full
 * size). Round after round, the worker has copied nearly every page by then, and the backstop's own
 * checkpoint (which also lets the next write start the WAL over) is short.
 */
export const BUSY_CHECKPOINT_EVERY_MS = 10;
/** Rounds in which nothing moved before the checkpointer slows to DEFAULT_CHECKPOINT_EVERY_MS. */
const QUIET_ROUNDS = 50;

/** The serving connection's own automatic checkpoint once a background checkpointer runs: a backstop only (pages). */
export const BACKSTOP_AUTOCHECKPOINT_PAGES = 20_000;

export interface Checkpointer {
  /** A last checkpoint, then the worker's connection closes; before the serving connection closes (the store's close). */
  stop(): void;
}

/**
 * Checkpoints `db`'s file (`file`) from a worker thread every `everyMs` ms while quiet, sooner while
 * writes come in; undefined (nothing started) for `:memory:` or a pace that is not a positive number.
 */
export function startCheckpointer(db: Db, file: string, everyMs: number): Checkpointer | undefined {
  if (file === ':memory:' || !Number.isFinite(everyMs) || everyMs <= 0) return undefined;
  const workerData: CheckpointerData = { file, everyMs, busyMs: Math.min(everyMs, BUSY_CHECKPOINT_EVERY_MS), quietRounds: QUIET_ROUNDS };
  const worker = startWorker('checkpointer-worker', { workerData });
  worker.unref();
  // A checkpointer that fails to start or dies leaves SQLite's own (backstop) checkpoint in charge.
  worker.on('error', () => db.open && db.pragma('wal_autocheckpoint = 1000'));
  db.pragma(`wal_autocheckpoint = ${BACKSTOP_AUTOCHECKPOINT_PAGES}`);
  return { stop: () => worker.postMessage('stop') };
}
