// The Node listener: opens the database, seeds demo debates on first run, serves
// the API and the PWA build, and stops cleanly on SIGINT/SIGTERM.
import { serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createApp } from './app.js';
import { createFirebaseVerifier } from './auth/verifier.js';
import { readConfig } from './config.js';
import { seedDemo } from './seed/demo.js';
import { openDatabase } from './store/connection.js';
import { createStore } from './store/store.js';

const config = readConfig();
const store = createStore(openDatabase(config.databaseFile));
const verifier = createFirebaseVerifier(config.firebaseProjectId, config.serviceAccountJson);
const { app, ctx } = createApp({ store, verifier });

if (config.seedDemo && store.isEmpty()) {
  seedDemo(ctx);
  console.log('Seeded demo debates.');
}

const indexFile = join(config.staticDir, 'index.html');
if (existsSync(indexFile)) {
  const root = relative(process.cwd(), config.staticDir) || '.';
  app.use('*', serveStatic({ root }));
  // Every other page is the single-page app (its router shows the route). The
  // shell is read once: a new build means a restart (npm start builds first).
  const shell = readFileSync(indexFile, 'utf8');
  app.get('*', (c) => c.html(shell));
} else {
  app.get('/', (c) =>
    c.html(
      '<!doctype html><title>Crux</title><h1>Crux</h1><p>The API is up at <a href="/api/topics">/api/topics</a>. Run <code>npm run build</code> for the app.</p>',
    ),
  );
}

const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
  // Tests read this line to learn the port when PORT=0.
  console.log(`Crux server listening on http://${config.host}:${info.port}`);
});

function stop() {
  server.close();
  store.close();
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
