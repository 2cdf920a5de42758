// What RxDB's replication does to storage per pulled document, and what a pull-only replication
// would save. Beside the app's own initial replication (client-sync.ts), the same
// responses of one topic are pulled from the same server into a bare RxDB collection with the app's
// schema, three ways, each into a new database: push and pull (what the app runs today), pull only
// (RxDB then stores no replication-meta copy), and a raw Dexie bulkPut. Every storage call is counted
// per document and per store (the documents' store, the replication-meta store), and the stored
// records' bytes are summed (their JSON). Not a test: no assertion on timing.
import Dexie from 'dexie';
import { IDBKeyRange, type IDBFactory } from 'fake-indexeddb';
import { performance } from 'node:perf_hooks';
import {
  addRxPlugin,
  createRxDatabase,
  type WithDeleted,
  type RxStorage,
  type RxStorageInstance,
  type RxStorageInstanceCreationParams,
} from 'rxdb';
import { RxDBMigrationSchemaPlugin } from 'rxdb/plugins/migration-schema';
import { replicateRxCollection } from 'rxdb/plugins/replication';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { responseMigrations, responseSchema, type ResponseDocType } from '../../app/src/data/collections/response.schema.js';
import { toLocal } from '../../app/src/data/local-docs.js';
import { PULL_ANSWER_MAX, type PullResponse, type SyncCheckpoint } from '../../shared/sync-protocol.js';

/** Storage calls and the documents they carried, per store kind. */
export interface StorageOps {
  reads: number;
  readDocs: number;
  writes: number;
  writeDocs: number;
  queries: number;
}

const zeroOps = (): StorageOps => ({ reads: 0, readDocs: 0, writes: 0, writeDocs: 0, queries: 0 });

const isMeta = (params: RxStorageInstanceCreationParams<unknown, unknown>) => params.collectionName.startsWith('rx-replication-meta-');

/**
 * Counts the calls of every storage instance the wrapped storage creates (RxDB's storage interface,
 * unchanged in what it does): `docs` for the collections' own stores, `meta` for RxDB's replication
 * metadata. The app's createCruxData takes it as its `storage`.
 */
export function countingStorage(inner: RxStorage<unknown, unknown>) {
  const ops = { docs: zeroOps(), meta: zeroOps() };
  const storage: RxStorage<unknown, unknown> = {
    ...inner,
    async createStorageInstance<D>(params: RxStorageInstanceCreationParams<D, unknown>) {
      const instance: RxStorageInstance<D, unknown, unknown> = await inner.createStorageInstance<D>(params);
      const count = isMeta(params as RxStorageInstanceCreationParams<unknown, unknown>) ? ops.meta : ops.docs;
      const bulkWrite = instance.bulkWrite.bind(instance);
      const findDocumentsById = instance.findDocumentsById.bind(instance);
      const query = instance.query.bind(instance);
      instance.bulkWrite = (rows, context) => {
        count.writes += 1;
        count.writeDocs += rows.length;
        return bulkWrite(rows, context);
      };
      instance.findDocumentsById = (ids, withDeleted) => {
        count.reads += 1;
        count.readDocs += ids.length;
        return findDocumentsById(ids, withDeleted);
      };
      instance.query = (prepared) => {
        count.queries += 1;
        return query(prepared);
      };
      return instance;
    },
  };
  return { storage, ops };
}

/** The records of every object store of every database of `indexedDB`, as JSON bytes (UTF-8), by database name. */
export async function storedBytes(indexedDB: IDBFactory, match: (name: string) => boolean): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  const encoder = new TextEncoder();
  for (const info of await indexedDB.databases()) {
    if (!info.name || !match(info.name)) continue;
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(info.name!);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
    });
    let bytes = 0;
    for (const store of Array.from(db.objectStoreNames)) {
      const records = await new Promise<unknown[]>((resolve, reject) => {
        const request = db.transaction(store).objectStore(store).getAll();
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
      });
      for (const record of records) bytes += encoder.encode(JSON.stringify(record)).length;
    }
    db.close();
    sizes.set(info.name, bytes);
  }
  return sizes;
}

export interface PullExperiment {
  ms: number;
  ops: { docs: StorageOps; meta: StorageOps };
  /** JSON bytes of the stored records: the documents' database, the replication-meta database. */
  bytes: { docs: number; meta: number };
}

/**
 * Pulls one topic's responses from `url` into a new RxDB database with the app's responses schema,
 * `batchSize` per page, with or without a push side (one that never has anything to send: the
 * measured difference is RxDB's own bookkeeping for a replication that may push).
 */
