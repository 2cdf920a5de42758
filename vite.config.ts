// Vite build of the PWA: app/ is the root, dist/ the output the server serves.
// The service worker precaches the shell so every seen screen opens offline;
// /api is never answered from the navigation fallback, and the RxDB outbox (not
// Workbox Background Sync) is the only queue for /api/sync (SYNC-NOTES.md).
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { compression } from 'vite-plugin-compression2';
import { TOPIC_PAGES_CACHE_PREFIX } from './shared/constants';
import { rxdbOpenCoreNotice } from './scripts/rxdb-open-core-notice';

// The topic pages the service worker keeps name this build's hashed assets, so each build keeps
// them in a cache of its own: a page saved under the last build would load scripts that are gone.
const TOPIC_PAGES_CACHE = `${TOPIC_PAGES_CACHE_PREFIX}${Date.now().toString(36)}`;

export default defineConfig({
  root: 'app',
  define: { 'import.meta.env.VITE_TOPIC_PAGES_CACHE': JSON.stringify(TOPIC_PAGES_CACHE) },
  publicDir: '../public',
  // The manifest names each lazy page's chunks: the server preloads the topic page's with a first
  // visit's topic page (sync-server/src/routes/first-page.ts).
  build: { outDir: '../dist', emptyOutDir: true, manifest: true },
  plugins: [
    react(),
    // A quiet production console (issue 24 #9): see the plugin for why and how.
    rxdbOpenCoreNotice(),
    VitePWA({
      registerType: 'prompt',
      strategies: 'generateSW',
      injectRegister: false,
      includeAssets: ['favicon.svg', 'apple-touch-icon.png'],
      manifest: {
        name: 'Crux',
        short_name: 'Crux',
        description: 'Structured debates: find the crux of every disagreement.',
        theme_color: '#1f3a5f',
        background_color: '#ffffff',
        display: 'standalone',
        start_url: '/',
        scope: '/',
        icons: [
          { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' },
        ],
      },
      workbox: {
        // Web Push: the push and notificationclick handlers (public/push-sw.js, issue 26).
        importScripts: ['/push-sw.js'],
        clientsClaim: true,
        skipWaiting: true,
        navigateFallback: 'index.html',
        navigateFallbackDenylist: [/^\/api\//, /^\/robots\.txt$/, /^\/sitemap\.xml$/, /^\/topics\/[^/]+\/?$/],
        globPatterns: ['**/*.{js,css,html,svg,png,ico,webmanifest}'],
        // Dev-only RxDB chunks are not built at all (data/db.ts imports them behind import.meta.env.DEV);
        // this keeps them out of the precache should one ever come back.
        globIgnores: ['**/dev-mode-*.js', '**/validate-z-schema-*.js'],
        // No runtimeCaching for /api: the local database is the offline copy. A topic's page is the
        // server's page with its first screen in it (sync-server/src/routes/first-page.ts), kept
        // from the last visit by address and refreshed behind it: a revisit, online or offline,
        // paints the title and first rows before the local database has opened (issue 12), and the
        // database takes over once it has. A topic with no kept page gets the shell at once, as
        // every other page does (never a wait on the network, and no rows the device has not
        // pulled yet), while its page is fetched and kept for next time. Public data only (the
        // page is the same for everyone); removed with the local data (hooks/useSignOut.ts).
        runtimeCaching: [
          {
            urlPattern: ({ request, url }) => request.mode === 'navigate' && /^\/topics\/[^/]+\/?$/.test(url.pathname),
            handler: 'StaleWhileRevalidate',
            options: {
              cacheName: TOPIC_PAGES_CACHE,
              expiration: { maxEntries: 50 },
              cacheableResponse: { statuses: [200] },
              precacheFallback: { fallbackURL: 'index.html' },
              plugins: [
                {
                  // Serialised into sw.js (no imports; `self` is the worker, at the site's root): the precached
                  // shell's key carries a revision query.
                  cachedResponseWillBeUsed: async ({ cachedResponse }: { cachedResponse?: Response }) =>
                    cachedResponse ?? (await caches.match(new URL('index.html', self.location.href).href, { ignoreSearch: true })),
                },
                {
                  // A kept page with its first screen's markup in it (app/src/service-worker/first-screen.ts:
                  // the same data block, hash and key, written here again because this function is
                  // serialised into sw.js without imports): its first rows paint with the HTML, before
                  // any script runs. Only the screen rendered from this very page's data, else the page as
                  // it is. Runs after the plugin above, so a missing page is the shell here (no data block).
                  cachedResponseWillBeUsed: async ({
                    cacheName,
                    request,
                    cachedResponse,
                  }: {
                    cacheName: string;
                    request: Request;
                    cachedResponse?: Response;
                  }) => {
                    if (!cachedResponse) return cachedResponse;
                    try {
                      const html = await cachedResponse.clone().text();
                      const data = /<script type="application\/json" id="crux-first-page">([\s\S]*?)<\/script>/.exec(html)?.[1];
                      if (!data || !html.includes('<div id="root"></div>')) return cachedResponse;
                      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(data)));
                      const key = new URL(request.url);
                      key.hash = '';
                      key.searchParams.set('crux-first-screen', Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join(''));
                      const kept = await (await caches.open(cacheName)).match(key.href);
                      if (!kept) return cachedResponse;
                      const screen = (await kept.json()) as { html: string; styles: string[] };
                      // Every style sheet first in the head, before the scripts and their preloads: the
                      // first rows paint once these are in, and the worker answers the page's requests
                      // in the order they come. The page's own, then those the app had (the topic page's
                      // are otherwise added by its chunk's loader, after the scripts).
                      const own = html.match(/<link rel="stylesheet"[^>]*>/g) ?? [];
                      const links =
                        own.join('') +
                        screen.styles
                          .filter((href) => /^\/[\w./-]+\.css$/.test(href) && !html.includes(`href="${href}"`))
                          .map((href) => `<link rel="stylesheet" crossorigin href="${href}">`)
                          .join('');
                      let page = html.replace(/<link rel="stylesheet"[^>]*>/g, '');
                      const charset = /<meta charset[^>]*>/i.exec(page);
                      const first = charset ? charset.index + charset[0].length : page.indexOf('<head>') + '<head>'.length;
                      page = page.slice(0, first) + links + page.slice(first);
                      page = page.replace('<div id="root"></div>', () => `<div id="root">${screen.html}</div>`);
                      // The body is new, decoded text: no length or encoding of the stored one.
                      const headers = new Headers(cachedResponse.headers);
                      headers.delete('content-length');
                      headers.delete('content-encoding');
                      return new Response(page, { status: cachedResponse.status, statusText: cachedResponse.statusText, headers });
                    } catch {
                      return cachedResponse;
                    }
                  },
                },
              ],
            },
          },
        ],
      },
    }),
    // Every text file of the build also as .br and .gz, written once here and served as they are
    // (sync-server/src/routes/site-files.ts); last so it sees the service worker and its runtime too.
    compression({
      include: /\.(?:html|js|mjs|css|svg|json|webmanifest|txt|xml)$/,
      algorithms: ['gzip', 'brotliCompress'],
      threshold: 0,
      logLevel: 'silent',
    }),
  ],
  server: {
    proxy: { '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false } },
  },
});
