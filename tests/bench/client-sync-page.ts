// Runs in Chromium (bundled by client-sync-chromium.ts): one topic's responses pulled from the page's
// own server into RxDB on Dexie (the browser's IndexedDB) with the app's responses schema, each way
// into a new database: push and pull (what the app runs), pull only (no replication-meta copy), a
// plain bulkInsert (no replication: the ceiling of any design that keeps RxDB collections), and a raw
// IndexedDB put of the same records (the baseline the budget divides by). Not a test.
import { addRxPlugin, createRxDatabase, type WithDeleted } from 'rxdb';
import { RxDBMigrationSchemaPlugin } from 'rxdb/plugins/migration-schema';
import { replicateRxCollection } from 'rxdb/plugins/replication';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { responseMigrations, responseSchema, type ResponseDocType } from '../../app/src/data/collections/response.schema.js';
import { PULL_ANSWER_MAX, type PullResponse, type SyncCheckpoint } from '../../shared/sync-protocol.js';

type Mode = 'push+pull' | 'pull-only' | 'bulkInsert' | 'raw' | 'raw2';

/** A pulled (live) response as the device stores it: nothing pending. */
const local = (doc: Record<string, unknown>) => ({ ...doc, pending: false, pending_delete: false }) as WithDeleted<ResponseDocType>;

async function pullPage(topicId: string, from: SyncCheckpoint, limit: number) {
  const res = await fetch(`/api/sync/responses/pull?topic_id=${topicId}&id=${encodeURIComponent(from.id)}&seq=${from.seq}&limit=${limit}`);
  if (!res.ok) throw new Error(`pull answered ${res.status}`);
  return (await res.json()) as PullResponse<Record<string, unknown>, SyncCheckpoint>;
}

/** Every response of the topic, 1,000 per request (the raw write's and bulkInsert's input, read before timing). */
async function pullAll(topicId: string) {
  const docs: WithDeleted<ResponseDocType>[] = [];
  let from: SyncCheckpoint = { id: '', seq: 0 };
  for (;;) {
    const page = await pullPage(topicId, from, PULL_ANSWER_MAX);
    docs.push(...page.documents.map(local));
    from = page.checkpoint;
    if (page.documents.length < PULL_ANSWER_MAX) return docs;
  }
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

async function rawWrite(name: string, docs: unknown[]): Promise<number> {
  const open = indexedDB.open(name, 1);
  open.onupgradeneeded = () =>
    open.result.createObjectStore('responses', { keyPath: 'id' }).createIndex('topic_created', ['topic_id', 'created_at']);
  const db = await request(open);
  const start = performance.now();
  for (let i = 0; i < docs.length; i += 1000) {
    await new Promise<void>((resolve, reject) => {
      const tx = db.transaction('responses', 'readwrite');
      for (const doc of docs.slice(i, i + 1000)) tx.objectStore('responses').put(doc);
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error ?? new Error('transaction failed'));
    });
  }
  const ms = performance.now() - start;
  db.close();
  await request(indexedDB.deleteDatabase(name));
  return ms;
}

async function rxdbRun(
  name: string,
  mode: Exclude<Mode, 'raw' | 'raw2'>,
  topicId: string,
  docs: WithDeleted<ResponseDocType>[],
  batchSize: number,
) {
  addRxPlugin(RxDBMigrationSchemaPlugin);
  const db = await createRxDatabase({ name, storage: getRxStorageDexie(), multiInstance: false, eventReduce: true });
  await db.addCollections({ responses: { schema: responseSchema, migrationStrategies: responseMigrations } });
  const collection = db.responses!;
  const start = performance.now();
  if (mode === 'bulkInsert') {
    for (let i = 0; i < docs.length; i += 1000) await collection.bulkInsert(docs.slice(i, i + 1000));
  } else {
    const state = replicateRxCollection<ResponseDocType, SyncCheckpoint>({
      replicationIdentifier: `${name}-responses`,
      collection,
      pull: {
        // The server answers at most PULL_ANSWER_MAX (200) per request: a larger RxDB batch is several requests joined.
        handler: async (checkpoint, size) => {
          let from = checkpoint ?? { id: '', seq: 0 };
          const documents: WithDeleted<ResponseDocType>[] = [];
          while (documents.length < size) {
            const limit = Math.min(PULL_ANSWER_MAX, size - documents.length);
            const page = await pullPage(topicId, from, limit);
            documents.push(...page.documents.map(local));
            from = page.checkpoint;
            if (page.documents.length < limit) break;
          }
          return { documents, checkpoint: from };
        },
        batchSize,
      },
      push: mode === 'push+pull' ? { handler: async () => [], batchSize: 50 } : undefined,
      live: false,
      waitForLeadership: false,
      toggleOnDocumentVisible: false,
    });
    await state.awaitInitialReplication();
    await state.cancel();
  }
  const ms = performance.now() - start;
  await db.remove();
  return ms;
}

async function run(topicId: string, modes: Mode[], batchSize: number) {
  const docs = await pullAll(topicId);
  const results: Record<string, number> = {};
  for (const mode of modes) {
    const name = `exp-${mode.replace(/[^a-z]/g, '')}-${batchSize}-${Date.now()}`;
    results[mode] = mode === 'raw' || mode === 'raw2' ? await rawWrite(name, docs) : await rxdbRun(name, mode, topicId, docs, batchSize);
  }
  return { records: docs.length, ms: results };
}

(window as unknown as { __syncExperiment: typeof run }).__syncExperiment = run;
