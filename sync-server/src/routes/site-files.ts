// /robots.txt and /sitemap.xml: served as what they are (text/plain, application/xml),
// before the single-page app's shell, which answers every other path.
import { Hono } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { DomainContext } from '../domain/context.js';
import type { AppEnv } from '../http/auth.js';

/** The app's own pages; user data (notifications, unsubscribe) is not for crawlers. */
export const SITEMAP_PAGES = ['/', '/leaderboard', '/sources', '/about', '/terms', '/privacy'];
const SITEMAP_TOPICS = 1_000;

const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

const originOf = (url: string) => new URL(url).origin;

export function siteFilesRoutes(ctx: DomainContext) {
  return new Hono<AppEnv>()
    .get('/robots.txt', (c) => {
      const body = [
        'User-agent: *',
        'Allow: /',
        'Disallow: /api/',
        'Disallow: /notifications',
        'Disallow: /unsubscribe',
        '',
        `Sitemap: ${originOf(c.req.url)}/sitemap.xml`,
        '',
      ].join('\n');
      return c.body(body, 200, { 'Content-Type': 'text/plain; charset=utf-8' });
    })
    .get('/sitemap.xml', (c) => {
      const origin = originOf(c.req.url);
      const topics = ctx.store.topics.list({ sort: 'new', limit: SITEMAP_TOPICS, offset: 0, viewer: null });
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
const FILE_PATH = /^\/assets\/|\.(?:js|mjs|css|map|json|webmanifest|png|jpe?g|gif|svg|ico|webp|avif|woff2?|ttf|txt|xml|wasm)$/i;

/** True when `path` names a file rather than a page of the app. */
export const isFilePath = (path: string) => FILE_PATH.test(path);

/**
 * The built PWA: its files as they are, and the single-page app's shell for every
 * other page (its router shows the route). A missing file answers 404 (a stale
 * service worker or a typo must not get HTML as JavaScript). The shell is read
 * once: a new build means a restart (npm start builds first).
 */
export function mountSite(app: Hono<AppEnv>, staticDir: string): void {
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
  app.use('*', serveStatic({ root }));
  const shell = readFileSync(indexFile, 'utf8');
  app.get('*', (c) => (isFilePath(c.req.path) ? c.text('Not found.', 404) : c.html(shell)));
}
