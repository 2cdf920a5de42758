// The signed-in user as the rest of the app sees it, and the token getter the
// store uses. Routing trusts onAuthStateChanged; getIdToken() is called only
// where a request is made (an expired token offline must not sign anyone out).
import type { User } from 'firebase/auth';
import { getAuthInstance } from './firebase';
import { isSessionEndingError } from './error-messages';

export interface SessionUser {
  uid: string;
  email: string | null;
  displayName: string | null;
  /** Firebase's emailVerified: the weekly summary goes only to a verified address. */
  emailVerified?: boolean;
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
  return user ? { uid: user.uid, email: user.email, displayName: user.displayName, emailVerified: user.emailVerified } : null;
}

/**
 * Set while someone is signed in on this device (to their uid): without it the app starts as
 * signed out at once (no wait for the Firebase SDK, a chunk loaded after the first paint), and
 * Firebase, once loaded, still publishes whoever it restores.
 */
const SIGNED_IN_HINT = 'crux.signedIn';

function rememberSignedIn(uid: string | null) {
  try {
    if (uid) localStorage.setItem(SIGNED_IN_HINT, uid);
    else localStorage.removeItem(SIGNED_IN_HINT);
  } catch {
    /* storage blocked: Firebase decides, a little later */
  }
}

/** The uid this device was signed in as when the page loaded ('1': a hint from before it held one). */
function hintedUid(): string | null {
  try {
    const value = localStorage.getItem(SIGNED_IN_HINT);
    return value && value !== '1' ? value : null;
  } catch {
    return null;
  }
}

let restoring: string | null | undefined;
/**
 * The user this device was signed in as whom Firebase did not restore on this load (the account
 * was deleted or disabled meanwhile, or its session revoked): their unsent writes may still wait
 * here (follow-session.ts). Null once Firebase has published anyone else or them.
 */
export function lostUid(): string | null {
  return restoring ?? null;
}

function mayBeSignedIn(): boolean {
  try {
    return localStorage.getItem(SIGNED_IN_HINT) !== null;
  } catch {
    return true;
  }
}

/** Runs `task` when the main thread is idle (at most 2 s later): the SDK's start-up is not in the way of a first render. */
function whenIdle(task: () => void) {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(task, { timeout: 2000 });
  else setTimeout(task, 0);
}

function publish(user: User | null) {
  // The first answer after a load: was the hinted user restored?
  if (restoring === undefined) restoring = user ? null : hintedUid();
  else restoring = null;
  currentUser = user;
  rememberSignedIn(user?.uid ?? null);
  state = { ready: true, user: toSessionUser(user), profilePending };
  listeners.forEach((listener) => listener());
}

let following: Promise<void> | null = null;
/** Loads the Firebase SDK (once) and follows its user; settles once the listener is attached. */
export function followFirebase(): Promise<void> {
  following ??= getAuthInstance().then(
    (auth) => void auth.onAuthStateChanged(publish),
    () => publish(null),
  );
  return following;
}

let started = false;
/**
 * Starts following Firebase's user. When someone is signed in on this device the SDK loads once
 * `after` settles (main.tsx: the first paint; their own data waits for it). A visitor is signed
 * out at once and the SDK (the costliest script of a first visit after the data layer) loads only
 * when it is needed: a sign-in (auth/actions.ts), or another tab signing in.
 */
export function startSession(after?: Promise<unknown>): void {
  if (started) return;
  started = true;
  if (mayBeSignedIn()) {
    const start = () => whenIdle(() => void followFirebase());
    if (after) void after.then(start, start);
    else start();
    return;
  }
  state = { ready: true, user: null, profilePending };
  if (typeof window === 'undefined') return;
  const onStorage = (event: StorageEvent) => {
    if (event.key !== SIGNED_IN_HINT || event.newValue === null) return;
    window.removeEventListener('storage', onStorage);
    void followFirebase();
  };
  window.addEventListener('storage', onStorage);
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
  await auth.signOut();
}

/** A bearer token for a request, or null when signed out. Signs out on user-disabled / user-token-expired. */
export async function getToken(forceRefresh = false): Promise<string | null> {
  const auth = await getAuthInstance();
  const user = auth.currentUser;
  if (!user) return null;
  try {
    return await user.getIdToken(forceRefresh);
  } catch (error) {
    if (isSessionEndingError(error)) await auth.signOut();
    throw error;
  }
}

export function getCurrentFirebaseUser(): User | null {
  return currentUser;
}
