// Logout: the data layer hears first whether to remove the user's data from this device,
// then Firebase signs out (follow-session's own data.signOut() that follows finds it done).
// Whether this is the person's own device is remembered in localStorage (no account data).
import { useCallback } from 'react';
import { signOut as firebaseSignOut } from '../auth/session';
import { removeTopicPages } from '../service-worker/topic-pages';
import { turnOffPush } from '../push/device';
import { useData } from './useData';

const OWN_DEVICE_KEY = 'crux:own-device';

/** The person said this browser is their own: sign-out keeps their data here by default. */
export function isOwnDevice(): boolean {
  try {
    return localStorage.getItem(OWN_DEVICE_KEY) === 'yes';
  } catch {
    return false;
  }
}

export function rememberOwnDevice(own: boolean): void {
  try {
    if (own) localStorage.setItem(OWN_DEVICE_KEY, 'yes');
    else localStorage.removeItem(OWN_DEVICE_KEY);
  } catch {
    /* storage blocked: the default (remove) stays */
  }
}

export function useSignOut(): (options: { removeData: boolean }) => Promise<void> {
  const data = useData();
  return useCallback(
    async ({ removeData }: { removeData: boolean }) => {
      try {
        // Push stops on this device first, while the token can still tell the server.
        await turnOffPush(data);
        await data.signOut({ removeData, byUser: true });
        // The service worker's copies of topic pages are public data on this device too.
        if (removeData) await removeTopicPages();
      } finally {
        // Signed out of Firebase whatever happened to the local data: logging out never stops half way.
        await firebaseSignOut();
      }
    },
    [data],
  );
}
