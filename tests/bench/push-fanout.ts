// `npm run bench -- push`: one root response in a topic with 1,000 followers, each with a device that
// turned push on. The compiled server runs as `npm start` runs it, in its own process; this
// process is the push service (tests/fixtures/push-receiver.ts: every push decrypted and its VAPID
// header verified) and the client. Each round posts one response to a topic of its own (followed
// topics notify at most 3 times an hour each) and measures the request's latency and the time until
// the last of the 1,000 pushes arrived. BENCH_PUSH_FOLLOWERS (1000), BENCH_PUSH_ROUNDS (10; quick: 5).
// Not a test: no assertion on timing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import webpush from 'web-push';
import { startAuthEmulator, type RunningEmulator } from '../../scripts/auth-emulator.js';
import { openDatabase } from '../../sync-server/src/store/sqlite/connection.js';
import { createStore } from '../../sync-server/src/store/sqlite/store.js';
import { startPushReceiver } from '../fixtures/push-receiver.js';
import { buildServerForBench, startCruxProcess, type RunningProcess } from './processes.js';
import { emulatorToken } from './server.js';
import type { BenchRow } from './types.js';

const quick = process.env.BENCH_QUICK === '1';
const FOLLOWERS = Number(process.env.BENCH_PUSH_FOLLOWERS ?? 1000);
const ROUNDS = Number(process.env.BENCH_PUSH_ROUNDS ?? (quick ? 5 : 10));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

/** Followers, their devices and the rounds' topics, written straight into a freshly migrated database. */
async function seed(file: string, devices: { endpoint: string; keys: { p256dh: string; auth: string } }[]): Promise<string[]> {
  const db = openDatabase(file);
  const store = createStore(db);
  const now = new Date().toISOString();
  const topics = Array.from({ length: ROUNDS }, (_, i) => `bench-push-topic-${i}`);
  const user = db.prepare(
    "INSERT INTO users (uid, display_name, email, email_verified, role, created_at, seq) VALUES (?, ?, NULL, 0, 'member', ?, 1)",
  );
  const follow = db.prepare('INSERT INTO topic_follows (uid, topic_id, following, updated_at, seq) VALUES (?, ?, 1, ?, 1)');
  const device = db.prepare('INSERT INTO push_subscriptions (endpoint, uid, p256dh, auth, created_at) VALUES (?, ?, ?, ?, ?)');
  await store.transaction(async () => {
    user.run('bench-owner', 'Topic owner', now);
    for (const [i, id] of topics.entries())
      await store.topics.insert({
        id,
        title: `A debate with ${FOLLOWERS} followers (${i + 1})`,
        category: 'Other',
        creator_uid: 'bench-owner',
        created_at: now,
        seq: await store.nextSeq(),
      });
    devices.forEach((d, i) => {
      const uid = `bench-follower-${i}`;
      user.run(uid, `Follower ${i}`, now);
      device.run(d.endpoint, uid, d.keys.p256dh, d.keys.auth, now);
      for (const id of topics) follow.run(uid, id, now);
    });
  });
  await store.close();
  return topics;
}

export async function benchPushFanout(): Promise<BenchRow[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'crux-bench-push-'));
  const vapid = webpush.generateVAPIDKeys();
  const receiver = await startPushReceiver(vapid.publicKey);
  let emulator: RunningEmulator | null = null;
  let build: { outDir: string; remove(): void } | null = null;
  let server: RunningProcess | null = null;
  try {
    const buildAndEmulator = Promise.all([buildServerForBench(), startAuthEmulator()]);
    const devices = Array.from({ length: FOLLOWERS }, (_, i) => receiver.device(`follower-${i}`).subscription);
    const topics = await seed(join(dataDir, 'crux.sqlite'), devices);
    [build, emulator] = await buildAndEmulator;
    server = await startCruxProcess({
      outDir: build.outDir,
      dataDir,
      emulatorHost: emulator.host,
      env: {
        PUSH_ALLOW_LOOPBACK: 'on',
        VAPID_PUBLIC_KEY: vapid.publicKey,
        VAPID_PRIVATE_KEY: vapid.privateKey,
        VAPID_SUBJECT: 'mailto:bench@example.com',
      },
    });
    const { url } = server;
    const token = await emulatorToken(emulator.host);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    // The poster's first call records them; a warm-up response in a topic nobody follows.
    await fetch(`${url}/api/follows`, { headers });
    const warm = await fetch(`${url}/api/topics`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ title: 'Warm-up topic', categories: ['Other'] }),
    });
    const warmTopic = ((await warm.json()) as { id: string }).id;

    const requestMs: number[] = [];
    const quietMs: number[] = [];
    const deliveredS: number[] = [];
    for (const [round, topicId] of topics.entries()) {
      // The same request where nobody follows: what the fan-out adds.
      let t0 = performance.now();
      const quiet = await fetch(`${url}/api/responses`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ topic_id: warmTopic, type: 'for', content: `Quiet ${round}` }),
      });
      quietMs.push(performance.now() - t0);
      if (quiet.status !== 201) throw new Error(`POST /api/responses answered ${quiet.status}`);

      const before = receiver.received.length;
      t0 = performance.now();
      const res = await fetch(`${url}/api/responses`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ topic_id: topicId, type: 'for', content: `Round ${round}: everyone should hear this` }),
      });
      requestMs.push(performance.now() - t0);
      if (res.status !== 201) throw new Error(`POST /api/responses answered ${res.status}: ${await res.text()}`);
      const end = t0 + 60_000;
      while (receiver.received.length - before < FOLLOWERS && performance.now() < end) await sleep(5);
      deliveredS.push((performance.now() - t0) / 1000);
      const got = receiver.received.length - before;
      if (got < FOLLOWERS) throw new Error(`round ${round}: ${got} of ${FOLLOWERS} pushes arrived in 60 s`);
    }
    if (receiver.problems.length > 0) throw new Error(`push receiver: ${receiver.problems[0]}`);
    const n = `${ROUNDS} rounds, ${FOLLOWERS.toLocaleString('en')} followers each with a device`;
    const round = (ms: number) => Math.round(ms * 10) / 10;
    return [
      {
        name: `push fan-out: reply request p99 (${FOLLOWERS.toLocaleString('en')} followers)`,
        value: round(percentile(requestMs, 99)),
        unit: 'ms',
        budget: 50,
        note: `${n}; median ${round(percentile(requestMs, 50))} ms`,
      },
      {
        name: 'push fan-out: same reply, no follower (p99)',
        value: round(percentile(quietMs, 99)),
        unit: 'ms',
        note: 'what the fan-out adds is the difference',
      },
      {
        name: `push fan-out: all ${FOLLOWERS.toLocaleString('en')} pushes delivered (slowest round)`,
        value: Math.round(Math.max(...deliveredS) * 100) / 100,
        unit: 's',
        budget: 5,
        note: `median ${Math.round(percentile(deliveredS, 50) * 100) / 100} s; encrypted, VAPID-signed, decrypted by the receiver`,
      },
    ];
  } finally {
    await server?.stop();
    await emulator?.stop();
    await receiver.close();
    build?.remove();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
