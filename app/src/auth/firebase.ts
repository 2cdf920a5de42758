// Firebase Auth set-up: the web config comes from the server (data/client-config.ts: one build
// runs against the local emulator or a real project, and starts offline from its cached copy).
// The SDK itself is a chunk of its own: loaded on demand, never before the first paint.
import type { Auth } from 'firebase/auth';
import { loadClientConfig } from '../data/client-config';

export { loadClientConfig };

let authPromise: Promise<Auth> | null = null;

export function getAuthInstance(): Promise<Auth> {
  authPromise ??= Promise.all([loadClientConfig(), import('firebase/app'), import('firebase/auth')]).then(
    ([config, firebaseApp, firebaseAuth]) => {
      const { browserLocalPersistence, browserPopupRedirectResolver, connectAuthEmulator, indexedDBLocalPersistence, initializeAuth } =
        firebaseAuth;
      const app = firebaseApp.initializeApp(config.firebase);
      const auth = initializeAuth(app, {
        // IndexedDB first: an installed app reopened offline is still signed in.
        persistence: [indexedDBLocalPersistence, browserLocalPersistence],
        popupRedirectResolver: browserPopupRedirectResolver,
      });
      if (config.authEmulatorHost) {
        connectAuthEmulator(auth, `http://${config.authEmulatorHost}`, { disableWarnings: true });
      }
      return auth;
    },
  );
  return authPromise;
}
