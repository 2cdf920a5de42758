// /robots.txt and /sitemap.xml: served as what they are (text/plain, application/xml),
// before the single-page app's shell, which answers every other path.
import { Hono } from 'hono';
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
