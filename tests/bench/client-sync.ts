// The client's initial replication: RxDB + Dexie over fake-indexeddb pulling
// from the real server, beside a raw Dexie bulkPut of the same documents on the same
// fake-indexeddb in the same run; plus the server's pull and push throughput as the client uses
// them. Not a test: no assertion on timing.
import { serve, type ServerType } from '@hono/node-server';
import Dexie from 'dexie';
import { IDBCursor, IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { createCruxData, type CruxData } from '../../app/src/data/index.js';
import { toLocal } from '../../app/src/data/local-docs.js';
import { PULL_ANSWER_MAX, type PullResponse, type PushResponse, type SyncCollection } from '../../shared/sync-protocol.js';
import { createApp } from '../../sync-server/src/app.js';
import type { TokenVerifier } from '../../sync-server/src/auth/verifier.js';
import { DEFAULT_RATE_LIMITS } from '../../sync-server/src/http/rate-limit.js';
import { NO_MODERATION_LIMITS } from '../../sync-server/src/domain/limits.js';
import { openDatabase } from '../../sync-server/src/store/sqlite/connection.js';
import { createStore } from '../../sync-server/src/store/sqlite/store.js';
import { countingStorage, pullExperiment, rxdbWrite, storedBytes, type StorageOps } from './client-sync-storage.js';
import { seedBench } from './seed.js';
import type { BenchRow } from './types.js';

export interface ClientSyncOptions {
  topics?: number;
  responses?: number;
  pushed?: number;
}

// The bench measures replication, not Firebase: one fixed bench user behind the real verifier interface.
const benchVerifier: TokenVerifier = {
  async verify(token) {
    if (token !== 'bench-token') throw new Error('bad token');
    return { uid: 'bench', name: 'Bench', email: null };
  },
};

async function startServer(topics: number, responses: number) {
  const dir = mkdtempSync(join(tmpdir(), 'crux-bench-'));
  const db = openDatabase(join(dir, 'bench.sqlite'));
  const store = createStore(db);
  const { bigTopicId } = seedBench(db, topics, responses);
  // It measures throughput: one user pushing 2,000 rows at once is what the write limit exists to stop.
  const { app } = createApp({
    store,
    verifier: benchVerifier,
    log: () => {},
    rateLimits: { ...DEFAULT_RATE_LIMITS, enabled: false },
    moderation: NO_MODERATION_LIMITS,
  });
  const { server, port } = await new Promise<{ server: ServerType; port: number }>((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve({ server, port: info.port }));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    bigTopicId,
    async stop() {
      await new Promise<void>((resolve) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => resolve());
      });
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Counts the documents the client's pull requests brought in (the bench's window on the wire), on
 * the client's own parse of each answer: a second parse of every page would be the bench's work
 * measured as the client's.
 */
function countingFetch() {
  const counter = { pulled: 0 };
  const impl: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    const url = input instanceof Request ? input.url : input.toString();
    if (!url.includes('/pull')) return res;
    const json = res.json.bind(res);
    res.json = async () => {
      const page = (await json()) as PullResponse;
      counter.pulled += page.documents.length;
      return page;
    };
    return res;
  };
  return { counter, impl };
}

interface FakeCursor {
  direction: IDBCursorDirection;
  _range: IDBKeyRange | undefined;
  _position: unknown;
  _iterate(key: unknown, primaryKey: unknown): unknown;
}

let cursorsFixed = false;
/**
 * fake-indexeddb 6.2.8 restarts every forward cursor step from the start of the cursor's range
 * (its makeKeyRange keeps the lower of the range's bound and the cursor's position), so each
 * continue() costs O(records already passed) and a cursor over n records O(n²); a browser's
 * IndexedDB seeks. RxDB walks such cursors (its upstream re-reads the last write's documents from
 * the push checkpoint on every RESYNC), so unfixed the bench measured fake-indexeddb: a 2,000-step
 * cursor took 1.5–2.6 s. This narrows the range to start at the position for the one step: the
 * same records in the same order (the original filters still run), found by a seek. Bench only.
 */
