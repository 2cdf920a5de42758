// The one HTTP client of the app: every request to the server goes through `createHttp` (sync
// pulls, pushes and the live stream through its `syncHttp` face; the REST reads and calls of the
// data layer; the web config before Firebase starts). What it does for each request:
// - `/api` on the base URL; a body is JSON, or a form when it is URLSearchParams.
// - With a token source, a fresh ID token each time (getToken is called only where
//   a request is made). A 401 or 403 is retried once with a forced refresh (a token that expired
//   mid-replication, a role granted a moment ago); a 401 even then, or a token the account can no
//   longer get, ends the session (connectivity.ts): no request carries a token until a sign-in.
// - Offline (the browser says so) it fails at once without touching the network. A network error
//   or a 5xx marks the server unreachable (a real outage fires no 'offline' event); any other
//   answer marks it reachable again.
// - A refusal (`{error, code}`) is thrown as the shared CruxError with the server's code and text.
// - `sync-outdated` (426: the server speaks a newer protocol) ends syncing until the page reloads:
//   every later sync request fails at once, nothing is resent.
// - A push refused with 429 (nothing applied) reports its Retry-After; the push stays queued (the
//   outbox retries a push that threw) and the next push waits out the rest of that time.
// Only sync requests carry the protocol header and move the sync status (its last error and time).
import { CruxError, ERROR_STATUS, isErrorCode, type ErrorBody, type ErrorCode } from '../../../shared/errors.js';
import { MSG } from '../../../shared/messages.js';
import { retryAfterMs as parseRetryAfter } from '../../../shared/retry-after.js';
import { SYNC_PROTOCOL_HEADER, SYNC_PROTOCOL_VERSION } from '../../../shared/sync-protocol.js';
import type { Connectivity } from './connectivity.js';

/** A 429's Retry-After as milliseconds from now: believed up to 10 minutes, 5 s when absent or unreadable. */
export const retryAfterMs = (header: string | null, now = Date.now()): number =>
  parseRetryAfter(header, now, { maxMs: 10 * 60_000, missingMs: 5_000 });

export type TokenSource = (forceRefresh?: boolean) => Promise<string | null>;

export const SESSION_ENDED_MESSAGE = 'Your session has ended: sign in again to send your changes.';
const OFFLINE_MESSAGE = 'You are offline.';
const UNREACHABLE_MESSAGE = 'The server cannot be reached.';
const SERVER_PROBLEM = 'The server had a problem; retrying.';

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
  // the server's INVALID_REFRESH_TOKEN. Taken for a network failure, it read "Offline".
  'auth/invalid-refresh-token',
  'auth/requires-recent-login',
]);

/** Whether getToken's failure says the session is over (not a network failure). */
export function isSessionEndedError(error: unknown): boolean {
  const code = error && typeof error === 'object' && 'code' in error ? error.code : undefined;
  return typeof code === 'string' && SESSION_ENDED_CODES.has(code);
}

/** The code an answer without one of its own travels with (every status of the vocabulary has one). */
const CODE_BY_STATUS = new Map<number, ErrorCode>(Object.entries(ERROR_STATUS).map(([code, status]) => [status, code as ErrorCode]));

export interface HttpRequest {
  method?: string;
  /** Sent as JSON, or as a form when it is URLSearchParams. */
  body?: unknown;
  /** The signed-in user's ID token source; null or absent for an anonymous request. */
  token?: TokenSource | null;
  signal?: AbortSignal;
  /**
   * A request of the sync protocol: it carries the protocol version, fails at once once the server
   * asked for a newer app, and its outcome is the sync status's last error and last success.
   */
  sync?: boolean;
  /** What the refusal says when the browser is offline (default OFFLINE_MESSAGE). */
  offline?: string;
}

export interface Http {
  /** The answer's JSON (undefined for 204). Throws CruxError, or the abort of `signal`. */
  json<T>(path: string, request?: HttpRequest): Promise<T>;
  /** The answer itself, once it is known to be a success (headers, a streamed body). */
  request(path: string, request?: HttpRequest): Promise<Response>;
}

const isPush = (path: string, method: string) => method === 'POST' && path.endsWith('/push');
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

class SessionEnded extends Error {}

async function errorBody(res: Response): Promise<Partial<ErrorBody>> {
  try {
    const parsed: unknown = JSON.parse(await res.text());
    return parsed && typeof parsed === 'object' ? parsed : {};
  } catch {
    return {};
  }
}

