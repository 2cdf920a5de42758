// The disagrees by side bumped the local `responses` schema v4 → v5 (downvotes_agree,
// downvotes_disagree). Responses stored by the previous app, in its real shape, open in the current one
// with no disagrees (the server gives each response that has some a new change number, so the next
// pull brings them), unless the previous app already stored the server's counts (its production build
// keeps a document's unknown fields as they came), which are kept; the rules read them at once.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { addRxPlugin, createRxDatabase } from 'rxdb';
import { RxDBMigrationSchemaPlugin } from 'rxdb/plugins/migration-schema';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { describe, expect, it } from 'vitest';
import { responseSchemaV4 } from '../../app/src/data/collections/response.schema.v4.js';
import { openPublicDb } from '../../app/src/data/db.js';
import { hasCommonGround } from '../../shared/rules/common-ground.js';

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
  score: 4,
  comment_count: 0,
  delta_count: 0,
  upvotes_agree: 2,
  upvotes_disagree: 2,
  moderation: null,
  moderation_reason: null,
  seq: 8,
  pending: false,
  pending_delete: false,
  ...extra,
});

describe('disagrees-by-side migration of the local store', () => {
  it('responses stored before the disagrees by side open with none, or with the counts the previous app kept', async () => {
    const indexedDB = new IDBFactory();
    const prefix = `disagreesmigrate${Date.now().toString(36)}`;
    const old = await createRxDatabase({
      name: `${prefix}-public`,
      storage: getRxStorageDexie({ indexedDB, IDBKeyRange }),
      multiInstance: false,
    });
    await old.addCollections({
      responses: { schema: responseSchemaV4 as never, migrationStrategies: { 1: same, 2: same, 3: same, 4: same } },
    });
    await old.responses!.insert(stored('no-counts'));
    await old.responses!.insert(stored('kept-counts', { downvotes_agree: 0, downvotes_disagree: 2 }));
    await old.close();

    const publicDb = await openPublicDb({
      storage: getRxStorageDexie({ indexedDB, IDBKeyRange }),
      prefix,
      devMode: true,
      multiInstance: false,
      duplicateInstances: 'close',
    });
    try {
      const plain = (await publicDb.responses.findOne('no-counts').exec())!.toJSON();
      expect(plain).toMatchObject({ content: 'Kept no-counts', upvotes_agree: 2, seq: 8, downvotes_agree: 0, downvotes_disagree: 0 });
      const kept = (await publicDb.responses.findOne('kept-counts').exec())!.toJSON();
      expect(kept).toMatchObject({ downvotes_agree: 0, downvotes_disagree: 2 });
      // 2 of 2 on each side upvoted both; the disagree side also disagreed with the second: no common ground.
      const participants = { agree: 2, disagree: 2 };
      expect(hasCommonGround(plain, participants)).toBe(true);
      expect(hasCommonGround(kept, participants)).toBe(false);
    } finally {
      await publicDb.close();
    }
  });
});
