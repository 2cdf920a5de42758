// Requests to /api/sync with a fresh ID token each time (DESIGN.md §5: only the
// sync handlers call getToken). A 401 is retried once with a forced refresh (a
// token that expired mid-replication); network errors and 5xx mark the server
// unreachable; offline requests fail at once without touching the network. An
// answer `sync-outdated` (426: the server speaks a newer protocol) ends syncing
// until the page reloads: every later request fails at once, nothing is resent.
// A 429 (rate limited: nothing of the request was applied) is reported with its
// `Retry-After`; the push that met it stays queued (RxDB retries a throwing push
// handler) and the next push waits out the rest of that time before it goes.
import { ERROR_STATUS, type ErrorBody } from '../../../shared/errors.js';
import { MSG } from '../../../shared/messages.js';
import { SYNC_PROTOCOL_HEADER, SYNC_PROTOCOL_VERSION } from '../../../shared/sync-protocol.js';
import type { Connectivity } from './connectivity.js';
import { retryAfterMs as parseRetryAfter } from '../../../shared/retry-after.js';

export class SyncHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** For a 429: how long the server asked to wait (its Retry-After), in ms. */
    readonly retryAfterMs = 0,
  ) {
    super(message);
    this.name = 'SyncHttpError';
  }
}

/** A 429's Retry-After as milliseconds from now: believed up to 10 minutes, 5 s when absent or unreadable. */
export const retryAfterMs = (header: string | null, now = Date.now()): number =>
  parseRetryAfter(header, now, { maxMs: 10 * 60_000, missingMs: 5_000 });

const isPush = (path: string, method: string) => method === 'POST' && path.endsWith('/push');
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export type TokenSource = (forceRefresh?: boolean) => Promise<string | null>;

export const SESSION_ENDED_MESSAGE = 'Your session has ended: sign in again to send your changes.';

/**
 * Firebase Auth errors that mean the account can no longer get a token (the refresh was
 * refused), as opposed to a network failure (`auth/network-request-failed`), which is a retry.
 */
const SESSION_ENDED_CODES = new Set([
  'auth/user-disabled',
  'auth/user-token-expired',
  'auth/user-not-found',
  'auth/invalid-user-token',
  // The refresh token names no account any more (a deleted user: the Auth emulator's answer, and
  // Google's for a token it no longer knows). The SDK has no code of its own for it: it lower-cases
  // the server's INVALID_REFRESH_TOKEN. Taken for a network failure, it read "Offline" (issue 24 #4).
  'auth/invalid-refresh-token',
  'auth/requires-recent-login',
]);

/** Whether getToken's failure says the session is over (not a network failure). */
export function isSessionEndedError(error: unknown): boolean {
  const code = error && typeof error === 'object' && 'code' in error ? error.code : undefined;
  return typeof code === 'string' && SESSION_ENDED_CODES.has(code);
}

class SessionEnded extends Error {}

export interface SyncHttp {
  /** JSON request; `token` is null for anonymous calls. Throws SyncHttpError or a network error. */
  json<T>(path: string, init: { method?: string; body?: unknown; token: TokenSource | null }): Promise<T>;
  /** Raw request for the live stream (the caller reads the body). */
  open(path: string, token: TokenSource | null, signal: AbortSignal): Promise<Response>;
}

export function createSyncHttp(baseUrl: string, fetchImpl: typeof fetch, connectivity: Connectivity): SyncHttp {
  async function send(path: string, method: string, body: unknown, token: TokenSource | null, signal?: AbortSignal) {
    // A push refused with 429 is retried only once the server's Retry-After has passed.
    if (isPush(path, method)) {
      const wait = connectivity.rateLimitedFor();
      if (wait > 0) await pause(wait);
    }
    // The sign-in this request was made under (a late failure never ends a newer session).
    const generation = connectivity.sessionGeneration();
    if (connectivity.isOutdated()) throw new SyncHttpError(ERROR_STATUS['sync-outdated'], MSG.syncOutdated);
    if (!connectivity.isBrowserOnline()) throw new SyncHttpError(0, 'You are offline.');
    // The account's session ended: nothing goes out with (or for) it until a sign-in.
    if (token && connectivity.isSessionEnded()) throw new SyncHttpError(401, SESSION_ENDED_MESSAGE);
    const attempt = async (forceRefresh: boolean) => {
      const headers: Record<string, string> = { [SYNC_PROTOCOL_HEADER]: String(SYNC_PROTOCOL_VERSION) };
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (token) {
        let bearer: string | null;
        try {
          bearer = await token(forceRefresh);
        } catch (error) {
          if (isSessionEndedError(error)) throw new SessionEnded();
          // Offline after expiry getIdToken() fails (firebase-js-sdk 5813): a retry, not a sign-out.
          throw new SyncHttpError(0, 'Could not get ID token. Please log in again.');
        }
        // A signed-in user for whom no token can be had any more.
        if (!bearer) throw new SessionEnded();
        headers.authorization = `Bearer ${bearer}`;
      }
      const init: RequestInit = { method, headers };
      if (body !== undefined) init.body = JSON.stringify(body);
      if (signal) init.signal = signal;
      return fetchImpl(`${baseUrl}/api/sync${path}`, init);
    };
    let res: Response;
    try {
      res = await attempt(false);
      if (res.status === 401 && token) {
        await res.body?.cancel();
        res = await attempt(true);
      }
    } catch (error) {
      if (signal?.aborted) throw error;
      if (error instanceof SessionEnded) {
        connectivity.reportSessionEnded(generation);
        throw new SyncHttpError(401, SESSION_ENDED_MESSAGE);
      }
      const message = error instanceof SyncHttpError ? error.message : 'The server cannot be reached.';
      connectivity.reportFailure(message);
      throw error instanceof SyncHttpError ? error : new SyncHttpError(0, message);
    }
    if (res.status >= 500) {
      await res.body?.cancel();
      connectivity.reportFailure('The server had a problem; retrying.');
      throw new SyncHttpError(res.status, 'The server had a problem; retrying.');
    }
    // Refused even with a freshly refreshed token: the account's session is over.
    if (res.status === 401 && token) {
      await res.body?.cancel();
      connectivity.reportSessionEnded(generation);
      throw new SyncHttpError(401, SESSION_ENDED_MESSAGE);
    }
    if (!res.ok) {
      const text = await res.text();
      let body: Partial<ErrorBody> = {};
      try {
        const parsed: unknown = JSON.parse(text);
        if (parsed && typeof parsed === 'object') body = parsed;
      } catch {
        // not JSON
      }
      if (res.status === ERROR_STATUS['sync-outdated'] || body.code === 'sync-outdated') {
        connectivity.reportOutdated(MSG.syncOutdated);
        throw new SyncHttpError(res.status, MSG.syncOutdated);
      }
      const message = body.error ?? `Request failed (${res.status}).`;
      if (res.status === ERROR_STATUS['rate-limited']) {
        // Nothing was applied; a refused push stays queued and goes again after the wait.
        const wait = retryAfterMs(res.headers.get('retry-after'));
        if (isPush(path, method)) connectivity.reportRateLimited(Date.now() + wait, message);
        else connectivity.reportError(message);
        throw new SyncHttpError(res.status, message, wait);
      }
      connectivity.reportError(message);
      throw new SyncHttpError(res.status, message);
    }
    connectivity.reportSuccess();
    return res;
  }
  return {
    async json(path, { method = 'GET', body, token }) {
      const res = await send(path, method, body, token);
      return (await res.json()) as never;
    },
    open: (path, token, signal) => send(path, 'GET', undefined, token, signal),
  };
}
