// The "edited" mark bumped the local `responses` schema v2 → v3 (edited_at). Responses
// stored by the previous app, in its real shape, open in the current one: never edited (null), unless
// the previous app already stored the server's edited_at (its production build keeps a document's
// unknown fields as they came), which is kept.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { addRxPlugin, createRxDatabase } from 'rxdb';
import { RxDBMigrationSchemaPlugin } from 'rxdb/plugins/migration-schema';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { describe, expect, it } from 'vitest';
import { responseSchemaV2 } from '../../app/src/data/collections/response.schema.v2.js';
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
  sources: [{ url: 'https://example.org/a', name: 'A', description: null }],
  creator_uid: 'someone',
  username: 'Old Timer',
  created_at: '2026-01-02T03:04:06.000Z',
  updated_at: '2026-01-02T03:04:06.000Z',
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

describe('edited_at migration of the local store', () => {
  it('responses stored before the edited mark open unedited, or with the time the previous app kept', async () => {
    const indexedDB = new IDBFactory();
    const prefix = `editedmigrate${Date.now().toString(36)}`;
    // As the previous production app stored them: no validator, so a pulled edited_at stayed on the document.
    const old = await createRxDatabase({
      name: `${prefix}-public`,
      storage: getRxStorageDexie({ indexedDB, IDBKeyRange }),
      multiInstance: false,
    });
    await old.addCollections({ responses: { schema: responseSchemaV2 as never, migrationStrategies: { 1: same, 2: same } } });
    await old.responses!.insert(stored('never-edited'));
    await old.responses!.insert(stored('edited-before', { edited_at: '2026-01-03T00:00:00.000Z' }));
    await old.responses!.insert(stored('unsent-edit', { pending: true }));
    await old.responses!.insert(stored('unsent-create', { pending: true, seq: 0 }));
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
        score: 2,
        seq: 8,
        edited_at: null,
      });
      expect((await publicDb.responses.findOne('edited-before').exec())?.toJSON()).toMatchObject({
        content: 'Kept edited-before',
        edited_at: '2026-01-03T00:00:00.000Z',
      });
      // Changes the previous app had not sent (server-base.ts): an edit of a response
      // the server has goes as an edit made on the state stored here; one made here is still a create.
      const unsentEdit = (await publicDb.responses.findOne('unsent-edit').exec())?.toJSON();
      expect(unsentEdit).toMatchObject({ content: 'Kept unsent-edit', pending: true });
      const { pending: _pending, pending_delete: _pendingDelete, ...wire } = stored('unsent-edit');
      // The stored state, marked as one the device could not confirm, so the edit is sent even though it equals it.
      expect(unsentEdit?.server_base).toEqual({ ...wire, edited_at: null, _deleted: false, unconfirmed_base: true });
      expect((await publicDb.responses.findOne('unsent-create').exec())?.toJSON().server_base).toBeUndefined();
      expect((await publicDb.responses.findOne('never-edited').exec())?.toJSON().server_base).toBeUndefined();
    } finally {
      await publicDb.close();
    }
  });
});
