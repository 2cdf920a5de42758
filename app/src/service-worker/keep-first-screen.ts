// The page's side of a kept topic page's first screen (first-screen.ts): once the app has rendered
// a kept page, its root's markup is stored for the service worker's next answer of that page.
import {
  DATA_ELEMENT_ID,
  FIRST_SCREEN_PARAM,
  TOPIC_PATH,
  dataHash,
  embeddedData,
  firstScreenKey,
  type KeptFirstScreen,
} from './first-screen';
import { CURRENT_TOPIC_PAGES_CACHE } from './topic-pages';

/**
 * Takes the root's markup now (call it once React has committed its first render, before anything
 * replaces the embedded data's rows), then stores it for the kept page this document came from.
 * Does nothing for anything else: a page that is not a topic's, a page with no embedded data or no
 * response row, a first visit (the server's page, not kept yet), a kept page refreshed since.
 */
export function keepFirstScreen(doc: Document = document): Promise<void> {
  const data = doc.getElementById(DATA_ELEMENT_ID)?.textContent;
  const root = doc.getElementById('root');
  if (!CURRENT_TOPIC_PAGES_CACHE || !data || !root || !TOPIC_PATH.test(doc.location.pathname)) return Promise.resolve();
  if (typeof caches === 'undefined' || typeof crypto === 'undefined' || !crypto.subtle) return Promise.resolve();
  if (!root.querySelector('li[data-testid="response"]')) return Promise.resolve();
  const screen: KeptFirstScreen = {
    html: root.innerHTML,
    // Vite's loader writes absolute addresses: kept as paths of this site (the worker adds those only).
    styles: Array.from(doc.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]'), (link) => new URL(link.href, doc.location.href))
      .filter((url) => url.origin === doc.location.origin)
      .map((url) => url.pathname),
  };
  // Cache Storage unavailable or full: nothing kept.
  return store(CURRENT_TOPIC_PAGES_CACHE, doc.location.href.split('#')[0]!, data, screen).catch(() => undefined);
}

async function store(cacheName: string, pageUrl: string, data: string, screen: KeptFirstScreen): Promise<void> {
  const cache = await caches.open(cacheName);
  // Only for the page as it is kept now: the worker may have refreshed it (other data) or a
  // moderation may have dropped it since this document was answered.
  const keptNow = async () => {
    const page = await cache.match(pageUrl);
    return page !== undefined && embeddedData(await page.text()) === data;
  };
  if (!(await keptNow())) return;
  const hash = await dataHash(data);
  const key = firstScreenKey(pageUrl, hash);
  if (await cache.match(key)) return;
  await cache.put(key, new Response(JSON.stringify(screen), { headers: { 'content-type': 'application/json' } }));
  // One screen per page: the ones rendered from this page's earlier data can never be used again.
  const own = new URL(pageUrl);
  for (const request of await cache.keys()) {
    const url = new URL(request.url);
    const param = url.searchParams.get(FIRST_SCREEN_PARAM);
    url.searchParams.delete(FIRST_SCREEN_PARAM);
    if (param !== null && param !== hash && url.href === own.href) await cache.delete(request);
  }
  // Dropped or refreshed while this was written: the screen goes too (it is never used then, and a
  // moderated text must not stay on the device).
  if (!(await keptNow())) await cache.delete(key);
}
