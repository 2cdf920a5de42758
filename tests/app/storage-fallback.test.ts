// Storage that can fail (data/storage-fallback.ts): a device whose IndexedDB fills up mid-session, and
// one where it cannot be opened at all, keep working in memory against the real server, lose no
// typed text, and say what they could not keep.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { BulkWriteRow, RxStorageInstanceCreationParams } from 'rxdb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { firstValueFrom } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AnyStorage } from '../../app/src/data/api.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { makeTopic } from '../fixtures/builders.js';
import { startClient, until, type TestClient } from '../fixtures/client.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

/** `storage` whose writes fail as a full disk makes them fail, once `disk.full` is set. */
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

/** An IndexedDB that refuses to open anything, as some private windows do. */
class RefusingIndexedDB extends IDBFactory {
  override open(): IDBOpenDBRequest {
    throw new DOMException('A mutation operation was attempted on a database that did not allow mutations.', 'InvalidStateError');
  }
}

describe('storage that can fail', () => {
  let server: TestServer;
  let ada: TestUser;
  let client: TestClient | undefined;
  beforeAll(async () => {
    server = await startTestServer();
    ada = await createTestUser('Ada');
  });
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });
  afterAll(async () => {
    await server.stop();
  });

  it('goes on in memory when the disk fills up: drafts, writes sent once, new pulls, and a note saying what is not kept', async () => {
    const api = apiClient(server.url, ada.token);
    const before = await makeTopic(api, { title: 'Before the disk filled' });
    const disk = { full: false };
    client = await startClient(server.url, { user: ada, storage: (storage) => fillingUp(storage, disk) });
    const data = client.data;
    await until(data.topics$({ sort: 'new' }), (list) => list.some((t) => t.id === before.id));
    expect(await firstValueFrom(data.storageNote$())).toBeNull();

    disk.full = true;
    await data.saveDraft('reply:somewhere', 'Text typed while the disk was full');
    expect((await data.loadDraft('reply:somewhere'))?.text).toBe('Text typed while the disk was full');
    const note = await until(data.storageNote$(), (n) => n?.userData === true);
    expect(note).toMatchObject({ failure: 'full', userData: true });

    const created = await data.createTopic({ title: 'Made on a full disk', category: 'Science' });
    await until(data.topic$(created.id), (t) => !!t && !t.isPending);
    const onServer = await apiClient(server.url).get(`/topics?sort=new`);
    const listed = onServer.body as Array<{ title: string }>;
    expect(listed.filter((t) => t.title === 'Made on a full disk')).toHaveLength(1);

    const after = await makeTopic(api, { title: 'After the disk filled' });
    await until(data.topics$({ sort: 'new' }), (list) => list.some((t) => t.id === after.id) && list.some((t) => t.id === before.id));
    expect(await firstValueFrom(data.storageNote$())).toEqual({ failure: 'full', userData: true, publicData: true });
  });

  it('opens in memory when IndexedDB cannot be opened, and says so', async () => {
    const topic = await makeTopic(apiClient(server.url, ada.token), { title: 'Read in a private window' });
    client = await startClient(server.url, {
      user: ada,
      storage: () => getRxStorageDexie({ indexedDB: new RefusingIndexedDB(), IDBKeyRange }),
    });
    const data = client.data;
    await until(data.topics$({ sort: 'new' }), (list) => list.some((t) => t.id === topic.id));
    await data.saveDraft('topic:new', 'Typed in a private window');
    expect((await data.loadDraft('topic:new'))?.text).toBe('Typed in a private window');
    expect(await firstValueFrom(data.storageNote$())).toEqual({ failure: 'unavailable', publicData: true, userData: true });
  });
});
