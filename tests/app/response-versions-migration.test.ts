// The edit history bumped the local `responses` schema v4 → v5 (versions). Responses stored by
// the previous app, in its real shape, open in the current one with no earlier versions (the next
// change on the server brings them), unless the previous app already stored the server's
// versions as they came (its production build keeps a document's unknown fields), which are kept.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { addRxPlugin, createRxDatabase } from 'rxdb';
import { RxDBMigrationSchemaPlugin } from 'rxdb/plugins/migration-schema';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { describe, expect, it } from 'vitest';
import { responseSchemaV4 } from '../../app/src/data/collections/response.schema.v4.js';
import { openPublicDb } from '../../app/src/data/db.js';

const same = (doc: unknown) => doc;
addRxPlugin(RxDBMigrationSchemaPlugin);

const stored = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  topic_id: 'topic-1',
  parent_response_id: null,
  quoted_response_id: null,
  type: 'for',
  content: `Kept ${id}`,
  sources: [],
  creator_uid: 'someone',
  username: 'Old Timer',
  created_at: '2026-01-02T03:04:06.000Z',
  updated_at: '2026-01-02T03:04:06.000Z',
  edited_at: null,
  score: 2,
  comment_count: 1,
  delta_count: 1,
  upvotes_agree: 1,
  upvotes_disagree: 0,
  moderation: null,
  moderation_reason: null,
  seq: 8,
  pending: false,
  pending_delete: false,
  ...extra,
});

describe('versions migration of the local store', () => {
  it('responses stored before the edit history open with none, or with the versions the previous app kept', async () => {
    const indexedDB = new IDBFactory();
    const prefix = `versionsmigrate${Date.now().toString(36)}`;
    const old = await createRxDatabase({
      name: `${prefix}-public`,
      storage: getRxStorageDexie({ indexedDB, IDBKeyRange }),
      multiInstance: false,
    });
    await old.addCollections({
      responses: { schema: responseSchemaV4 as never, migrationStrategies: { 1: same, 2: same, 3: same, 4: same } },
    });
    const kept = [{ version: 1, content: 'Said first', created_at: '2026-01-02T03:04:06.000Z' }];
    await old.responses!.insert(stored('never-edited'));
    await old.responses!.insert(stored('edited', { edited_at: '2026-01-03T00:00:00.000Z', versions: kept }));
    await old.responses!.insert(stored('unsent-edit', { pending: true, content: 'Changed here' }));
    await old.close();

    const publicDb = await openPublicDb({
      storage: getRxStorageDexie({ indexedDB, IDBKeyRange }),
      prefix,
      devMode: true,
      multiInstance: false,
      duplicateInstances: 'close',
    });
    try {
      expect((await publicDb.responses.findOne('never-edited').exec())?.toJSON()).toMatchObject({
        content: 'Kept never-edited',
        seq: 8,
        versions: [],
      });
      expect((await publicDb.responses.findOne('edited').exec())?.toJSON()).toMatchObject({
        edited_at: '2026-01-03T00:00:00.000Z',
        versions: kept,
      });
      // An unsent edit stays unsent, its text as the user left it.
      expect((await publicDb.responses.findOne('unsent-edit').exec())?.toJSON()).toMatchObject({
        content: 'Changed here',
        pending: true,
        versions: [],
      });
    } finally {
      await publicDb.close();
    }
  });
});
