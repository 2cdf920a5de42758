// Vite build of the PWA: app/ is the root, dist/ the output the server serves.
// The service worker precaches the shell so every seen screen opens offline;
// /api is never answered from the navigation fallback, and the RxDB outbox (not
// Workbox Background Sync) is the only queue for /api/sync (SYNC-NOTES.md).
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { compression } from 'vite-plugin-compression2';

export default defineConfig({
  root: 'app',
  publicDir: '../public',
  // The manifest names each lazy page's chunks: the server preloads the topic page's with a first
  // visit's topic page (sync-server/src/routes/first-page.ts).
  build: { outDir: '../dist', emptyOutDir: true, manifest: true },
  plugins: [
    react(),
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
        clientsClaim: true,
        skipWaiting: true,
        navigateFallback: 'index.html',
        navigateFallbackDenylist: [/^\/api\//, /^\/robots\.txt$/, /^\/sitemap\.xml$/],
        globPatterns: ['**/*.{js,css,html,svg,png,ico,webmanifest}'],
        // Dev-only RxDB chunks are not built at all (data/db.ts imports them behind import.meta.env.DEV);
        // this keeps them out of the precache should one ever come back.
        globIgnores: ['**/dev-mode-*.js', '**/validate-z-schema-*.js'],
        // No runtimeCaching for /api: the local database is the offline copy.
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
