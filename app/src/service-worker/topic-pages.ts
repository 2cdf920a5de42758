// The topic pages the service worker keeps (sw.ts): the server's page with its first screen, shown
// on a revisit before the local database has opened. They are public data on this device like the
// local database's topics and responses, so they go with it.
import { TOPIC_PAGES_CACHE_PREFIX } from '../../../shared/constants';

/**
 * This build's cache (vite.config.ts defines it, for the app and the worker alike); other names are
 * older builds' pages. Outside Vite (the Node bench runs the data layer under tsx) there is no
 * `import.meta.env` and no build.
 */
export const CURRENT_TOPIC_PAGES_CACHE =
  typeof import.meta.env === 'undefined' ? undefined : (import.meta.env.VITE_TOPIC_PAGES_CACHE as string | undefined);

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
export const removeOtherBuildsTopicPages = (): Promise<void> =>
  removeWhere((name) => CURRENT_TOPIC_PAGES_CACHE !== undefined && name !== CURRENT_TOPIC_PAGES_CACHE);

/**
 * Drops the kept page of one topic: a moderator removed or hid something in it, and the
 * kept page still holds the first screen as it was. Without its page, an offline visit renders from
 * the local database, which the same pull has already redacted.
 */
export async function forgetTopicPage(topicId: string): Promise<void> {
  if (typeof caches === 'undefined' || typeof location === 'undefined') return;
  try {
    const url = new URL(`/topics/${encodeURIComponent(topicId)}`, location.origin).href;
    for (const name of await caches.keys()) {
      if (name.startsWith(TOPIC_PAGES_CACHE_PREFIX)) await (await caches.open(name)).delete(url, { ignoreSearch: true });
    }
  } catch {
    /* Cache Storage unavailable: nothing was kept there */
  }
}
