// A client whose local schema is one version older migrates its data on open.
import { IDBKeyRange } from 'fake-indexeddb';
import { IDBFactory } from 'fake-indexeddb';
import { createRxDatabase } from 'rxdb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { wrappedValidateZSchemaStorage } from 'rxdb/plugins/validate-z-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topicSchemaV0 } from '../../app/src/data/collections/topic.schema.v0.js';
import { startClient, until, type TestClient } from '../fixtures/client.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

describe('local schema migration', () => {
  let server: TestServer;
  let client: TestClient;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await client?.close();
    await server.stop();
  });

  it('turns version-0 topics (a categories list) into version 1 (one category, local flags)', async () => {
    const indexedDB = new IDBFactory();
    const prefix = `migrate${Date.now().toString(36)}`;
    const old = await createRxDatabase({
      name: `${prefix}-public`,
      storage: wrappedValidateZSchemaStorage({ storage: getRxStorageDexie({ indexedDB, IDBKeyRange }) }),
      multiInstance: false,
    });
    await old.addCollections({ topics: { schema: topicSchemaV0 as never } });
    await old.topics!.insert({
      id: 'kept-from-v0',
      title: 'Saved by an older app',
      categories: ['Health'],
      creator_uid: 'someone',
      username: 'Old Timer',
      created_at: '2020-01-02T03:04:05.000Z',
      score: 3,
      responses_count: 4,
      seq: 7,
    });
    await old.close();

    client = await startClient(server.url, { indexedDB, prefix });
    const topic = await until(client.data.topic$('kept-from-v0'), (t) => !!t);
    expect(topic).toMatchObject({
      title: 'Saved by an older app',
      categories: ['Health'],
      username: 'Old Timer',
      score: 3,
      responses_count: 4,
      isPending: false,
    });
    // Online a list is the server's pages; the device's own copy is what a list reads offline.
    client.goOffline();
    expect((await until(client.data.topics$({ category: 'Health' }), (list) => list.length === 1))[0]!.id).toBe('kept-from-v0');
  });
});
