// Profiles the app under load: `node --cpu-prof --import tsx tests/bench/profile-server.ts [path] [bearer]`
// (seeds BENCH_QUICK sizes, 5 s of autocannon from a child process against one route).
import { serve } from '@hono/node-server';
import { fork } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from '../../sync-server/src/app.js';
import { DEFAULT_RATE_LIMITS } from '../../sync-server/src/http/rate-limit.js';
import { openDatabase } from '../../sync-server/src/store/connection.js';
import { createStore } from '../../sync-server/src/store/store.js';
import { seedLarge } from './seed.js';

const path = process.argv[2] ?? '/api/topics?sort=hot';
const bearer = process.argv[3] === 'bearer';
const dir = mkdtempSync(join(tmpdir(), 'crux-prof-'));
const db = openDatabase(join(dir, 'p.sqlite'));
seedLarge(db, { topics: 10_000, responses: 50_000, upvotes: 100_000, bigTopicRoots: 5_000 });
const store = createStore(db);
const { app } = createApp({
  store,
  verifier: { verify: async () => ({ uid: 'bench', name: 'Bench', email: null }) },
  log: () => {},
  rateLimits: { ...DEFAULT_RATE_LIMITS, enabled: false },
});
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  const options = {
    url: `http://127.0.0.1:${info.port}${path}`,
    connections: 50,
    duration: 5,
    ...(bearer ? { headers: { authorization: 'Bearer x' } } : {}),
  };
  const child = fork(fileURLToPath(new URL('./autocannon-worker.mjs', import.meta.url)), [JSON.stringify({ options, pushBatch: 0 })]);
  child.on('message', (m) => console.log(JSON.stringify(m)));
  child.on('exit', () => {
    server.close();
    process.exit(0);
  });
});
