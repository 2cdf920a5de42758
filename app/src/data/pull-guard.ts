// Every collection replicates pull-only: RxDB then keeps no replication-meta copy of each pulled
// document, but it also has no record of which local states are unsent changes, and its downstream
// writes the server's state over whatever the device holds. The user's own changes wait in the same
// documents, marked `pending`, until the outbox sends them (outbox.ts). This storage wrapper drops a pull's write of a document whose stored state is such an
// unsent change, in the storage write itself: the row's `previous` is the stored state the write
// replaces (a state written since makes the write fail as a conflict, which RxDB's downstream leaves
// to the local write), so no change made before or during a pull is ever overwritten by it.
// The server's newer state of that item comes again with the item's next change, which the push of
// the user's change makes.
// It also keeps the stored `seen_at` of a topic (working-set.ts) under the pulled state.
// A pull-only replication also still asks its replication-meta store, for every pulled document, for
// the meta copy it never writes: one IndexedDB read per document for nothing. Those reads answer
// "none" without reading; the checkpoints are read as before.
// Last, it counts each collection's storage reads and pulled writes under way, so that the pull handler
// can hand RxDB its next part of a page only once the last part is stored (pull-chunks.ts).
import type { BulkWriteRow, RxStorage, RxStorageBulkWriteResponse, RxStorageInstance, RxStorageInstanceCreationParams } from 'rxdb';
import { writeInSlices } from './write-slices.js';
import { yieldToMain } from './yield.js';

/** RxDB's downstream writes with this context (replication-protocol: `downstreamBulkWriteFlag`). */
export const PULL_WRITE = 'replication-downstream-';
/** RxDB's replication-meta stores (plugins/replication: `metaInstanceCollectionName`). */
const META_STORE = 'rx-replication-meta-';
/** A document's meta copy is keyed `${id}|0` (rxdb's replication protocol, `getAssumedMasterState`), a checkpoint `${direction}|1`. */
const isDocumentMetaKey = (key: string) => key.endsWith('|0');

/** Storage reads by id and pulled writes under way, per `database/collection`; who waits for none. */
const busy = new Map<string, { running: number; waiting: (() => void)[] }>();
const busyKey = (databaseName: string, collectionName: string) => `${databaseName}/${collectionName}`;

function track<T>(key: string, work: () => Promise<T>): Promise<T> {
  const entry = busy.get(key) ?? { running: 0, waiting: [] };
  busy.set(key, entry);
  entry.running += 1;
  const done = () => {
    entry.running -= 1;
    if (entry.running > 0) return;
    const waiting = entry.waiting.splice(0);
    for (const wake of waiting) wake();
  };
  return work().finally(done);
}

/**
 * Resolves once the collection has no storage read by id and no pulled write under way, checked
 * after a macrotask: RxDB stores a pulled batch as a read, a run of microtasks and a write, so a
 * batch it was just given has started by then, and between its read and its write it is never idle
 * at a task boundary.
 */
export async function pulledWritesSettled(databaseName: string, collectionName: string): Promise<void> {
  const key = busyKey(databaseName, collectionName);
  for (;;) {
    await yieldToMain();
    const entry = busy.get(key);
    if (!entry || entry.running === 0) return;
    await new Promise<void>((wake) => entry.waiting.push(wake));
  }
}

const isUnsent = (row: BulkWriteRow<unknown>) => (row.previous as { pending?: unknown } | undefined)?.pending === true;

/**
 * A pulled state keeps when a screen last showed the item (`seen_at`, local only: the server's state
 * carries none), or every pull would make a kept topic the first to leave the device.
 */
function keepSeenAt<Doc>(row: BulkWriteRow<Doc>): BulkWriteRow<Doc> {
  const seen = (row.previous as { seen_at?: unknown } | undefined)?.seen_at;
  const next = (row.document as { seen_at?: unknown }).seen_at;
  if (typeof seen !== 'number' || typeof next !== 'number' || next >= seen) return row;
  return { ...row, document: { ...row.document, seen_at: seen } };
}

/**
 * `storage` whose collections never let a pull overwrite an unsent change, and whose replication-meta
 * stores read no document meta copies (there are none).
 */
export function keepUnsentOnPull<Internals, Options>(storage: RxStorage<Internals, Options>): RxStorage<Internals, Options> {
  const guarded: RxStorage<Internals, Options> = Object.create(storage);
  guarded.createStorageInstance = async <Doc>(params: RxStorageInstanceCreationParams<Doc, Options>) => {
    const instance: RxStorageInstance<Doc, Internals, Options> = await storage.createStorageInstance(params);
    if (params.collectionName.startsWith(META_STORE)) {
      const find = instance.findDocumentsById.bind(instance);
      instance.findDocumentsById = (ids: string[], withDeleted: boolean) => {
        const kept = ids.filter((id) => !isDocumentMetaKey(id));
        return kept.length > 0 ? find(kept, withDeleted) : Promise.resolve([]);
      };
      return instance;
    }
    const key = busyKey(params.databaseName, params.collectionName);
    const findById = instance.findDocumentsById.bind(instance);
    instance.findDocumentsById = (ids: string[], withDeleted: boolean) => track(key, () => findById(ids, withDeleted));
    const write = instance.bulkWrite.bind(instance);
    instance.bulkWrite = (rows: BulkWriteRow<Doc>[], context: string): Promise<RxStorageBulkWriteResponse<Doc>> => {
      if (!context.startsWith(PULL_WRITE)) return write(rows, context);
      const kept = rows.filter((row) => !isUnsent(row)).map(keepSeenAt);
      // A whole pulled page at once would be one long task: written in slices (write-slices.ts).
      return kept.length > 0 ? track(key, () => writeInSlices(write, kept, context)) : Promise.resolve({ error: [] });
    };
    return instance;
  };
  return guarded;
}
