// /robots.txt and /sitemap.xml: served as what they are (text/plain, application/xml),
// before the single-page app's shell, which answers every other path.
import { Hono, type Context } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join, relative } from 'node:path';
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { DomainContext } from '../domain/context.js';
import type { AppEnv } from '../http/auth.js';
import { NO_RATE_LIMITS, RATE_LIMIT_MSG, type RateLimits } from '../http/rate-limit.js';
import { appendVary, chooseEncoding } from '../http/compression.js';
import { localUrl } from '../config.js';
import { withFirstPage, type SharePageData } from './first-page.js';
import { isFresh } from './embed.js';
import { shareCardFor, shareCardTags, withPageTitle } from './share-card.js';

/** The app's own pages; user data (notifications, unsubscribe) is not for crawlers. */
export const SITEMAP_PAGES = ['/', '/leaderboard', '/sources', '/about', '/terms', '/privacy'];
const SITEMAP_TOPICS = 1_000;

const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

/**
 * The site's origin for the links these files give: PUBLIC_URL, else the address the
 * server itself listens on (as the mail's links, mail/setup.ts), never the caller's Host header,
 * which anyone can set to any name.
 */
function siteOrigin(c: Context<AppEnv>, publicUrl: string | undefined): string {
  if (publicUrl) return publicUrl;
  const socket = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket;
  return socket?.localAddress && socket.localPort ? localUrl(socket.localAddress, socket.localPort) : 'http://localhost';
}

export function siteFilesRoutes(ctx: DomainContext, limits: RateLimits = NO_RATE_LIMITS, publicUrl?: string) {
  return new Hono<AppEnv>()
    .get('/robots.txt', (c) => {
      const body = [
        'User-agent: *',
        'Allow: /',
        'Disallow: /api/',
        'Disallow: /notifications',
        'Disallow: /unsubscribe',
        'Disallow: /settings/',
        '',
        `Sitemap: ${siteOrigin(c, publicUrl)}/sitemap.xml`,
        '',
      ].join('\n');
      return c.body(body, 200, { 'Content-Type': 'text/plain; charset=utf-8' });
    })
    .get('/sitemap.xml', async (c) => {
      const origin = siteOrigin(c, publicUrl);
      // Reads a thousand topics: an expensive read, counted per address (crawlers are anonymous).
      await limits.read(c, null, RATE_LIMIT_MSG.requests);
      // A topic a moderator removed, or hidden pending review, is not offered to crawlers.
      const topics = (await ctx.store.topics.list({ sort: 'new', limit: SITEMAP_TOPICS, offset: 0, viewer: null })).filter(
        (topic) => topic.moderation == null,
      );
      const urls = [
        ...SITEMAP_PAGES.map((path) => `  <url><loc>${escapeXml(origin + path)}</loc></url>`),
        ...topics.map(
          (t) =>
            `  <url><loc>${escapeXml(`${origin}/topics/${encodeURIComponent(t.id)}`)}</loc><lastmod>${escapeXml(t.created_at.slice(0, 10))}</lastmod></url>`,
        ),
      ];
      const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
      return c.body(body, 200, { 'Content-Type': 'application/xml; charset=utf-8' });
    });
}

/** A file the build would have made (a hashed asset, a script, an icon): missing means 404, never the app page. */
const FILE_PATH = /^\/assets\/|\.(?:js|mjs|css|map|json|webmanifest|png|jpe?g|gif|svg|ico|webp|avif|woff2?|ttf|txt|xml|wasm|bin)$/i;

/** True when `path` names a file rather than a page of the app. */
export const isFilePath = (path: string) => FILE_PATH.test(path);

/** Hashed build output (vite's /assets/name-HASH.ext, Workbox's runtime): never changes under its name. */
const HASHED_FILE = /^\/assets\/|^\/workbox-[\da-f]{8}\.js$/i;
/** Files that name the current build: the browser must ask every time (a new deploy is seen at once). */
const ENTRY_FILE = /^\/(?:index\.html|sw\.js|registerSW\.js|manifest\.webmanifest)?$/i;

/** Cache-Control for a file of the build by its path: immutable hashed assets, revalidated entry points, an hour for the rest (icons). */
export function cacheControlFor(path: string): string {
  if (HASHED_FILE.test(path)) return 'public, max-age=31536000, immutable';
  if (ENTRY_FILE.test(path)) return 'no-cache';
  return 'public, max-age=3600';
}

