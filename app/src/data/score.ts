// The signed-in user's own score for the header: points from their profile document
// (replicated, so it changes live when someone upvotes them) and the rank from
// GET /api/users/{uid}/score. The rank moves when anyone's points move, not only the user's
// own (someone passing them), so it is asked again on the leaderboard's triggers: data that
// moves points landing on this device (at once when it is the user's own points), and every
// 30 s while online. A failed request keeps the last answer (the client has told the connectivity;
// nothing goes to the console). The last answer is kept as a local document of the public database
// (as the leaderboard keeps its copy), so after an offline reload the header still shows points and rank.
// null when signed out or when the server has no score for the user (404: nothing shown).
import {
  Observable,
  auditTime,
  combineLatest,
  concat,
  distinctUntilChanged,
  filter,
  from,
  interval,
  map,
  merge,
  of,
  skip,
  startWith,
  switchMap,
} from 'rxjs';
import { CruxError } from '../../../shared/errors.js';
import type { UserScore } from '../../../shared/types.js';
import type { PublicDb, UserDb } from './db.js';
import type { SessionUser } from './api.js';
import type { Http } from './http.js';

interface Deps {
  http: Http;
  online$: Observable<boolean>;
  userDb$: Observable<UserDb | null>;
  uid$: Observable<string | null>;
  session: () => Pick<SessionUser, 'uid' | 'getToken'> | null;
  /** Where the last answer is kept (the leaderboard's copy lives there too). */
  publicDb: () => PublicDb;
  /** Emits when data that moves points landed on this device: the rank is asked again. */
  pointsMoved$?: Observable<unknown>;
  /** Asked again this often while online, for points moved where this device does not see. */
  refreshMs?: number;
}

/** Changes closer together than this make one refresh (as the leaderboard's). */
const REFRESH_AUDIT_MS = 1_000;

const keyOf = (uid: string) => `score-${uid}`;

export function createScore(deps: Deps): () => Observable<UserScore | null> {
  /** The kept answer: a score, null for "no score" (404), undefined when nothing is kept. */
  async function readKept(uid: string): Promise<UserScore | null | undefined> {
    try {
      const doc = await deps.publicDb().getLocal<{ score: UserScore | null }>(keyOf(uid));
      return doc ? ((doc.get('score') as UserScore | null | undefined) ?? null) : undefined;
    } catch {
      return undefined;
    }
  }

  async function keep(uid: string, score: UserScore | null): Promise<void> {
    try {
      await deps.publicDb().upsertLocal(keyOf(uid), { score });
    } catch {
      // A closed or removed database: the answer is simply not kept.
    }
  }

  async function fetchScore(uid: string): Promise<UserScore | null | undefined> {
    const current = deps.session();
    if (current?.uid !== uid) return undefined;
    try {
      return await deps.http.json<UserScore>(`/users/${encodeURIComponent(uid)}/score`, { token: (force) => current.getToken(force) });
    } catch (error) {
      // 404: the server has no score for the user; any other failure keeps the last answer.
      return error instanceof CruxError && error.code === 'not-found' ? null : undefined;
    }
  }

  const points$ = (uid: string): Observable<number | null> =>
    deps.userDb$.pipe(
      switchMap((db) => (db ? db.profile.findOne(uid).$ : of(null))),
      map((doc) => (doc ? doc.points : null)),
      distinctUntilChanged(),
    );

  /** The kept answer at once, then (online) a fresh one on every trigger; a failed fetch keeps the last. */
  const answers$ = (uid: string): Observable<UserScore | null> =>
    deps.online$.pipe(
      distinctUntilChanged(),
      switchMap((online) => {
        const kept$ = from(readKept(uid)).pipe(map((kept) => kept ?? null));
        if (!online) return kept$;
        const refresh$ = merge(
          // The user's own points: asked at once, the header's number moved.
          points$(uid).pipe(skip(1)),
          (deps.pointsMoved$ ?? of()).pipe(auditTime(REFRESH_AUDIT_MS)),
          interval(deps.refreshMs ?? 30_000),
        ).pipe(startWith(null));
        const fetched$ = refresh$.pipe(
          switchMap(() => from(fetchScore(uid))),
          filter((score): score is UserScore | null => score !== undefined),
          switchMap((score) => from(keep(uid, score).then(() => score))),
        );
        return concat(kept$, fetched$);
      }),
    );

  return () =>
    deps.uid$.pipe(
      distinctUntilChanged(),
      switchMap((uid) => {
        if (!uid) return of(null);
        return combineLatest([answers$(uid), points$(uid)]).pipe(
          // The profile's points are the live ones; the rank is the server's last answer.
          map(([score, points]) => (score ? { ...score, points: points ?? score.points } : null)),
          distinctUntilChanged((a, b) => a?.points === b?.points && a?.rank === b?.rank && a?.uid === b?.uid),
        );
      }),
    );
}
