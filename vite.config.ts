// Vite build of the PWA: app/ is the root, dist/ the output the server serves, with the service
// worker (app/src/service-worker/sw.ts) built beside it as dist/sw.js.
import { fileURLToPath } from 'node:url';
import { defineConfig, type LogLevel, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { compression } from 'vite-plugin-compression2';
import { TOPIC_PAGES_CACHE_PREFIX } from './shared/constants.js';
import { rxdbOpenCoreNotice } from './scripts/rxdb-open-core-notice.js';
import { sourceHash } from './scripts/build-id.js';

// The topic pages the service worker keeps name this build's hashed assets, so each build keeps
// them in a cache of its own: a page saved under the last build would load scripts that are gone.
// Named after the sources (scripts/build-id.ts), so building the same sources again gives the same
// app and service worker, and an open page sees no update. Defined for the app and the worker alike
// (vite-plugin-pwa builds the worker with this `define`).
const TOPIC_PAGES_CACHE = `${TOPIC_PAGES_CACHE_PREFIX}${sourceHash(fileURLToPath(new URL('.', import.meta.url)))}`;

/** The app build's log level (`vite build --logLevel warn` under `npm start`), read once it is resolved. */
let appLogLevel: LogLevel | undefined;
function appLogLevelProbe(): Plugin {
  return {
    name: 'crux:app-log-level',
    configResolved(config) {
      appLogLevel = config.logLevel;
    },
  };
}

/**
 * The worker is one file. vite-plugin-pwa asks for that with Rollup's `inlineDynamicImports`,
 * which Rolldown still honours but warns about on every build: asked for here in its own words.
 * The worker's build (a build of its own, which vite-plugin-pwa starts without a log level) logs
 * at the app build's level, so `npm start` does not list its modules and sizes.
 */
function singleFileWorker(): Plugin {
  return {
    name: 'crux:single-file-worker',
    config(config) {
      const output = config.build?.rollupOptions?.output;
      if (output && !Array.isArray(output) && 'inlineDynamicImports' in output) {
        delete output.inlineDynamicImports;
        Object.assign(output, { codeSplitting: false });
      }
      return appLogLevel ? { logLevel: appLogLevel } : undefined;
    },
  };
}

export default defineConfig({
  root: 'app',
  define: { 'import.meta.env.VITE_TOPIC_PAGES_CACHE': JSON.stringify(TOPIC_PAGES_CACHE) },
  publicDir: '../public',
  // The manifest names each lazy page's chunks: the server preloads the topic page's with a first
  // visit's topic page (sync-server/src/routes/first-page.ts).
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    manifest: true,
    // Which plugin was slow in this build is for whoever profiles it, not for every `npm start`.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  plugins: [
    appLogLevelProbe(),
    react(),
    // A quiet production console: see the plugin for why and how.
    rxdbOpenCoreNotice(),
    VitePWA({
      registerType: 'prompt',
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
      // One TypeScript worker (app/src/service-worker/sw.ts): precache, kept topic pages, Web Push.
      strategies: 'injectManifest',
      srcDir: 'src/service-worker',
      filename: 'sw.ts',
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,ico,webmanifest}'],
        // Dev-only RxDB chunks are not built at all (data/db.ts imports them behind import.meta.env.DEV);
        // this keeps them out of the precache should one ever come back.
        globIgnores: ['**/dev-mode-*.js', '**/validate-z-schema-*.js'],
        buildPlugins: { vite: [singleFileWorker()] },
      },
    }),
    // Every text file of the build also as .br and .gz, written once here and served as they are
    // (sync-server/src/routes/site-files.ts). The service worker is built after this (a build of its
    // own once the app's is written): the server compresses sw.js as it answers it.
    compression({
      include: /\.(?:html|js|mjs|css|svg|json|webmanifest|txt|xml)$/,
      algorithms: ['gzip', 'brotliCompress'],
      threshold: 0,
      // Also a chunk of a few bytes (compressed, a little larger): the server answers every script
      // from its compressed copy and would otherwise send that one as it is.
      skipIfLargerOrEqual: false,
      logLevel: 'silent',
    }),
  ],
  server: {
    proxy: { '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false } },
  },
});
