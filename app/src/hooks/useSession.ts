import { useSyncExternalStore } from 'react';
import { getSession, subscribeSession, type SessionState } from '../auth/session';

/** The current Firebase user (null when signed out), re-rendering on changes. */
export function useSession(): SessionState {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}
