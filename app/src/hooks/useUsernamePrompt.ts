// Whether the signed-in user still has to choose a username, and whether the 'Welcome! Please set
// your username.' modal is showing. The modal can be dismissed (it must never stand between a person
// and Logout); the header then offers a "Set username" button that opens it again.
import { useCallback, useSyncExternalStore } from 'react';
import { useSession } from './useSession';

/** The id of the header's "Set username" button: focus goes there when the prompt is dismissed. */
export const SET_USERNAME_BUTTON_ID = 'set-username-button';
export const SET_USERNAME_LABEL = 'Set username';

export interface UsernamePrompt {
  /** Signed in without a display name (and not while a sign-up is still setting it). */
  needed: boolean;
  /** The modal is showing. */
  open: boolean;
  /** Opens the modal again (the header's "Set username" button). */
  show(): void;
  /** Closes the modal; it stays closed for this user in this tab until `show()`. */
  dismiss(): void;
}

const STORAGE_KEY = 'crux:username-prompt-dismissed';
let dismissed: ReadonlySet<string> | null = null;
const listeners = new Set<() => void>();

function read(): ReadonlySet<string> {
  if (dismissed) return dismissed;
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '[]');
    dismissed = new Set(Array.isArray(stored) ? stored.filter((uid): uid is string => typeof uid === 'string') : []);
  } catch {
    dismissed = new Set();
  }
  return dismissed;
}

function write(next: Set<string>): void {
  dismissed = next;
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify([...next]));
  } catch {
    // Private mode or no storage: kept in memory for this page.
  }
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** For tests: forget every dismissal. */
export function resetUsernamePrompt(): void {
  write(new Set());
}

export function useUsernamePrompt(): UsernamePrompt {
  const { user, profilePending } = useSession();
  const set = useSyncExternalStore(subscribe, read, read);
  const uid = user?.uid ?? null;
  const needed = Boolean(user && !user.displayName && !profilePending);
  const show = useCallback(() => {
    if (!uid) return;
    const next = new Set(read());
    next.delete(uid);
    write(next);
  }, [uid]);
  const dismiss = useCallback(() => {
    if (!uid) return;
    write(new Set(read()).add(uid));
    // The modal gives focus back to what opened it; when that is gone (it opened by itself after a
    // sign-in), focus goes to the button that reopens it rather than to the page's start.
    setTimeout(() => {
      const active = document.activeElement;
      if (!active || active === document.body) document.getElementById(SET_USERNAME_BUTTON_ID)?.focus();
    });
  }, [uid]);
  return { needed, open: needed && uid !== null && !set.has(uid), show, dismiss };
}
