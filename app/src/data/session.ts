// The signed-in user as the data layer holds it, and the one place where a call made as the user
// waits for the sign-in under way. On a reload the screens know who is signed in, and can be
// clicked, a moment before the user's database has opened: a stance, vote or reply made then
// waits here instead of being refused as "log in" and lost (it was, twice, when this wait lived
// in three layers). Which calls are made as the user: deferred.ts's members table ('user-call').
import { BehaviorSubject } from 'rxjs';
import type { Session } from './actions.js';
import type { CruxData, SessionUser } from './api.js';
import type { UserDb } from './db.js';
import { CRUX_DATA_MEMBERS } from './deferred.js';

export type CurrentSession = Session & { getToken: SessionUser['getToken'] };

type AnyCall = (...args: unknown[]) => Promise<unknown>;

/** `known`: CruxDataOptions.sessionKnown (settles once the app has called signIn or signOut for whoever is signed in). */
export function createSession(known: Promise<unknown> = Promise.resolve()) {
  let current: CurrentSession | null = null;
  /** A sign-in or sign-out under way: the next one, and every call made as the user, waits for it. */
  let change: Promise<void> = Promise.resolve();
  let isKnown = false;
  const knownSettled = known.then(
    () => void (isKnown = true),
    () => void (isKnown = true),
  );
  /**
   * Until the app knows who is signed in, a call waits for that and then for the sign-in it
   * started; after, for the sign-in or sign-out under way when it was made (not for a later one).
   */
  async function settled() {
    if (!isKnown) await knownSettled;
    await change;
  }
  const userDb$ = new BehaviorSubject<UserDb | null>(null);
  const uid$ = new BehaviorSubject<string | null>(null);

  return {
    current: () => current,
    /** The user's database: null while signed out. */
    userDb$,
    uid$,
    /** Runs a sign-in or sign-out after the one under way. */
    serially(step: () => Promise<void>): Promise<void> {
      const next = change.then(step, step);
      change = next.catch(() => {});
      return next;
    },
    open(user: SessionUser, db: UserDb) {
      current = { uid: user.uid, db, getToken: user.getToken };
      userDb$.next(db);
      uid$.next(user.uid);
    },
    /** Forgets the user (the caller closes or removes their database); the session that was open. */
    close(): CurrentSession | null {
      const closed = current;
      current = null;
      userDb$.next(null);
      uid$.next(null);
      return closed;
    },
    /** `members` with each call made as the user (deferred.ts's members table) waiting for the sign-in under way first. */
    asUser<T extends Partial<CruxData>>(members: T): T {
      const waiting: Partial<Record<keyof CruxData, unknown>> = { ...members };
      for (const key of Object.keys(members) as (keyof CruxData & keyof T)[]) {
        if (CRUX_DATA_MEMBERS[key] !== 'user-call') continue;
        const call = members[key] as AnyCall;
        waiting[key] = async (...args: unknown[]) => {
          await settled();
          return call(...args);
        };
      }
      return waiting as T;
    },
  };
}

export type SessionState = ReturnType<typeof createSession>;
