// Opinion groups bumped the local topics schema v3 → v4 (opinion_groups). A topic stored
// by the previous app, in its real shape, opens in the current one with no summary (null) and keeps
// everything else; the summary comes with the topic's next change from the server.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { addRxPlugin, createRxDatabase } from 'rxdb';
import { RxDBMigrationSchemaPlugin } from 'rxdb/plugins/migration-schema';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { wrappedValidateZSchemaStorage } from 'rxdb/plugins/validate-z-schema';
import { describe, expect, it } from 'vitest';
import { topicSchemaV3 } from '../../app/src/data/collections/topic.schema.v3.js';
import { openPublicDb } from '../../app/src/data/db.js';

const same = (doc: unknown) => doc;
addRxPlugin(RxDBMigrationSchemaPlugin);

describe('opinion groups migration of the local store', () => {
  it('a topic stored before opinion groups opens with none', async () => {
    const indexedDB = new IDBFactory();
    const prefix = `groupsmigrate${Date.now().toString(36)}`;
    const old = await createRxDatabase({
      name: `${prefix}-public`,
      storage: wrappedValidateZSchemaStorage({ storage: getRxStorageDexie({ indexedDB, IDBKeyRange }) }),
      multiInstance: false,
    });
    await old.addCollections({ topics: { schema: topicSchemaV3 as never, migrationStrategies: { 1: same, 2: same, 3: same } } });
    const stored = {
      id: 'topic-from-v3',
      title: 'Kept by the previous app',
      category: 'Science',
      creator_uid: 'someone',
      username: 'Old Timer',
      created_at: '2020-01-02T03:04:05.000Z',
      score: 3,
      responses_count: 1,
      stance_agree: 1,
      stance_disagree: 2,
      stance_unsure: 0,
      minds_changed: 1,
      locked: true,
      moderation: null,
      moderation_reason: null,
      seq: 7,
      pending: false,
      pending_delete: false,
    };
    await old.topics!.insert(stored);
    await old.close();

    const db = await openPublicDb({
      storage: getRxStorageDexie({ indexedDB, IDBKeyRange }),
      prefix,
      devMode: true,
      multiInstance: false,
      duplicateInstances: 'close',
    });
    try {
      const { _meta, _rev, _attachments, _deleted, ...migrated } = (await db.topics.findOne('topic-from-v3').exec())!.toJSON(
        true,
      ) as Record<string, unknown>;
      void [_meta, _rev, _attachments, _deleted];
      // seen_at (v6): a topic kept from before the working set counts as never seen, first to leave.
      expect(migrated).toEqual({ ...stored, opinion_groups: null, seen_at: 0 });
    } finally {
      await db.close();
    }
  });
});
