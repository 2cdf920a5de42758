// "The database is busy, try again in a moment" on either engine:
// the errors a write gets when another connection held what it needed past DB_BUSY_TIMEOUT_MS,
// or the database had no connection for it in that time. Nothing was written (the transaction
// rolled back), so the API answers 503 with Retry-After (http/errors.ts), never 500.

/**
 * PostgreSQL's SQLSTATEs for "wait and retry": 55P03 lock_not_available (lock_timeout, set from
 * DB_BUSY_TIMEOUT_MS by store/pg/store.ts), 40P01 deadlock_detected, 40001 serialization_failure,
 * 53300 too_many_connections, 57P03 cannot_connect_now (the server is starting or in recovery).
 */
const PG_BUSY_CODES = new Set(['55P03', '40P01', '40001', '53300', '57P03']);

/** pg-pool's error when no pooled connection came free within connectionTimeoutMillis. */
const PG_POOL_TIMEOUT = 'timeout exceeded when trying to connect';
/** pg's error when a new connection was not made within connectionTimeoutMillis. */
const PG_CONNECT_TIMEOUT = 'Connection terminated due to connection timeout';

/** Crux's own "busy": a write that waited in its process's writer queue past the pool's limit (store/pg/store.ts). */
const CRUX_BUSY = 'CRUX_BUSY';
export function busyError(message: string): Error {
  return Object.assign(new Error(message), { code: CRUX_BUSY });
}

export function isBusyError(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  const code = e?.code;
  if (typeof code === 'string') {
    // SQLite: its lock was not free within the busy timeout (SQLITE_BUSY and its extended codes).
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return true;
    if (PG_BUSY_CODES.has(code) || code === CRUX_BUSY) return true;
  }
  return e instanceof Error && (e.message === PG_POOL_TIMEOUT || e.message === PG_CONNECT_TIMEOUT);
}