/** Types the build precompresses (or the server compresses): their answers depend on Accept-Encoding. */
const TEXT_TYPE = /^(?:text\/|application\/(?:javascript|json|xml|manifest\+json)|image\/svg\+xml)/i;

/** The shell in each encoding, compressed once at start-up: it answers every page of the app. */
function shellVariants(html: string): { identity: Buffer; br: Buffer; gzip: Buffer } {
  const identity = Buffer.from(html, 'utf8');
  return {
    identity,
    br: brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    gzip: gzipSync(identity, { level: 9 }),
  };
}

/**
 * The built PWA: its files as they are, and the single-page app's shell for every
 * other page (its router shows the route). A missing file answers 404 (a stale
 * service worker or a typo must not get HTML as JavaScript). Text files go out as the
 * .br or .gz the build wrote beside them (vite.config.ts) when the client accepts it.
 * The shell is read once: a new build means a restart (npm start builds first).
 */
export function mountSite(
  app: Hono<AppEnv>,
  staticDir: string,
  firstPage: (path: string, c: Context) => Promise<SharePageData | null> = () => Promise.resolve(null),
  /** PUBLIC_URL: the address share cards name (else the request's own origin). */
  publicUrl?: string,
): void {
  const indexFile = join(staticDir, 'index.html');
  if (!existsSync(indexFile)) {
    app.get('/', (c) =>
      c.html(
        '<!doctype html><title>Crux</title><h1>Crux</h1><p>The API is up at <a href="/api/topics">/api/topics</a>. Run <code>npm run build</code> for the app.</p>',
      ),
    );
    return;
  }
  const root = relative(process.cwd(), staticDir) || '.';
  const files = serveStatic({ root, precompressed: true });
  const shellHtml = readFileSync(indexFile, 'utf8');
  const shell = shellVariants(shellHtml);
  const sendShell = (c: Context, html: string | null) => {
    const encoding = chooseEncoding(c.req.header('Accept-Encoding'));
    const headers: Record<string, string> = {
      'Content-Type': 'text/html; charset=UTF-8',
      'Cache-Control': 'no-cache',
      Vary: 'Accept-Encoding',
    };
    if (html !== null) {
      // A page with its share card: a crawler asking again gets a 304 while nothing on it changed. It
      // stays no-cache (revalidated each time): the shell names the build's assets, which a deploy replaces.
      const etag = `W/"${createHash('sha1').update(html).digest('base64url')}"`;
      headers.ETag = etag;
      if (isFresh(c, etag)) return c.body(null, 304, { ETag: etag, 'Cache-Control': 'no-cache', Vary: 'Accept-Encoding' });
    }
    if (encoding) headers['Content-Encoding'] = encoding;
    // A page with its first screen in it is compressed as it goes out (fast settings: it is small).
    const body = html === null ? (encoding ? shell[encoding] : shell.identity) : compress(html, encoding);
    return c.body(new Uint8Array(body), 200, headers);
  };
  // A first visit's page carries its first screen's data (routes/first-page.ts); `/` is also a file.
  app.get('*', async (c, next) => {
    if (isFilePath(c.req.path)) return next();
    const data = await firstPage(c.req.path, c);
    if (!data) return next();
    // The page's share card (title, balance, first words) for crawlers that run no JavaScript.
    const origin = publicUrl ?? new URL(c.req.url).origin;
    const card = shareCardFor(data);
    const head = shareCardTags(card, origin + c.req.path, origin);
    return sendShell(c, withFirstPage(withPageTitle(shellHtml, card), data, head));
  });
  app.use('*', async (c, next) => {
    const found = await files(c, next);
    if (!(found instanceof Response)) return;
    found.headers.set('Cache-Control', cacheControlFor(c.req.path));
    const type = found.headers.get('Content-Type') ?? '';
    if (found.headers.has('Content-Encoding') || TEXT_TYPE.test(type)) appendVary(found.headers, 'Accept-Encoding');
    return found;
  });
  app.get('*', (c) => {
    if (isFilePath(c.req.path)) return c.text('Not found.', 404);
    return sendShell(c, null);
  });
}

function compress(html: string, encoding: 'br' | 'gzip' | null): Buffer {
  const identity = Buffer.from(html, 'utf8');
  if (encoding === 'br') return brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
  if (encoding === 'gzip') return gzipSync(identity, { level: 6 });
  return identity;
}