function fixFakeIndexedDbCursors() {
  if (cursorsFixed) return;
  cursorsFixed = true;
  const proto = IDBCursor.prototype as unknown as FakeCursor;
  const iterate = proto._iterate;
  proto._iterate = function (this: FakeCursor, key: unknown, primaryKey: unknown) {
    if (this.direction !== 'next' || this._position === undefined) return iterate.call(this, key, primaryKey);
    const range = this._range;
    this._range =
      range?.upper === undefined
        ? IDBKeyRange.lowerBound(this._position)
        : IDBKeyRange.bound(this._position, range.upper, false, range.upperOpen);
    try {
      return iterate.call(this, key, primaryKey);
    } finally {
      this._range = range;
    }
  };
}

/** Resolves once `target` documents were pulled and the replication has written them (no longer syncing). */
async function settle(data: CruxData, counter: { pulled: number }, target: number) {
  // One long-lived subscription (as a screen would hold), checked on each change and on a short timer.
  let syncing = true;
  await new Promise<void>((resolve) => {
    const check = () => {
      if (syncing || counter.pulled < target) return;
      clearInterval(timer);
      queueMicrotask(() => sub.unsubscribe());
      resolve();
    };
    const sub = data.status$.subscribe((status) => {
      syncing = status.syncing || status.lastSyncedAt === null;
      check();
    });
    const timer = setInterval(check, 5);
  });
}

async function pullAll(url: string, collection: SyncCollection, query = '') {
  const documents: Record<string, unknown>[] = [];
  let checkpoint = { id: '', seq: 0 };
  const start = performance.now();
  for (;;) {
    const res = await fetch(
      `${url}/api/sync/${collection}/pull?id=${checkpoint.id}&seq=${checkpoint.seq}&limit=${PULL_ANSWER_MAX}${query}`,
    );
    const page = (await res.json()) as PullResponse<Record<string, unknown>>;
    documents.push(...page.documents);
    checkpoint = page.checkpoint;
    if (page.documents.length < PULL_ANSWER_MAX) break;
  }
  return { documents, ms: performance.now() - start };
}

/** BENCH_DEBUG=1: where the bench is (on stderr). */
const progress = (line: string) => process.env.BENCH_DEBUG && console.error(`client sync: ${line}`);

const perSecond = (docs: number, ms: number) => Math.round((docs / ms) * 1000);

