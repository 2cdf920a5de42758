// The topic pages the service worker keeps (vite.config.ts, runtimeCaching): the server's page with
// its first screen, shown on a revisit before the local database has opened. They are public data
// on this device like the local database's topics and responses, so they go with it.
import { TOPIC_PAGES_CACHE_PREFIX } from '../../../shared/constants';

/** This build's cache (vite.config.ts defines it); other names are older builds' pages. */
const CURRENT = import.meta.env.VITE_TOPIC_PAGES_CACHE as string | undefined;

async function removeWhere(drop: (name: string) => boolean): Promise<void> {
  if (typeof caches === 'undefined') return;
  try {
    const names = await caches.keys();
    await Promise.all(names.filter((name) => name.startsWith(TOPIC_PAGES_CACHE_PREFIX) && drop(name)).map((name) => caches.delete(name)));
  } catch {
    /* Cache Storage unavailable (private mode, blocked): nothing was kept there */
  }
}

/** Every kept topic page: "Sign out and remove data" leaves none. */
export const removeTopicPages = (): Promise<void> => removeWhere(() => true);

/** Pages kept under earlier builds: their scripts are gone, and the worker no longer reads them. */
export const removeOtherBuildsTopicPages = (): Promise<void> => removeWhere((name) => CURRENT !== undefined && name !== CURRENT);
