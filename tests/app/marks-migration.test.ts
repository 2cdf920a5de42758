// Blocks, follows and reports moved from three collections of the user's database into one, `marks`.
// A device that kept them as collections opens with every one of them where the app reads them
// (the blocked list, the follows, "Download my data"), its unsent changes sent once each (a new block,
// an unfollow made on the server's follow), a confirmed report not sent again, and the old
// collections gone from the database.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { addRxPlugin, createRxDatabase, getAllCollectionDocuments } from 'rxdb';
import { RxDBMigrationSchemaPlugin } from 'rxdb/plugins/migration-schema';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { wrappedValidateZSchemaStorage } from 'rxdb/plugins/validate-z-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockSchema } from '../../app/src/data/collections/block.schema.js';
import { followSchema } from '../../app/src/data/collections/follow.schema.js';
import { reportSchema } from '../../app/src/data/collections/report.schema.js';
import { userDbName } from '../../app/src/data/db.js';
import { reportDocId, SYNC_PROTOCOL_VERSION } from '../../shared/sync-protocol.js';
import type { FollowedTopic } from '../../shared/types.js';
import { apiClient } from '../fixtures/api.js';
import { createTestUser, type TestUser } from '../fixtures/auth.js';
import { countRows, makeTopic } from '../fixtures/builders.js';
import { startClient, until, type TestClient } from '../fixtures/client.js';
import { startTestServer, type TestServer } from '../fixtures/server.js';

addRxPlugin(RxDBMigrationSchemaPlugin);

/** Strategies up to `version` that keep each document as it is (the old database only needs them declared). */
const kept = (version: number) => Object.fromEntries(Array.from({ length: version }, (_, i) => [i + 1, (doc: unknown) => doc]));

describe('blocks, follows and reports moved into marks', () => {
  let server: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let client: TestClient | undefined;
  beforeAll(async () => {
    server = await startTestServer();
    [ada, bob] = await Promise.all([createTestUser('Ada'), createTestUser('Bob')]);
  });
  afterAll(async () => {
    await client?.close();
    await server.stop();
  });

  it('keeps every one, sends each unsent change once, and removes the old collections', async () => {
    const api = apiClient(server.url, ada.token);
    const topic = await makeTopic(apiClient(server.url, bob.token), { title: 'Followed by the previous app' });
    expect((await api.put(`/follows/${topic.id}`)).status).toBe(200);
    const pulled = (await api.get(`/sync/follows/pull?limit=10`, { headers: { 'x-crux-sync': String(SYNC_PROTOCOL_VERSION) } })).body as {
      documents: Record<string, unknown>[];
    };
    const { _deleted: _followDeleted, ...serverFollow } = pulled.documents.find((doc) => doc.topic_id === topic.id)!;
    const at = '2026-01-02T03:04:05.000Z';

    // The previous app's database: a block not sent yet, an unfollow not sent yet (made on the
    // server's follow), a report the server confirmed.
    const indexedDB = new IDBFactory();
    const prefix = `marks${Date.now().toString(36)}`;
    const old = await createRxDatabase({
      name: userDbName(prefix, ada.uid),
      storage: wrappedValidateZSchemaStorage({ storage: getRxStorageDexie({ indexedDB, IDBKeyRange }) }),
      multiInstance: false,
    });
    await old.addCollections({
      blocks: { schema: blockSchema as never, migrationStrategies: kept(blockSchema.version) },
      follows: { schema: followSchema as never, migrationStrategies: kept(followSchema.version) },
      reports: { schema: reportSchema as never, migrationStrategies: kept(reportSchema.version) },
    });
    await old.blocks!.insert({
      id: bob.uid,
      blocked_uid: bob.uid,
      display_name: 'Bob',
      blocked: true,
      updated_at: at,
      seq: 0,
      pending: true,
    });
    await old.follows!.insert({
      ...serverFollow,
      following: false,
      updated_at: at,
      pending: true,
      server_base: { ...serverFollow, _deleted: false },
    });
    const report = {
      id: reportDocId('topic', topic.id),
      target_type: 'topic',
      target_id: topic.id,
      reason: 'spam',
      note: null,
      status: 'open',
      created_at: at,
      updated_at: at,
      seq: 3,
      pending: false,
    };
    await old.reports!.insert(report);
    await old.close();

    client = await startClient(server.url, { user: ada, indexedDB, prefix });
    const device = client;
    await until(device.data.status$, (status) => status.online && status.pending === 0, 20_000);
    expect((await device.data.exportMyData()).blocks).toEqual([
      { uid: bob.uid, display_name: 'Bob', updated_at: expect.any(String), pending: false },
    ]);
    const follows = await until(device.data.follows$(), (list) => list.some((f) => f.topic_id === topic.id && !f.isPending));
    expect(follows.find((f) => f.topic_id === topic.id)).toMatchObject({ following: false });
    const exported = await device.data.exportMyData();
    expect(exported.follows.map((f) => f.topic_id)).not.toContain(topic.id);
    expect(exported.reports).toEqual([
      {
        target_type: 'topic',
        target_id: topic.id,
        reason: 'spam',
        note: null,
        status: 'open',
        created_at: at,
        updated_at: at,
        pending: false,
      },
    ]);

    // Each unsent change reached the server once; the confirmed report was not sent.
    const pushes = (name: string) => device.requests.filter((r) => r.method === 'POST' && r.path.startsWith(`/api/sync/${name}/push`));
    expect(pushes('blocks')).toHaveLength(1);
    expect(pushes('follows')).toHaveLength(1);
    expect(pushes('reports')).toHaveLength(0);
    expect(await countRows(server.db, 'blocks', 'blocker_uid = ? AND blocked = 1', ada.uid)).toBe(1);
    expect((await api.get<FollowedTopic[]>('/follows')).body.map((f) => f.topic_id)).not.toContain(topic.id);

    await device.close();
    client = undefined;
    const db = await createRxDatabase({
      name: userDbName(prefix, ada.uid),
      storage: wrappedValidateZSchemaStorage({ storage: getRxStorageDexie({ indexedDB, IDBKeyRange }) }),
      multiInstance: false,
    });
    try {
      const names = (await getAllCollectionDocuments(db.internalStore)).map((doc) => doc.data.name);
      expect(names).toContain('marks');
      expect(names.filter((name) => ['blocks', 'follows', 'reports'].includes(name))).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
