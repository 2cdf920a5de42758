// Follows the Firebase user into the data layer: the user's own database opens at
// sign-in and closes at sign-out, so a shared device never shows one person's data to the next.
import type { CruxData } from '../data';
import { getCurrentFirebaseUser, getSession, getToken, lostUid, subscribeSession } from './session';

/** Call once at start-up with the opened data layer; returns the unsubscribe. */
export function followSession(data: CruxData): () => void {
  // undefined until Firebase has restored (or not) the persisted user: no sign-out before that.
  let lastUid: string | null | undefined;
  const follow = () => {
    const { ready, user } = getSession();
    if (!ready) return;
    const uid = user?.uid ?? null;
    // The session also publishes profile changes (display name): only a new user matters here.
    if (uid === lastUid) return;
    lastUid = uid;
    // getToken asks Firebase for a fresh ID token on each request (forced after a 401).
    if (uid && getCurrentFirebaseUser()) void data.signIn({ uid, getToken: (forceRefresh) => getToken(forceRefresh) });
    // Not restored: a session that ended meanwhile (its writes may wait here: ended-session.ts).
    else void data.signOut({ endedUid: lostUid() });
  };
  const unsubscribe = subscribeSession(follow);
  follow();
  return unsubscribe;
}
