// Firebase Auth set-up: the web config comes from GET /api/config (one build runs
// against the local emulator or a real project) and is cached in localStorage so
// the installed app starts offline with its persisted (IndexedDB) user.
// The SDK itself is a chunk of its own (issue 12): loaded on demand, never before the first paint.
import type { Auth } from 'firebase/auth';
import type { ClientConfig } from '../../../shared/client-config';

const CONFIG_KEY = 'crux.clientConfig';

function cachedConfig(): ClientConfig | null {
  try {
    const raw = localStorage.getItem(CONFIG_KEY);
    return raw ? (JSON.parse(raw) as ClientConfig) : null;
  } catch {
    return null;
  }
}

async function fetchConfig(): Promise<ClientConfig> {
  const res = await fetch('/api/config');
  if (!res.ok) throw new Error(`HTTP error! status: ${res.status} - ${await res.text()}`);
  const config = (await res.json()) as ClientConfig;
  localStorage.setItem(CONFIG_KEY, JSON.stringify(config));
  return config;
}

/** The cached config at once when there is one (offline start), refreshed in the background. */
export async function loadClientConfig(): Promise<ClientConfig> {
  const cached = cachedConfig();
  if (cached) {
    fetchConfig().catch(() => undefined);
    return cached;
  }
  return fetchConfig();
}

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