/** `baseUrl`: the server's origin ('' in the browser: the page's own). */
export function createHttp(baseUrl: string, fetchImpl: typeof fetch, connectivity: Connectivity): Http {
  async function send(path: string, request: HttpRequest): Promise<Response> {
    const { method = 'GET', body, token = null, signal, sync = false } = request;
    // A push refused with 429 is retried only once the server's Retry-After has passed.
    if (sync && isPush(path, method)) {
      const wait = connectivity.rateLimitedFor();
      if (wait > 0) await pause(wait);
    }
    // The sign-in this request was made under (a late failure never ends a newer session).
    const generation = connectivity.sessionGeneration();
    if (sync && connectivity.isOutdated()) throw new CruxError('sync-outdated', MSG.syncOutdated);
    if (!connectivity.isBrowserOnline()) throw new CruxError('unavailable', request.offline ?? OFFLINE_MESSAGE);
    // The account's session ended: nothing goes out with (or for) it until a sign-in.
    if (token && connectivity.isSessionEnded()) throw new CruxError('unauthenticated', SESSION_ENDED_MESSAGE);
    const attempt = async (forceRefresh: boolean) => {
      const headers: Record<string, string> = {};
      if (sync) headers[SYNC_PROTOCOL_HEADER] = String(SYNC_PROTOCOL_VERSION);
      const init: RequestInit = { method, headers };
      if (body instanceof URLSearchParams) init.body = body;
      else if (body !== undefined) {
        headers['content-type'] = 'application/json';
        init.body = JSON.stringify(body);
      }
      if (token) {
        let bearer: string | null;
        try {
          bearer = await token(forceRefresh);
        } catch (error) {
          if (isSessionEndedError(error)) throw new SessionEnded();
          // Offline after expiry getIdToken() fails (firebase-js-sdk 5813): a retry, not a sign-out.
          throw new CruxError('unavailable', 'Could not get ID token. Please log in again.');
        }
        // A signed-in user for whom no token can be had any more.
        if (!bearer) throw new SessionEnded();
        headers.authorization = `Bearer ${bearer}`;
      }
      if (signal) init.signal = signal;
      return fetchImpl(`${baseUrl}/api${path}`, init);
    };
    let res: Response;
    try {
      res = await attempt(false);
      if ((res.status === 401 || res.status === 403) && token) {
        await res.body?.cancel();
        res = await attempt(true);
      }
    } catch (error) {
      if (signal?.aborted) throw error;
      if (error instanceof SessionEnded) {
        connectivity.reportSessionEnded(generation);
        throw new CruxError('unauthenticated', SESSION_ENDED_MESSAGE);
      }
      const failure = error instanceof CruxError ? error : new CruxError('unavailable', UNREACHABLE_MESSAGE);
      connectivity.reportFailure(failure.message);
      throw failure;
    }
    if (res.status >= 500) {
      const { error, code } = await errorBody(res);
      connectivity.reportFailure(SERVER_PROBLEM);
      throw new CruxError(isErrorCode(code) ? code : 'internal', error ?? SERVER_PROBLEM);
    }
    connectivity.reportReachable();
    // Refused even with a freshly refreshed token: the account's session is over.
    if (res.status === 401 && token) {
      await res.body?.cancel();
      connectivity.reportSessionEnded(generation);
      throw new CruxError('unauthenticated', SESSION_ENDED_MESSAGE);
    }
    if (!res.ok) {
      const { error, code } = await errorBody(res);
      if (res.status === ERROR_STATUS['sync-outdated'] || code === 'sync-outdated') {
        connectivity.reportOutdated(MSG.syncOutdated);
        throw new CruxError('sync-outdated', MSG.syncOutdated);
      }
      const message = error ?? `Request failed (${res.status}).`;
      // Nothing was applied; a refused push stays queued and goes again after the wait.
      if (sync && res.status === ERROR_STATUS['rate-limited'] && isPush(path, method)) {
        connectivity.reportRateLimited(Date.now() + retryAfterMs(res.headers.get('retry-after')), message);
      } else if (sync) connectivity.reportError(message);
      throw new CruxError(isErrorCode(code) ? code : (CODE_BY_STATUS.get(res.status) ?? 'invalid-argument'), message);
    }
    if (sync) connectivity.reportSuccess();
    return res;
  }

  return {
    async json(path, request = {}) {
      const res = await send(path, request);
      return (res.status === 204 ? undefined : await res.json()) as never;
    },
    request: (path, request = {}) => send(path, request),
  };
}

/** The sync protocol's face of the client: paths under /api/sync. */
export interface SyncHttp {
  /** JSON request; `token` is null for anonymous calls. Throws CruxError. */
  json<T>(path: string, init: { method?: string; body?: unknown; token: TokenSource | null }): Promise<T>;
  /** Raw request for the live stream (the caller reads the body). */
  open(path: string, token: TokenSource | null, signal: AbortSignal): Promise<Response>;
}

export function syncHttp(http: Http): SyncHttp {
  return {
    json: (path, { method, body, token }) => http.json(`/sync${path}`, { method, body, token, sync: true }),
    open: (path, token, signal) => http.request(`/sync${path}`, { token, signal, sync: true }),
  };
}
