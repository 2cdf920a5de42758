// A session that ended without its person logging out (the account was deleted or
// disabled, or the identity provider lost it) while writes of theirs were still waiting. Remembered
// on the device (a local document of the public database, beside the set-aside writes), because a
// reload cannot ask Firebase: it no longer restores that user, and the app would otherwise look
// signed out with the writes invisible in their closed database.
//
// While it is remembered and nobody is signed in, the status says the session ended and counts
// its waiting writes (sign-in.ts). Signing in again as the same account sends them (once: each keeps
// its id). Signing in as someone else hands that account's unsent topics and responses to the new
// person's sync problems (orphans.ts), to post as themselves, copy or discard, one by one. Its
// private marks (votes, stances, read marks, preferences) stay in its own database on the device
// for its next sign-in: they are that person's opinions, not the next person's to cast.
// Forgotten when the person logs out (the Logout dialog) or signs in again as that account.
import type { PublicDb } from './db.js';

const DOC_ID = 'ended-session';

export interface EndedSession {
  /** The remembered uid (loaded by `load`), or null. */
  uid(): string | null;
  load(db: PublicDb): Promise<string | null>;
  remember(db: PublicDb, uid: string): Promise<void>;
  forget(db: PublicDb): Promise<void>;
}

export function createEndedSession(): EndedSession {
  let uid: string | null = null;
  return {
    uid: () => uid,
    async load(db) {
      uid = ((await db.getLocal<{ uid: string }>(DOC_ID))?.get('uid') as string | undefined) ?? null;
      return uid;
    },
    async remember(db, next) {
      uid = next;
      await db.upsertLocal(DOC_ID, { uid: next });
    },
    async forget(db) {
      uid = null;
      await (await db.getLocal(DOC_ID))?.remove();
    },
  };
}
