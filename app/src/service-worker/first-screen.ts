// The kept topic page's first screen as HTML, in the form the page writes it and the service worker
// reads it. The app's first render of a kept page (the title and first rows from its embedded data,
// before the local database has opened) is stored beside the page (keep-first-screen.ts), and the
// worker (sw.ts) puts it into the page's `<div id="root">` when it answers that page again. The
// first rows then paint with the HTML and its style sheets, before any script has run; React's
// first render replaces them with the same markup.
//
// Never more than the kept page itself shows: the stored screen is keyed by a hash of the embedded
// data it was rendered from, and the worker uses it only for a kept page whose data has that hash.
// A page refreshed with other data, or dropped after a moderation (forgetTopicPage drops every
// entry of the address, whatever its query), finds no screen of its own: it is answered as before,
// and the app renders from its data.
//
// Only what both the page and the worker have (Cache Storage, crypto.subtle, Response): the worker
// is typed without the DOM.

/** The query parameter of a stored first screen's cache key (the page's address, plus its data's hash). */
export const FIRST_SCREEN_PARAM = 'crux-first-screen';
/** The element holding a page's first-screen data (sync-server/src/routes/first-page.ts). */
export const DATA_ELEMENT_ID = 'crux-first-page';
/** A topic's page: the pages the worker keeps, and the only ones with a first screen. */
export const TOPIC_PATH = /^\/topics\/[^/]+\/?$/;
/** The empty root of a page the app has not rendered into. */
const EMPTY_ROOT = '<div id="root"></div>';
const STYLE_SHEET = /<link rel="stylesheet"[^>]*>/g;
/** A style sheet of this site's build, as the page records them. */
const OWN_STYLE_SHEET = /^\/[\w./-]+\.css$/;

/** What is stored: the root's markup and the style sheets the page had when it was rendered. */
export interface KeptFirstScreen {
  html: string;
  styles: string[];
}

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
 * The kept page's HTML with its first screen in the root. Every style sheet goes first in the
 * head, before the scripts and their preloads: the first rows paint once these are in, and the
 * worker answers the page's requests in the order they come. The page's own, then those the app
 * had (the topic page's are otherwise added by its chunk's loader, after the scripts).
 */
export function pageWithFirstScreen(html: string, screen: KeptFirstScreen): string {
  const own = html.match(STYLE_SHEET) ?? [];
  const links =
    own.join('') +
    screen.styles
      .filter((href) => OWN_STYLE_SHEET.test(href) && !html.includes(`href="${href}"`))
      .map((href) => `<link rel="stylesheet" crossorigin href="${href}">`)
      .join('');
  let page = html.replace(STYLE_SHEET, '');
  const charset = /<meta charset[^>]*>/i.exec(page);
  const first = charset ? charset.index + charset[0].length : page.indexOf('<head>') + '<head>'.length;
  page = page.slice(0, first) + links + page.slice(first);
  return page.replace(EMPTY_ROOT, () => `<div id="root">${screen.html}</div>`);
}

/**
 * The worker's answer for a kept page (or the shell, which has no data block): with its first
 * screen's markup when one was stored for this very page's data, else the page as it is.
 */
export async function withKeptFirstScreen(cacheName: string, request: Request, page: Response): Promise<Response> {
  try {
    const html = await page.clone().text();
    const data = embeddedData(html);
    if (!data || !html.includes(EMPTY_ROOT)) return page;
    const kept = await (await caches.open(cacheName)).match(firstScreenKey(request.url, await dataHash(data)));
    if (!kept) return page;
    const screen = (await kept.json()) as KeptFirstScreen;
    // The body is new, decoded text: no length or encoding of the stored one.
    const headers = new Headers(page.headers);
    headers.delete('content-length');
    headers.delete('content-encoding');
    return new Response(pageWithFirstScreen(html, screen), { status: page.status, statusText: page.statusText, headers });
  } catch {
    return page;
  }
}
