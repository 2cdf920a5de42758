// The HTTP edge of the error vocabulary (shared/errors.ts): the domain throws
// CruxError, app.ts's onError turns every throw into docs/API.md's error body
// `{"error": "<message for a person>", "code": "<kebab-case>"}`. Nothing else in
// the server knows about statuses.
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { CruxError, type ErrorBody } from '../../../shared/errors.js';
import { MSG } from '../../../shared/messages.js';
import { isBusyError } from '../store/busy.js';
import { metrics } from '../observe/metrics.js';

/** Seconds a client is asked to wait when the database stayed locked past its busy timeout. */
export const BUSY_RETRY_AFTER_SECONDS = 2;

export const MSG_BUSY = 'The server is busy saving other changes. Please try again in a moment.';

/** The client went away (closed the tab, cancelled the fetch) before its request was read or answered. */
export function isClientAbort(c: Context, error: unknown): boolean {
  if (c.req.raw.signal?.aborted) return true;
  const e = error as { name?: unknown; code?: unknown } | null;
  if (e?.name === 'AbortError') return true;
  return typeof e?.code === 'string' && ['ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE'].includes(e.code);
}

export function errorResponse(c: Context, error: unknown, log: (message: string, error?: unknown) => void): Response {
  if (error instanceof CruxError) return c.json<ErrorBody>({ error: error.message, code: error.code }, error.status);
  if (error instanceof HTTPException) return c.json<ErrorBody>({ error: error.message || MSG.notFound }, error.status);
  if (error instanceof URIError) return c.json<ErrorBody>({ error: 'The address is not valid.', code: 'invalid-argument' }, 400);
  // Another connection (a second server process, a backup, an operator's LOCK TABLE) held the
  // write lock past the busy timeout, or no database connection came free in that time
  // (store/busy.ts): nothing was written, the client retries after a pause.
  if (isBusyError(error)) {
    metrics.busy.inc();
    return c.json<ErrorBody>({ error: MSG_BUSY, code: 'unavailable' }, 503, { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) });
  }
  // Nobody is left to read the answer, and it is not the server's fault: not logged.
  if (isClientAbort(c, error)) return c.json<ErrorBody>({ error: 'The request was cancelled.', code: 'invalid-argument' }, 400);
  log(`Unexpected error on ${c.req.method} ${c.req.path}`, error);
  return c.json<ErrorBody>({ error: MSG.internal, code: 'internal' }, 500);
}