export async function pullExperiment(opts: {
  url: string;
  topicId: string;
  indexedDB: IDBFactory;
  name: string;
  withPush: boolean;
  batchSize: number;
}): Promise<PullExperiment> {
  const { storage, ops } = countingStorage(getRxStorageDexie({ indexedDB: opts.indexedDB, IDBKeyRange }));
  // The app's schema is at version 3: RxDB asks for its migration strategies (the app's own).
  addRxPlugin(RxDBMigrationSchemaPlugin);
  const db = await createRxDatabase({ name: opts.name, storage, multiInstance: false, eventReduce: true });
  await db.addCollections({ responses: { schema: responseSchema, migrationStrategies: responseMigrations } });
  const start = performance.now();
  const state = replicateRxCollection<ResponseDocType, SyncCheckpoint>({
    replicationIdentifier: `${opts.name}-responses`,
    collection: db.responses,
    pull: {
      // The server answers at most PULL_ANSWER_MAX (200) per request: a larger RxDB batch is
      // several requests joined, so the size measured is RxDB's write batch.
      handler: async (checkpoint, batchSize) => {
        let from = checkpoint ?? { id: '', seq: 0 };
        const documents: WithDeleted<ResponseDocType>[] = [];
        while (documents.length < batchSize) {
          const limit = Math.min(PULL_ANSWER_MAX, batchSize - documents.length);
          const res = await fetch(
            `${opts.url}/api/sync/responses/pull?topic_id=${opts.topicId}&id=${encodeURIComponent(from.id)}&seq=${from.seq}&limit=${limit}`,
          );
          if (!res.ok) throw new Error(`pull answered ${res.status}: ${await res.text()}`);
          const page = (await res.json()) as PullResponse<Record<string, unknown>, SyncCheckpoint>;
          documents.push(...page.documents.map((doc) => toLocal('responses', doc as never) as never));
          from = page.checkpoint;
          if (page.documents.length < limit) break;
        }
        return { documents, checkpoint: from };
      },
      batchSize: opts.batchSize,
    },
    push: opts.withPush ? { handler: async () => [], batchSize: 50 } : undefined,
    live: false,
    autoStart: true,
    waitForLeadership: false,
    toggleOnDocumentVisible: false,
  });
  state.error$.subscribe((error) => console.error('pull experiment:', error));
  await state.awaitInitialReplication();
  const ms = performance.now() - start;
  await state.cancel();
  const docsName = (n: string) => n.includes(opts.name) && n.endsWith('--responses');
  const metaName = (n: string) => n.includes(opts.name) && n.includes('rx-replication-meta-');
  const sizes = await storedBytes(opts.indexedDB, (n) => docsName(n) || metaName(n));
  const sum = (match: (n: string) => boolean) => [...sizes].filter(([n]) => match(n)).reduce((total, [, bytes]) => total + bytes, 0);
  const bytes = { docs: sum(docsName), meta: sum(metaName) };
  await db.remove();
  return { ms, ops, bytes };
}

/** A raw Dexie bulkPut of `docs` (1,000 per transaction) into a new database: the baseline, in ms. */
export async function rawDexieWrite(indexedDB: IDBFactory, name: string, docs: unknown[]): Promise<number> {
  const dexie = new Dexie(name, { indexedDB, IDBKeyRange });
  dexie.version(1).stores({ responses: 'id,[topic_id+created_at]' });
  const start = performance.now();
  for (let i = 0; i < docs.length; i += 1000) await dexie.table('responses').bulkPut(docs.slice(i, i + 1000));
  const ms = performance.now() - start;
  dexie.close();
  return ms;
}

/**
 * The ceiling of any design that keeps RxDB on Dexie: the same documents written with no replication
 * at all, 1,000 per call, into a new database with the app's schema. `collection`: through
 * `bulkInsert` (RxDB's hooks, document cache and change events); `storage`: straight into the Dexie
 * storage instance's `bulkWrite` (RxDB's indexes and metadata fields only). In ms.
 */
export async function rxdbWrite(
  indexedDB: IDBFactory,
  name: string,
  docs: ResponseDocType[],
  via: 'collection' | 'storage',
): Promise<number> {
  addRxPlugin(RxDBMigrationSchemaPlugin);
  const db = await createRxDatabase({
    name,
    storage: getRxStorageDexie({ indexedDB, IDBKeyRange }),
    multiInstance: false,
    eventReduce: true,
  });
  await db.addCollections({ responses: { schema: responseSchema, migrationStrategies: responseMigrations } });
  const collection = db.responses!;
  const start = performance.now();
  for (let i = 0; i < docs.length; i += 1000) {
    const batch = docs.slice(i, i + 1000);
    if (via === 'collection') {
      await collection.bulkInsert(batch);
    } else {
      const rows = batch.map((doc) => ({
        document: { ...doc, _deleted: false, _attachments: {}, _rev: '1-bench', _meta: { lwt: Date.now() } },
      }));
      await collection.storageInstance.bulkWrite(rows as never, 'bench');
    }
  }
  const ms = performance.now() - start;
  await db.remove();
  return ms;
}