export async function benchClientSync(options: ClientSyncOptions = {}): Promise<BenchRow[]> {
  const topics = options.topics ?? Number(process.env.BENCH_SYNC_TOPICS ?? 10_000);
  const responses = options.responses ?? Number(process.env.BENCH_SYNC_RESPONSES ?? 50_000);
  const pushed = options.pushed ?? Number(process.env.BENCH_PUSHED ?? 2_000);
  fixFakeIndexedDbCursors();
  const server = await startServer(topics, responses);
  try {
    // 1. Initial replication into a fresh client store.
    const indexedDB = new IDBFactory();
    const wire = countingFetch();
    const counted = countingStorage(getRxStorageDexie({ indexedDB, IDBKeyRange }));
    const data = await createCruxData({
      fetch: wire.impl,
      baseUrl: server.url,
      storage: counted.storage,
      events: new EventTarget(),
      isOnline: () => true,
      dbPrefix: 'bench',
      devMode: false,
      multiInstance: false,
    });
    const topicsStart = performance.now();
    await settle(data, wire.counter, topics);
    const topicsPulled = wire.counter.pulled;
    progress(`topics replicated`);
    const topicsMs = performance.now() - topicsStart;
    const opsBefore = structuredClone(counted.ops);
    const responsesStart = performance.now();
    await data.openTopic(server.bigTopicId);
    await settle(data, wire.counter, topicsPulled + responses);
    const responsesMs = performance.now() - responsesStart;
    // Storage calls during the responses' replication, per pulled response (documents' store, RxDB's replication meta).
    const perDoc = (after: StorageOps, before: StorageOps) => ({
      reads: (after.readDocs - before.readDocs) / responses,
      writes: (after.writeDocs - before.writeDocs) / responses,
    });
    const appOps = { docs: perDoc(counted.ops.docs, opsBefore.docs), meta: perDoc(counted.ops.meta, opsBefore.meta) };
    // (No read-back through a live query here: fake-indexeddb walks index cursors in
    // quadratic time, so reading 50,000 documents back would measure fake-indexeddb.)
    progress('responses replicated');
    await data.close();
    // What the responses take on the device: the documents' database and the replication's meta database (JSON bytes of the records).
    const appBytes = await storedBytes(indexedDB, (name) => name.startsWith('rxdb-dexie-bench-public'));
    const bytesOf = (match: (name: string) => boolean) => [...appBytes].filter(([name]) => match(name)).reduce((sum, [, b]) => sum + b, 0);
    const responseDocBytes = bytesOf((name) => name.endsWith('--responses'));
    // The meta store of every public replication: the responses' holds nearly all of it after this pull.
    const metaBytes = bytesOf((name) => name.includes('rx-replication-meta-'));
    progress('bytes counted');

    // 2. Baseline: the same documents bulkPut straight into Dexie, same fake-indexeddb, 1,000 per batch.
    const topicDocs = (await pullAll(server.url, 'topics')).documents.map((d) => toLocal('topics', d));
    const responseDocs = (await pullAll(server.url, 'responses', `&topic_id=${server.bigTopicId}`)).documents.map((d) =>
      toLocal('responses', d),
    );
    // The median of three runs, each into a new database: one run takes a fraction of a second, so a
    // garbage collection, a cold JIT or a busy neighbour on the shared machine moved a single run by
    // up to 10× (5,000–75,000 docs/s). The median is a warm run: the stricter baseline.
    const baseline = async (run: number) => {
      const dexie = new Dexie(`bench-baseline-${run}`, { indexedDB, IDBKeyRange });
      dexie.version(1).stores({ topics: 'id,created_at', responses: 'id,[topic_id+created_at]' });
      const bulk = async (table: string, docs: unknown[]) => {
        const start = performance.now();
        for (let i = 0; i < docs.length; i += 1000) await dexie.table(table).bulkPut(docs.slice(i, i + 1000));
        return performance.now() - start;
      };
      const topicsMs = await bulk('topics', topicDocs);
      const responsesMs = await bulk('responses', responseDocs);
      dexie.close();
      return { topicsMs, responsesMs };
    };
    const runs = [await baseline(1), await baseline(2), await baseline(3)];
    // What RxDB alone costs for the same responses: push and pull (as the app) against pull only, in
    // bare collections with the app's schema (client-sync-storage.ts). BENCH_PULL_BATCHES=500,1000,2000
    // measures other page sizes (default: the app's 1,000).
    const ceiling = {
      collection: await rxdbWrite(indexedDB, 'bench-ceiling-collection', responseDocs as never, 'collection'),
      storage: await rxdbWrite(indexedDB, 'bench-ceiling-storage', responseDocs as never, 'storage'),
    };
    const batches = (process.env.BENCH_PULL_BATCHES ?? '1000').split(',').map(Number);
    const experiments: { batch: number; withPush: boolean; result: Awaited<ReturnType<typeof pullExperiment>> }[] = [];
    for (const batch of batches) {
      for (const withPush of [true, false]) {
        const name = `bench-exp-${batch}-${withPush ? 'pushpull' : 'pull'}`;
        progress(name);
        experiments.push({
          batch,
          withPush,
          result: await pullExperiment({ url: server.url, topicId: server.bigTopicId, indexedDB, name, withPush, batchSize: batch }),
        });
      }
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[1]!;
    const baseTopicsMs = median(runs.map((run) => run.topicsMs));
    const baseResponsesMs = median(runs.map((run) => run.responsesMs));

    // 3. Server pull throughput (PULL_ANSWER_MAX per page) and push throughput (creates, 50 per push like the client).
    const pullTopics = await pullAll(server.url, 'topics');
    const pullResponses = await pullAll(server.url, 'responses', `&topic_id=${server.bigTopicId}`);
    const pushStart = performance.now();
    for (let i = 0; i < pushed; i += 50) {
      const batch = Array.from({ length: Math.min(50, pushed - i) }, (_, k) => ({
        newDocumentState: {
          id: `pushed-${i + k}`,
          title: `Pushed ${i + k}`,
          category: 'Other',
          creator_uid: 'bench',
          username: null,
          created_at: '',
          score: 0,
          responses_count: 0,
          seq: 0,
          _deleted: false,
        },
      }));
      const res = await fetch(`${server.url}/api/sync/topics/push`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer bench-token' },
        body: JSON.stringify(batch),
      });
      const answer = (await res.json()) as PushResponse;
      if (answer.rejected.length > 0) throw new Error(`push rejected: ${JSON.stringify(answer.rejected[0])}`);
    }
    const pushMs = performance.now() - pushStart;

    const share = (base: number, client: number) => Math.round((base / client) * 100) / 100;
    return [
      { name: `client sync (Node): initial replication, ${topics} topics`, value: perSecond(topics, topicsMs), unit: 'docs/s' },
      { name: `client sync (Node): initial replication, ${responses} responses`, value: perSecond(responses, responsesMs), unit: 'docs/s' },
      { name: 'client sync (Node): raw Dexie bulkPut, topics', value: perSecond(topics, baseTopicsMs), unit: 'docs/s' },
      { name: 'client sync (Node): raw Dexie bulkPut, responses', value: perSecond(responses, baseResponsesMs), unit: 'docs/s' },
      {
        name: 'client sync (Node): topics rate / raw Dexie rate',
        value: share(baseTopicsMs, topicsMs),
        unit: '×',
        budget: 0.5,
        higherIsBetter: true,
      },
      {
        name: 'client sync (Node): responses rate / raw Dexie rate',
        value: share(baseResponsesMs, responsesMs),
        unit: '×',
        budget: 0.5,
        higherIsBetter: true,
      },
      {
        name: 'client sync (Node): storage ops per pulled response',
        value: Math.round((appOps.docs.reads + appOps.docs.writes + appOps.meta.reads + appOps.meta.writes) * 10) / 10,
        unit: 'docs',
        note: `documents' store ${appOps.docs.reads.toFixed(1)} read + ${appOps.docs.writes.toFixed(1)} written, meta ${appOps.meta.reads.toFixed(1)} read + ${appOps.meta.writes.toFixed(1)} written`,
      },
      {
        name: 'client sync (Node): stored bytes per response',
        value: Math.round((responseDocBytes + metaBytes) / responses),
        unit: 'B',
        note: `JSON of the records: documents ${Math.round(responseDocBytes / responses)} B, replication meta ${Math.round(metaBytes / responses)} B`,
      },
      {
        name: 'RxDB alone (Node): bulkInsert, no replication, rate / raw Dexie rate',
        value: share(baseResponsesMs, ceiling.collection),
        unit: '×',
        note: `${perSecond(responses, ceiling.collection)} docs/s, 1,000 per call: the ceiling of any replication into an RxDB collection`,
      },
      {
        name: 'RxDB alone (Node): Dexie storage bulkWrite, rate / raw Dexie rate',
        value: share(baseResponsesMs, ceiling.storage),
        unit: '×',
        note: `${perSecond(responses, ceiling.storage)} docs/s: RxDB's storage layer alone (its indexes and fields)`,
      },
      ...experiments.flatMap(({ batch, withPush, result }) => {
        const mode = withPush ? 'push+pull' : 'pull-only';
        const ops = result.ops;
        const n = responses;
        return [
          {
            name: `RxDB alone (Node): ${mode} replication, ${batch}/page, rate / raw Dexie rate`,
            value: share(baseResponsesMs, result.ms),
            unit: '×',
            note:
              `${perSecond(n, result.ms)} docs/s; per response: docs ${(ops.docs.readDocs / n).toFixed(1)} read + ${(ops.docs.writeDocs / n).toFixed(1)} written, ` +
              `meta ${(ops.meta.readDocs / n).toFixed(1)} read + ${(ops.meta.writeDocs / n).toFixed(1)} written; ` +
              `${Math.round((result.bytes.docs + result.bytes.meta) / n)} B stored (meta ${Math.round(result.bytes.meta / n)} B)`,
          },
        ];
      }),
      { name: 'sync pull topics (1,000/page)', value: perSecond(pullTopics.documents.length, pullTopics.ms), unit: 'docs/s' },
      { name: 'sync pull responses (1,000/page)', value: perSecond(pullResponses.documents.length, pullResponses.ms), unit: 'docs/s' },
      { name: 'sync push topic creates (50/push, one client)', value: perSecond(pushed, pushMs), unit: 'docs/s' },
    ];
  } finally {
    await server.stop();
  }
}
