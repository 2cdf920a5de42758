// The signed-in user as the rest of the app sees it, and the token getter the
// store uses. Routing trusts onAuthStateChanged; getIdToken() is called only
// where a request is made (an expired token offline must not sign anyone out).
import { onAuthStateChanged, signOut as firebaseSignOut, type User } from 'firebase/auth';
import { getAuthInstance } from './firebase';
import { isSessionEndingError } from './error-messages';

export interface SessionUser {
  uid: string;
  email: string | null;
  displayName: string | null;
}

export interface SessionState {
  /** false until Firebase has restored (or not) the persisted user. */
  ready: boolean;
  user: SessionUser | null;
  /** A sign-up is still setting the display name: don't ask for a username meanwhile. */
  profilePending: boolean;
}

let state: SessionState = { ready: false, user: null, profilePending: false };
let profilePending = false;
let currentUser: User | null = null;
const listeners = new Set<() => void>();

function toSessionUser(user: User | null): SessionUser | null {
  return user ? { uid: user.uid, email: user.email, displayName: user.displayName } : null;
}

function publish(user: User | null) {
  currentUser = user;
  state = { ready: true, user: toSessionUser(user), profilePending };
  listeners.forEach((listener) => listener());
}

let started = false;
export function startSession(): void {
  if (started) return;
  started = true;
  getAuthInstance()
    .then((auth) => onAuthStateChanged(auth, publish))
    .catch(() => publish(null));
}

export function subscribeSession(listener: () => void): () => void {
  startSession();
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const getSession = (): SessionState => state;

/** Marks the span between account creation and the display name being set. */
export function setProfilePending(pending: boolean): void {
  profilePending = pending;
  if (state.ready) publish(currentUser);
}

/** Re-reads the profile after updateProfile (onAuthStateChanged does not fire for it). */
export function refreshSessionUser(): void {
  publish(currentUser);
}

export async function signOut(): Promise<void> {
  const auth = await getAuthInstance();
  await firebaseSignOut(auth);
}

/** A bearer token for a request, or null when signed out. Signs out on user-disabled / user-token-expired. */
export async function getToken(forceRefresh = false): Promise<string | null> {
  const auth = await getAuthInstance();
  const user = auth.currentUser;
  if (!user) return null;
  try {
    return await user.getIdToken(forceRefresh);
  } catch (error) {
    if (isSessionEndingError(error)) await firebaseSignOut(auth);
    throw error;
  }
}

export function getCurrentFirebaseUser(): User | null {
  return currentUser;
}
