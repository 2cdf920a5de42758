// The kept topic page's first screen as HTML (issue 28, topic page first row): the app's first render
// of a kept page (the title and first rows from its embedded data, before the local database has
// opened) is stored beside the page, and the service worker puts it into the page's `<div id="root">`
// when it answers that page again (vite.config.ts, runtimeCaching). The first rows then paint with the
// HTML and its style sheets, before any script has run; React's first render replaces them with the
// same markup.
//
// Never more than the kept page itself shows (issue 23 #4): the stored screen is keyed by a hash of
// the embedded data it was rendered from, and the worker uses it only for a kept page whose data has
// that hash. A page refreshed with other data, or dropped after a moderation (forgetTopicPage drops
// every entry of the address, whatever its query), finds no screen of its own: it is answered as
// before, and the app renders from its data.
/** The query parameter of a stored first screen's cache key (the page's address, plus its data's hash). */
export const FIRST_SCREEN_PARAM = 'crux-first-screen';
/** The element holding a page's first-screen data (sync-server/src/routes/first-page.ts). */
const DATA_ELEMENT_ID = 'crux-first-page';
const TOPIC_PATH = /^\/topics\/[^/]+\/?$/;

/** What is stored: the root's markup and the style sheets the page had when it was rendered. */
export interface KeptFirstScreen {
  html: string;
  styles: string[];
}

/** This build's cache of kept pages (vite.config.ts); undefined outside a Vite build. */
const CURRENT = typeof import.meta.env === 'undefined' ? undefined : (import.meta.env.VITE_TOPIC_PAGES_CACHE as string | undefined);

/** The text of the page's first-screen data block, as the service worker reads it from the HTML. */
export function embeddedData(html: string): string | null {
  return new RegExp(`<script type="application/json" id="${DATA_ELEMENT_ID}">([\\s\\S]*?)</script>`).exec(html)?.[1] ?? null;
}

/** SHA-256 of `text`, in hex: the same in the page and in the worker (crypto.subtle in both). */
export async function dataHash(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The cache key of the first screen rendered from data with `hash`, for the page at `pageUrl`. */
export function firstScreenKey(pageUrl: string, hash: string): string {
  const url = new URL(pageUrl);
  url.hash = '';
  url.searchParams.set(FIRST_SCREEN_PARAM, hash);
  return url.href;
}

/**
 * Takes the root's markup now (call it once React has committed its first render, before anything
 * replaces the embedded data's rows), then stores it for the kept page this document came from.
 * Does nothing for anything else: a page that is not a topic's, a page with no embedded data or no
 * response row, a first visit (the server's page, not kept yet), a kept page refreshed since.
 */
export function keepFirstScreen(doc: Document = document): Promise<void> {
  const data = doc.getElementById(DATA_ELEMENT_ID)?.textContent;
  const root = doc.getElementById('root');
  if (!CURRENT || !data || !root || !TOPIC_PATH.test(doc.location.pathname)) return Promise.resolve();
  if (typeof caches === 'undefined' || typeof crypto === 'undefined' || !crypto.subtle) return Promise.resolve();
  if (!root.querySelector('li[data-testid="response"]')) return Promise.resolve();
  const screen: KeptFirstScreen = {
    html: root.innerHTML,
    // Vite's loader writes absolute addresses: kept as paths of this site (the worker adds those only).
    styles: Array.from(doc.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]'), (link) => new URL(link.href, doc.location.href))
      .filter((url) => url.origin === doc.location.origin)
      .map((url) => url.pathname),
  };
  return store(CURRENT, doc.location.href.split('#')[0]!, data, screen).catch(() => undefined); // Cache Storage unavailable or full: nothing kept
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
