// The signed-in user's own score for the header: points from their profile document
// (replicated, so it changes live when someone upvotes them) and the rank from
// GET /api/users/{uid}/score, asked again whenever the points change or the device comes
// back online. The last rank is kept in memory, so offline the header still shows it.
// null when signed out or when the server has no score for the user (404: nothing shown).
import { Observable, combineLatest, distinctUntilChanged, map, of, switchMap } from 'rxjs';
import type { UserScore } from '../../../shared/types.js';
import type { UserDb } from './db.js';
import type { SessionUser } from './api.js';

interface Deps {
  baseUrl: string;
  fetchImpl: typeof fetch;
  online$: Observable<boolean>;
  userDb$: Observable<UserDb | null>;
  uid$: Observable<string | null>;
  session: () => Pick<SessionUser, 'uid' | 'getToken'> | null;
}

export function createScore(deps: Deps): () => Observable<UserScore | null> {
  /** Last answer per uid: a score, or null for "no score" (404). */
  const known = new Map<string, UserScore | null>();

  async function fetchScore(uid: string): Promise<UserScore | null | undefined> {
    const current = deps.session();
    if (current?.uid !== uid) return undefined;
    try {
      const token = await current.getToken();
      if (!token) return undefined;
      const res = await deps.fetchImpl(`${deps.baseUrl}/api/users/${encodeURIComponent(uid)}/score`, {
        headers: { authorization: `Bearer ${token}` },
      });
      if (res.status === 404) return null;
      if (!res.ok) {
        console.error(`Error fetching score: ${res.status}`);
        return undefined;
      }
      return (await res.json()) as UserScore;
    } catch (error) {
      console.error('Error fetching score:', error);
      return undefined;
    }
  }

  const points$ = (uid: string): Observable<number | null> =>
    deps.userDb$.pipe(
      switchMap((db) => (db ? db.profile.findOne(uid).$ : of(null))),
      map((doc) => (doc ? doc.points : null)),
      distinctUntilChanged(),
    );

  return () =>
    deps.uid$.pipe(
      distinctUntilChanged(),
      switchMap((uid) => {
        if (!uid) return of(null);
        return combineLatest([points$(uid), deps.online$.pipe(distinctUntilChanged())]).pipe(
          switchMap(
            ([points, online]) =>
              new Observable<UserScore | null>((subscriber) => {
                let closed = false;
                const last = known.get(uid);
                const withPoints = (score: UserScore | null | undefined) =>
                  score ? { ...score, points: points ?? score.points } : (score ?? null);
                if (last !== undefined) subscriber.next(withPoints(last));
                if (!online) {
                  if (last === undefined) subscriber.next(null);
                  return;
                }
                void fetchScore(uid).then((score) => {
                  if (closed || score === undefined) return;
                  known.set(uid, score);
                  subscriber.next(score);
                });
                return () => {
                  closed = true;
                };
              }),
          ),
          distinctUntilChanged((a, b) => a?.points === b?.points && a?.rank === b?.rank && a?.uid === b?.uid),
        );
      }),
    );
}
