// Signing in and out: the user's database opens at sign-in and closes (or is removed from the
// device) at sign-out, one after the other (session.ts `serially`), so a shared device never
// shows one person's data to the next.
import { BehaviorSubject, firstValueFrom } from 'rxjs';
import type { SessionUser } from './api.js';
import { SYNC_COLLECTIONS } from '../../../shared/sync-protocol.js';
import { kindSelector, storedIn, SYNCED } from './collections/index.js';
import type { Connectivity } from './connectivity.js';
import { openUserDb, removeDb, type DbOptions, type UserDb } from './db.js';
import { adoptUserList, draftsIn } from './drafts.js';
import type { EndedSession } from './ended-session.js';
import { ENDED_SESSION_WRITE } from './orphans.js';
import type { ProblemRecorder } from './problems.js';
import type { SessionState } from './session.js';
import type { Worlds } from './world.js';

interface SignInDeps {
  dbOptions: DbOptions;
  session: SessionState;
  worlds: Worlds;
  connectivity: Connectivity;
  problems: ProblemRecorder;
  ended: EndedSession;
}

export interface SignOutOptions {
  removeData?: boolean;
  /** The person logged out (the Logout dialog): nothing of theirs is waiting for a "sign in again". */
  byUser?: boolean;
  /** A user this device was signed in as whom Firebase did not restore (auth/session.ts `lostUid`). */
  endedUid?: string | null;
}

type Findable = { find(q: object): { exec(): Promise<{ get(field: string): unknown }[]> } };

/** Unsent writes in a user's own database (small collections, not indexed on `pending`: RxDB's count() would refuse). */
async function pendingIn(db: UserDb): Promise<number> {
  let count = 0;
  for (const name of SYNC_COLLECTIONS.filter((c) => SYNCED[c].database === 'user')) {
    const collection = (db as unknown as Record<string, Findable>)[storedIn(name)]!;
    count += (await collection.find({ selector: { ...kindSelector(name), pending: true } }).exec()).length;
  }
  return count;
}

export function createSignIn({ dbOptions, session, worlds, connectivity, problems, ended }: SignInDeps) {
  /**
   * The unsent changes of the last session closed without removing its data (status.ts). Taken at
   * every close, not only after the end was reported: Firebase signs a disabled account out
   * (closing its database) before the refused refresh reaches the request that reports the end.
   */
  const endedPending$ = new BehaviorSubject<number | null>(null);
  /** The uid of the last session closed with its data kept: whose session the end reported after it was. */
  let lastClosedUid: string | null = null;

  // The end of a session is remembered on the device (ended-session.ts): a reload still tells it.
  connectivity.sessionEnded$.subscribe((isEnded) => {
    const uid = session.current()?.uid ?? lastClosedUid;
    if (isEnded && uid && ended.uid() !== uid) void ended.remember(worlds.current().publicDb, uid).catch(() => {});
  });

  /** Every write of `uid` still waiting on this device: public ones, set-aside ones, and their own database's. */
  async function pendingOf(uid: string): Promise<number> {
    const { publicDb, orphans } = worlds.current();
    let count = (await orphans.list()).filter((o) => o.author_uid === uid).length;
    for (const collection of [publicDb.topics, publicDb.responses] as const) {
      // Over the `pending` index; the author is checked here (count() needs a fully indexed query).
      const pending = await (collection as unknown as Findable).find({ selector: { pending: true } }).exec();
      count += pending.filter((doc) => doc.get('creator_uid') === uid).length;
    }
    const db = await openUserDb(dbOptions, uid);
    try {
      count += await pendingIn(db);
    } finally {
      await db.close();
    }
    return count;
  }

  /**
   * Signed out without logging out, with the ended session's writes still here: the status says
   * the session ended and counts them (a Sign in offers to send them). Nothing waits: forgotten.
   */
  async function tellEnded(uid: string) {
    const pending = await pendingOf(uid);
    if (pending === 0) return ended.forget(worlds.current().publicDb);
    endedPending$.next(pending);
    connectivity.reportSessionEnded();
  }

  async function closeSession(removeData: boolean) {
    if (!session.current()) return;
    if (!removeData) endedPending$.next(await firstValueFrom(worlds.current().queries.pendingCount$()));
    const closed = session.close()!;
    lastClosedUid = removeData ? null : closed.uid;
    await worlds.current().controller.setUserDb(null);
    if (removeData) await removeDb(dbOptions, closed.db);
    else await closed.db.close();
  }

  return {
    endedPending$,
    signIn: (user: SessionUser) =>
      session.serially(async () => {
        // Signing in again is how an ended session resumes: the queued changes go out.
        const resumed = connectivity.isSessionEnded();
        connectivity.clearSessionEnded();
        endedPending$.next(null);
        const current = session.current();
        if (current?.uid === user.uid) {
          current.getToken = user.getToken;
          if (resumed) worlds.current().controller.resyncAll();
          return;
        }
        await closeSession(false);
        const { publicDb, orphans, controller } = worlds.current();
        const endedUid = ended.uid() ?? (await ended.load(publicDb));
        // The same account again: its writes go out as they were made (each under its own id, once).
        if (endedUid === user.uid) await ended.forget(publicDb);
        const db = await openUserDb(dbOptions, user.uid);
        // Drafts kept in the user's database (before they moved to the device's list) join that list.
        await adoptUserList(db, publicDb, user.uid);
        // Signed in again: should this account be lost now, its drafts are offered back.
        await draftsIn(publicDb).setPrivate(user.uid, false);
        session.open(user, db);
        await orphans.adopt(user.uid, problems);
        // Someone else after an ended session: its writes already set aside become this person's to
        // post, copy or discard; the ones still queued follow as the push sets them aside (orphans.ts).
        if (endedUid && endedUid !== user.uid) await orphans.adopt(endedUid, problems, ENDED_SESSION_WRITE);
        await controller.setUserDb(db);
      }),
    signOut: (options: SignOutOptions = {}) =>
      session.serially(async () => {
        const uid = session.current()?.uid ?? null;
        const alreadyEnded = connectivity.isSessionEnded();
        await closeSession(options.removeData === true);
        const { publicDb } = worlds.current();
        if (options.byUser || options.removeData) await ended.forget(publicDb);
        // Logged out keeping the data: their drafts wait for them, offered to nobody else (drafts.ts).
        if (options.byUser && !options.removeData && uid) await draftsIn(publicDb).setPrivate(uid, true);
        if (options.removeData) {
          connectivity.clearSessionEnded();
          endedPending$.next(null);
          if (uid) await worlds.removePublicData(uid);
          return;
        }
        if (options.byUser) return;
        // Firebase has no user, and the person did not log out: a session that ended (now, or
        // before this page loaded) and still has writes here is said so, with a Sign in.
        if (options.endedUid && ended.uid() === null) await ended.remember(publicDb, options.endedUid);
        // Already said (and counted by closeSession) when the end was reported while signed in.
        if (alreadyEnded) return;
        const endedUid = ended.uid() ?? (await ended.load(publicDb));
        if (endedUid) await tellEnded(endedUid);
      }),
    async close() {
      await worlds.current().controller.close();
      connectivity.dispose();
      await session.serially(() => closeSession(false));
      await worlds.current().publicDb.close();
    },
  };
}
