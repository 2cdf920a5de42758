// Signing in and out: the user's database opens at sign-in and closes (or is removed from the
// device) at sign-out, one after the other (session.ts `serially`), so a shared device never
// shows one person's data to the next.
import { BehaviorSubject, firstValueFrom } from 'rxjs';
import type { SessionUser } from './api.js';
import type { Connectivity } from './connectivity.js';
import { openUserDb, removeDb, type DbOptions } from './db.js';
import type { ProblemRecorder } from './problems.js';
import type { SessionState } from './session.js';
import type { Worlds } from './world.js';

interface SignInDeps {
  dbOptions: DbOptions;
  session: SessionState;
  worlds: Worlds;
  connectivity: Connectivity;
  problems: ProblemRecorder;
}

export function createSignIn({ dbOptions, session, worlds, connectivity, problems }: SignInDeps) {
  /**
   * The unsent changes of the last session closed without removing its data (status.ts). Taken at
   * every close, not only after the end was reported: Firebase signs a disabled account out
   * (closing its database) before the refused refresh reaches the request that reports the end.
   */
  const endedPending$ = new BehaviorSubject<number | null>(null);

  async function closeSession(removeData: boolean) {
    if (!session.current()) return;
    if (!removeData) endedPending$.next(await firstValueFrom(worlds.current().queries.pendingCount$()));
    const closed = session.close()!;
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
        const db = await openUserDb(dbOptions, user.uid);
        session.open(user, db);
        await worlds.current().orphans.adopt(user.uid, problems);
        await worlds.current().controller.setUserDb(db);
      }),
    signOut: (options: { removeData?: boolean } = {}) =>
      session.serially(async () => {
        const uid = session.current()?.uid ?? null;
        await closeSession(options.removeData === true);
        if (options.removeData) {
          connectivity.clearSessionEnded();
          endedPending$.next(null);
          if (uid) await worlds.removePublicData(uid);
        }
      }),
    async close() {
      await worlds.current().controller.close();
      connectivity.dispose();
      await session.serially(() => closeSession(false));
      await worlds.current().publicDb.close();
    },
  };
}
