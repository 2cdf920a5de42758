// The storage wrapper of data/storage-fallback.ts on its own, under a real RxDB database over
// fake-indexeddb: a store whose writes start failing for quota moves to memory with what it held and
// the failed write made there; a store that cannot open starts in memory; each says so once.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { createRxDatabase, type BulkWriteRow, type RxStorageInstanceCreationParams } from 'rxdb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { describe, expect, it } from 'vitest';
import type { AnyStorage } from '../../app/src/data/api.js';
import { isQuotaError, keepInMemoryOnFailure, type StorageShortfall } from '../../app/src/data/storage-fallback.js';

const schema = {
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: { id: { type: 'string', maxLength: 40 }, text: { type: 'string' } },
  required: ['id', 'text'],
} as const;

function fillingUp(storage: AnyStorage, disk: { full: boolean }): AnyStorage {
  const wrapped: AnyStorage = Object.create(storage);
  wrapped.createStorageInstance = async <Doc>(params: RxStorageInstanceCreationParams<Doc, unknown>) => {
    const instance = await storage.createStorageInstance(params);
    const write = instance.bulkWrite.bind(instance);
    instance.bulkWrite = (rows: BulkWriteRow<Doc>[], context: string) =>
      disk.full ? Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError')) : write(rows, context);
    return instance;
  };
  return wrapped;
}

class RefusingIndexedDB extends IDBFactory {
  override open(): IDBOpenDBRequest {
    throw new DOMException('IndexedDB is not available here.', 'InvalidStateError');
  }
}

let counter = 0;
async function openNotes(storage: AnyStorage) {
  const db = await createRxDatabase({ name: `fallback${++counter}`, storage, multiInstance: false });
  const { notes } = await db.addCollections({ notes: { schema } });
  return { db, notes: notes };
}

describe('keepInMemoryOnFailure', () => {
  it('moves a store to memory when a write fails for quota: what it held, the failed write, later writes and live queries', async () => {
    const disk = { full: false };
    const shortfalls: StorageShortfall[] = [];
    const dexie = getRxStorageDexie({ indexedDB: new IDBFactory(), IDBKeyRange }) as AnyStorage;
    const { db, notes } = await openNotes(keepInMemoryOnFailure(fillingUp(dexie, disk), getRxStorageMemory(), (s) => shortfalls.push(s)));
    await notes.bulkInsert(Array.from({ length: 600 }, (_, i) => ({ id: `kept-${i}`, text: 'on disk' })));
    const seen: number[] = [];
    const subscription = notes.find().$.subscribe((docs) => seen.push(docs.length));
    expect(shortfalls).toEqual([]);

    disk.full = true;
    await notes.insert({ id: 'typed', text: 'typed on a full disk' });
    await (await notes.findOne('kept-0').exec())!.incrementalPatch({ text: 'changed on a full disk' });
    expect((await notes.findOne('typed').exec())?.text).toBe('typed on a full disk');
    expect((await notes.findOne('kept-0').exec())?.text).toBe('changed on a full disk');
    expect(await notes.count().exec()).toBe(601);
    expect(shortfalls.filter((s) => s.collectionName.includes('notes'))).toEqual([
      expect.objectContaining({ failure: 'full', collectionName: expect.stringContaining('notes') as string }),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen.at(-1)).toBe(601);
    subscription.unsubscribe();
    await db.close();
  });

  it('starts a store in memory when IndexedDB cannot be opened', async () => {
    const shortfalls: StorageShortfall[] = [];
    const refusing = getRxStorageDexie({ indexedDB: new RefusingIndexedDB(), IDBKeyRange }) as AnyStorage;
    const { db, notes } = await openNotes(keepInMemoryOnFailure(refusing, getRxStorageMemory(), (s) => shortfalls.push(s)));
    await notes.insert({ id: 'draft', text: 'typed in a private window' });
    expect((await notes.findOne('draft').exec())?.text).toBe('typed in a private window');
    expect(shortfalls.length).toBeGreaterThan(0);
    expect(shortfalls.every((s) => s.failure === 'unavailable')).toBe(true);
    await db.close();
  });

  it('knows a quota error however it is wrapped', () => {
    const quota = new DOMException('full', 'QuotaExceededError');
    expect(isQuotaError(quota)).toBe(true);
    expect(isQuotaError({ name: 'AbortError', inner: quota })).toBe(true);
    expect(isQuotaError(new Error('wrapped', { cause: quota }))).toBe(true);
    expect(isQuotaError(new DOMException('gone', 'InvalidStateError'))).toBe(false);
  });
});
