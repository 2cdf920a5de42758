// Public, read-only copies asked of the server: the leaderboard (GET /api/users/leaderboard,
// with `?include=persuasion` so each entry carries its persuasion points),
// the signed-in user's own score (GET /api/users/{uid}/score, so their rank shows even
// outside the top 100) and user pages (GET /api/users/{uid}). They are not replicated:
// each read asks the server while online and keeps the answer, with the time it was
// fetched, as a local document of the public database, so the last copy reads offline
// (and goes with the public data when it is removed from the device).
import { Observable, auditTime, combineLatest, distinctUntilChanged, interval, merge, of, startWith, switchMap } from 'rxjs';
import { CruxError } from '../../../shared/errors.js';
import type { LeaderboardEntry, UserProfile, UserScore } from '../../../shared/types.js';
import { MSG } from '../../../shared/messages.js';
import type { PublicDb } from './db.js';
import type { LeaderboardCopy, RemoteCopy, SessionUser } from './api.js';
import type { Http } from './http.js';

export interface Leaderboard {
  leaderboard$(): Observable<RemoteCopy<LeaderboardCopy>>;
  userProfile$(uid: string): Observable<RemoteCopy<UserProfile>>;
}

export const OFFLINE_MESSAGE = 'You are offline: this page loads when you are back online.';

interface Deps {
  http: Http;
  online$: Observable<boolean>;
  publicDb: () => PublicDb;
  session: () => Pick<SessionUser, 'uid' | 'getToken'> | null;
  uid$: Observable<string | null>;
  /**
   * Emits when data that moves points landed on this device (replicated topics, responses, the
   * user's own profile): the open leaderboard asks the server again, so it stays live.
   */
  pointsMoved$?: Observable<unknown>;
  /** Asked again this often while open and online, for points moved where this device does not see. */
  refreshMs?: number;
}

/** Changes closer together than this make one refresh. */
const REFRESH_AUDIT_MS = 1_000;

interface Stored<T> {
  value: T;
  fetchedAt: string;
}

export function createLeaderboard(deps: Deps): Leaderboard {
  async function readCopy<T>(key: string): Promise<Stored<T> | null> {
    try {
      const doc = await deps.publicDb().getLocal<{ copy: Stored<T> }>(key);
      return (doc?.get('copy') as Stored<T> | undefined) ?? null;
    } catch {
      return null;
    }
  }

  async function keepCopy<T>(key: string, copy: Stored<T> | null): Promise<void> {
    try {
      const db = deps.publicDb();
      if (copy) await db.upsertLocal(key, { copy });
      else await (await db.getLocal(key))?.remove();
    } catch {
      // A closed or removed database: the copy is simply not kept.
    }
  }

  /** Emits the kept copy at once, then (online) the fetched one; offline the kept copy is all. */
  function remote<T>(key: string, online: boolean, fetchValue: () => Promise<T>, errorPrefix: string) {
    return new Observable<RemoteCopy<T>>((subscriber) => {
      let closed = false;
      void (async () => {
        const kept = await readCopy<T>(key);
        const base = { value: kept?.value ?? null, fetchedAt: kept?.fetchedAt ?? null, notFound: false };
        if (closed) return;
        if (!online) {
          subscriber.next({ ...base, loading: false, stale: true, error: kept ? null : OFFLINE_MESSAGE });
          return;
        }
        subscriber.next({ ...base, loading: true, stale: kept !== null, error: null });
        try {
          const value = await fetchValue();
          const copy = { value, fetchedAt: new Date().toISOString() };
          await keepCopy(key, copy);
          if (!closed) subscriber.next({ ...copy, notFound: false, loading: false, stale: false, error: null });
        } catch (error) {
          if (closed) return;
          if (error instanceof CruxError && error.code === 'not-found') {
            await keepCopy(key, null);
            subscriber.next({ value: null, fetchedAt: null, notFound: true, loading: false, stale: false, error: null });
            return;
          }
          const reason = error instanceof Error ? error.message : String(error);
          subscriber.next({ ...base, loading: false, stale: true, error: `${errorPrefix}${reason}` });
        }
      })();
      return () => {
        closed = true;
      };
    });
  }

  async function fetchLeaderboard(uid: string | null): Promise<LeaderboardCopy> {
    const entries = await deps.http.json<LeaderboardEntry[]>('/users/leaderboard?include=persuasion');
    if (!uid) return { entries, me: null };
    const listed = entries.find((entry) => entry.uid === uid);
    if (listed) return { entries, me: { uid, points: listed.points, rank: listed.rank, persuasion_points: listed.persuasion_points ?? 0 } };
    // Outside the top 100: ask for the user's own score (404 or any failure = none shown, never an error).
    const current = deps.session();
    if (current?.uid !== uid) return { entries, me: null };
    try {
      const path = `/users/${encodeURIComponent(uid)}/score?include=persuasion`;
      return { entries, me: await deps.http.json<UserScore>(path, { token: (force) => current.getToken(force) }) };
    } catch {
      return { entries, me: null };
    }
  }

  const online$ = deps.online$.pipe(distinctUntilChanged());
  const refresh$ = merge(interval(deps.refreshMs ?? 30_000), (deps.pointsMoved$ ?? of()).pipe(auditTime(REFRESH_AUDIT_MS))).pipe(
    startWith(null),
  );

  return {
    leaderboard$: () =>
      combineLatest([deps.uid$.pipe(distinctUntilChanged()), online$]).pipe(
        // Online, asked again while open whenever points may have moved; offline, the kept copy.
        switchMap(([uid, online]) =>
          (online ? refresh$ : of(null)).pipe(
            switchMap(() => remote('leaderboard', online, () => fetchLeaderboard(uid), 'Error loading leaderboard: ')),
          ),
        ),
      ),
    userProfile$: (uid) =>
      online$.pipe(
        switchMap((online) =>
          remote(
            `user-${uid}`,
            online,
            // `missing=null`: an unknown user is a 200 with null, not a 404 the browser logs as an error.
            async () => {
              const profile = await deps.http.json<UserProfile | null>(`/users/${encodeURIComponent(uid)}?missing=null`);
              if (profile === null) throw new CruxError('not-found', MSG.userNotFound);
              return profile;
            },
            'Error loading user: ',
          ),
        ),
      ),
  };
}
