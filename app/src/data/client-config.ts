// The web config (GET /api/config: Firebase's settings and the site's links), asked before Firebase
// and the data layer start, so over a client of its own (same origin, the browser's online flag).
// Cached in localStorage so the installed app starts offline with its persisted (IndexedDB) user.
import type { ClientConfig } from '../../../shared/client-config.js';
import { createConnectivity } from './connectivity.js';
import { createHttp } from './http.js';

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
  const http = createHttp(
    '',
    (input, init) => fetch(input, init),
    createConnectivity(undefined, () => navigator.onLine),
  );
  const config = await http.json<ClientConfig>('/config');
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
