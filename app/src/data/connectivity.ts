// Whether the server can be reached: the browser's online flag AND the outcome
// of the last request. A real outage fires no 'offline' event and leaves
// navigator.onLine true, so a failed request counts as offline until a retry
// (or an 'online' event) succeeds.
import { BehaviorSubject, combineLatest, distinctUntilChanged, map, type Observable } from 'rxjs';

export interface Connectivity {
  /** Browser online and the server reachable. */
  readonly online$: Observable<boolean>;
  readonly browserOnline$: BehaviorSubject<boolean>;
  isOnline(): boolean;
  isBrowserOnline(): boolean;
  reportFailure(message: string): void;
  /** The server answered but refused (4xx): an error to show, not an outage. */
  reportError(message: string): void;
  /** The server answered (any request): it is reachable, whatever the answer said. */
  reportReachable(): void;
  /** A sync request succeeded: reachable, no error, and the time of the last sync. */
  reportSuccess(): void;
  /**
   * The server answered `sync-outdated` (HTTP 426): this app speaks an older sync
   * protocol. Final until the page reloads: no sync request goes out any more.
   */
  reportOutdated(message: string): void;
  isOutdated(): boolean;
  readonly updateRequired$: BehaviorSubject<boolean>;
  /**
   * The signed-in account can no longer get a token (refresh refused: account disabled or
   * removed, session revoked). No request carries a token until a sign-in clears it.
   */
  reportSessionEnded(since?: number): void;
  clearSessionEnded(): void;
  /**
   * Which sign-in the requests belong to: a request passes the value it started with to
   * reportSessionEnded, so a late failure of a request made before a new sign-in is not taken for
   * the end of that new session (it would bring the "session ended" strip back over a working one).
   */
  sessionGeneration(): number;
  isSessionEnded(): boolean;
  readonly sessionEnded$: BehaviorSubject<boolean>;
  /**
   * The server refused a write with 429 (rate limited): nothing was applied, the write stays
   * queued and is sent again once `Retry-After` has passed. Cleared when that time comes.
   */
  reportRateLimited(untilMs: number, message: string): void;
  /** Milliseconds left before writes may be sent again (0 when not rate limited). */
  rateLimitedFor(): number;
  /** When writes may be sent again (ms since the epoch), or null when not rate limited. */
  readonly rateLimitedUntil$: BehaviorSubject<number | null>;
  readonly lastError$: BehaviorSubject<string | null>;
  readonly lastSuccessAt$: BehaviorSubject<string | null>;
  dispose(): void;
}

export function createConnectivity(events: EventTarget | undefined, isOnline: () => boolean): Connectivity {
  const browserOnline$ = new BehaviorSubject(isOnline());
  const reachable$ = new BehaviorSubject(true);
  const lastError$ = new BehaviorSubject<string | null>(null);
  const lastSuccessAt$ = new BehaviorSubject<string | null>(null);
  const updateRequired$ = new BehaviorSubject(false);
  const sessionEnded$ = new BehaviorSubject(false);
  const rateLimitedUntil$ = new BehaviorSubject<number | null>(null);
  let rateLimitTimer: ReturnType<typeof setTimeout> | undefined;
  let generation = 0;
  const onOnline = () => {
    // Optimistic: the next request tells whether the server is really there.
    reachable$.next(true);
    browserOnline$.next(true);
  };
  const onOffline = () => browserOnline$.next(false);
  events?.addEventListener('online', onOnline);
  events?.addEventListener('offline', onOffline);
  return {
    online$: combineLatest([browserOnline$, reachable$]).pipe(
      map(([browser, reachable]) => browser && reachable),
      distinctUntilChanged(),
    ),
    browserOnline$,
    isOnline: () => browserOnline$.value && reachable$.value,
    isBrowserOnline: () => browserOnline$.value,
    reportFailure(message) {
      lastError$.next(message);
      if (reachable$.value) reachable$.next(false);
    },
    reportError(message) {
      lastError$.next(message);
    },
    reportReachable() {
      if (!reachable$.value) reachable$.next(true);
    },
    reportSuccess() {
      if (!reachable$.value) reachable$.next(true);
      if (lastError$.value !== null) lastError$.next(null);
      lastSuccessAt$.next(new Date().toISOString());
    },
    reportOutdated(message) {
      lastError$.next(message);
      if (!updateRequired$.value) updateRequired$.next(true);
    },
    isOutdated: () => updateRequired$.value,
    updateRequired$,
    reportSessionEnded(since = generation) {
      if (since !== generation) return;
      if (!sessionEnded$.value) sessionEnded$.next(true);
    },
    clearSessionEnded() {
      generation += 1;
      if (sessionEnded$.value) sessionEnded$.next(false);
    },
    sessionGeneration: () => generation,
    isSessionEnded: () => sessionEnded$.value,
    sessionEnded$,
    reportRateLimited(untilMs, message) {
      lastError$.next(message);
      if ((rateLimitedUntil$.value ?? 0) >= untilMs) return;
      rateLimitedUntil$.next(untilMs);
      clearTimeout(rateLimitTimer);
      rateLimitTimer = setTimeout(
        () => {
          rateLimitedUntil$.next(null);
          if (lastError$.value === message) lastError$.next(null);
        },
        Math.max(0, untilMs - Date.now()),
      );
    },
    rateLimitedFor: () => Math.max(0, (rateLimitedUntil$.value ?? 0) - Date.now()),
    rateLimitedUntil$,
    lastError$,
    lastSuccessAt$,
    dispose() {
      clearTimeout(rateLimitTimer);
      events?.removeEventListener('online', onOnline);
      events?.removeEventListener('offline', onOffline);
    },
  };
}
