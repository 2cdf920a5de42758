// What the processes of SERVER_PROCESSES=N (cluster/primary.ts) say to each other over Node's IPC
// channel. Every message carries `crux`, so the ones prom-client's AggregatorRegistry sends on the
// same channel (its metrics requests) are told apart.
import type { Change } from '../domain/change-feed.js';
import type { BucketTake, CounterOpen, TakeResult } from '../http/limit-backend.js';

/** A serving process → the primary. */
export type FromWorker =
  /** Committed changes, for every other serving process's listeners. */
  | { crux: 'changes'; changes: Change[] }
  | { crux: 'take'; id: number; takes: BucketTake[] }
  | { crux: 'open'; id: number; opens: CounterOpen[] }
  /** Gives back what `open` answered with `openId`. */
  | { crux: 'release'; openId: number }
  /** Asks for the write token (store/sqlite/transactions.ts); answered `token` when it is this process's turn. */
  | { crux: 'want-token' }
  /** Gives the write token back. */
  | { crux: 'release-token' }
  /** It listens and waits for the primary's migrations (answered `migrated` or `migration-failed`). */
  | { crux: 'opening' }
  /** It serves (its readiness is `serving`), on this port. */
  | { crux: 'serving'; port: number };

/** The primary → a serving process. */
export type ToWorker =
  /** The write token is this process's. */
  | { crux: 'token' }
  /** Another process waits for the write token this process holds. */
  | { crux: 'token-wanted' }
  | { crux: 'migrated' }
  | { crux: 'migration-failed'; message: string }
  | { crux: 'changes'; changes: Change[] }
  | { crux: 'took'; id: number; result: TakeResult }
  | { crux: 'opened'; id: number; result: { ok: true; openId: number } | { ok: false; refused: number } };

export function isCruxMessage<T extends { crux: string }>(message: unknown): message is T {
  return typeof message === 'object' && message !== null && typeof (message as { crux?: unknown }).crux === 'string';
}

/** The environment variable the primary gives each serving process: its index, 0 … N-1 (0 runs the background work). */
export const WORKER_INDEX_ENV = 'CRUX_SERVER_PROCESS_INDEX';
