// Profiles the app under load: `node --cpu-prof --import tsx tests/bench/profile-server.ts [path] [bearer]`
// (seeds a small database, 5 s of autocannon from a child process against one route). A write:
// PROFILE_METHOD=POST PROFILE_BODY='{"topic_id":"bench-topic-big",...}', or PROFILE_PUSH=50 for a
// sync push of that many new topics per request (path /api/sync/topics/push). The child's own
// profile is written too (fork inherits --cpu-prof): the server's is the larger file with this pid.
import { serve } from '@hono/node-server';
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from '../../sync-server/src/app.js';
import { DEFAULT_RATE_LIMITS } from '../../sync-server/src/http/rate-limit.js';
import { NO_MODERATION_LIMITS } from '../../sync-server/src/domain/limits.js';
import { DEFAULT_CHECKPOINT_EVERY_MS, openDatabase } from '../../sync-server/src/store/sqlite/connection.js';
import { createStore } from '../../sync-server/src/store/sqlite/store.js';
import { seedLarge } from './seed.js';

const path = process.argv[2] ?? '/api/topics?sort=hot';
const bearer = process.argv[3] === 'bearer';
const method = process.env.PROFILE_METHOD ?? (process.env.PROFILE_PUSH ? 'POST' : 'GET');
const body = process.env.PROFILE_BODY;
const pushBatch = Number(process.env.PROFILE_PUSH ?? 0);
const dir = mkdtempSync(join(tmpdir(), 'crux-prof-'));
const seedDb = openDatabase(join(dir, 'p.sqlite'));
seedLarge(seedDb, { topics: 10_000, responses: 50_000, upvotes: 100_000, bigTopicRoots: 5_000 });
seedDb.close();
const checkpointEveryMs = process.env.BENCH_BG_CHECKPOINT === '0' ? undefined : DEFAULT_CHECKPOINT_EVERY_MS;
const store = createStore(openDatabase(join(dir, 'p.sqlite'), { checkpointEveryMs }));
const { app } = createApp({
  store,
  verifier: { verify: async () => ({ uid: 'bench', name: 'Bench', email: null }) },
  log: () => {},
  rateLimits: { ...DEFAULT_RATE_LIMITS, enabled: false },
  moderation: NO_MODERATION_LIMITS,
});
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  const headers: Record<string, string> = {
    ...(bearer ? { authorization: 'Bearer x' } : {}),
    ...(method !== 'GET' ? { 'content-type': 'application/json' } : {}),
  };
  const options = {
    url: `http://127.0.0.1:${info.port}${path}`,
    connections: pushBatch ? 10 : 50,
    duration: 5,
    method,
    headers,
    ...(body ? { body } : {}),
  };
  console.error(`server pid ${process.pid}`);
  // The server's own CPU time per request: steadier than req/s on a shared machine.
  const cpu = process.cpuUsage();
  const child = fork(fileURLToPath(new URL('./autocannon-worker.mjs', import.meta.url)), [JSON.stringify({ options, pushBatch })]);
  child.on('message', (m: { total: number }) => {
    const used = process.cpuUsage(cpu);
    console.log(JSON.stringify({ ...m, serverCpuUsPerRequest: Math.round((used.user + used.system) / m.total) }));
  });
  child.on('exit', () => {
    server.close();
    void store.close();
    // The seeded site (about 200 MB) goes with the run.
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
});
