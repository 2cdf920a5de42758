// The edit history and the disagrees by side bumped the local `responses` schema v4 → v5 (`versions`,
// `downvotes_agree`, `downvotes_disagree`). Responses stored by the previous app, in its real shape,
// open in the current one with no earlier versions and no disagrees (the next change on the server
// brings the versions; the server gave each response with disagrees a new change number, so the next
// pull brings the counts), unless the previous app already stored the server's values as they came
// (its production build keeps a document's unknown fields), which are kept.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { addRxPlugin, createRxDatabase } from 'rxdb';
import { RxDBMigrationSchemaPlugin } from 'rxdb/plugins/migration-schema';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { beforeAll, describe, expect, it } from 'vitest';
import { responseSchemaV4 } from '../../app/src/data/collections/response.schema.v4.js';
import { openPublicDb, type PublicDb } from '../../app/src/data/db.js';
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

/** `docs` as the previous app stored them (schema v4). */
async function storeV4(name: string, docs: Record<string, unknown>[]) {
  const indexedDB = new IDBFactory();
  const prefix = `${name}${Date.now().toString(36)}`;
  const old = await createRxDatabase({
    name: `${prefix}-public`,
    storage: getRxStorageDexie({ indexedDB, IDBKeyRange }),
    multiInstance: false,
  });
  await old.addCollections({
    responses: { schema: responseSchemaV4 as never, migrationStrategies: { 1: same, 2: same, 3: same, 4: same } },
  });
  for (const doc of docs) await old.responses!.insert(doc);
  await old.close();
  return { indexedDB, prefix };
}

/** The current app's database opened over what storeV4 kept, for `check`. */
async function openCurrent({ indexedDB, prefix }: Awaited<ReturnType<typeof storeV4>>, check: (db: PublicDb) => Promise<void>) {
  const publicDb = await openPublicDb({
    storage: getRxStorageDexie({ indexedDB, IDBKeyRange }),
    prefix,
    devMode: true,
    multiInstance: false,
    duplicateInstances: 'close',
  });
  try {
    await check(publicDb);
  } finally {
    await publicDb.close();
  }
}

const keptVersions = [{ version: 1, content: 'Said first', created_at: '2026-01-02T03:04:06.000Z' }];
const counts = { score: 4, comment_count: 0, delta_count: 0, upvotes_agree: 2, upvotes_disagree: 2 };
let beforeVersions: Awaited<ReturnType<typeof storeV4>>;
let beforeDisagrees: Awaited<ReturnType<typeof storeV4>>;

// Both old stores are made first: once the current app has opened with dev-mode on, RxDB refuses a
// storage without its schema validator, which the old app's stores are opened with here.
beforeAll(async () => {
  beforeVersions = await storeV4('versionsmigrate', [
    stored('never-edited'),
    stored('edited', { edited_at: '2026-01-03T00:00:00.000Z', versions: keptVersions }),
    stored('unsent-edit', { pending: true, content: 'Changed here' }),
  ]);
  beforeDisagrees = await storeV4('disagreesmigrate', [
    stored('no-counts', counts),
    stored('kept-counts', { ...counts, downvotes_agree: 0, downvotes_disagree: 2 }),
  ]);
});

describe('v5 migration of the local responses', () => {
  it('responses stored before the edit history open with none, or with the versions the previous app kept', async () => {
    await openCurrent(beforeVersions, async (publicDb) => {
      expect((await publicDb.responses.findOne('never-edited').exec())?.toJSON()).toMatchObject({
        content: 'Kept never-edited',
        seq: 8,
        versions: [],
      });
      expect((await publicDb.responses.findOne('edited').exec())?.toJSON()).toMatchObject({
        edited_at: '2026-01-03T00:00:00.000Z',
        versions: keptVersions,
      });
      // An unsent edit stays unsent, its text as the user left it.
      expect((await publicDb.responses.findOne('unsent-edit').exec())?.toJSON()).toMatchObject({
        content: 'Changed here',
        pending: true,
        versions: [],
      });
    });
  });

  it('responses stored before the disagrees by side open with none, or with the counts the previous app kept', async () => {
    await openCurrent(beforeDisagrees, async (publicDb) => {
      const plain = (await publicDb.responses.findOne('no-counts').exec())!.toJSON();
      expect(plain).toMatchObject({ content: 'Kept no-counts', upvotes_agree: 2, seq: 8, downvotes_agree: 0, downvotes_disagree: 0 });
      const kept = (await publicDb.responses.findOne('kept-counts').exec())!.toJSON();
      expect(kept).toMatchObject({ downvotes_agree: 0, downvotes_disagree: 2 });
      // 2 of 2 on each side upvoted both; the disagree side also disagreed with the second: no common ground.
      const participants = { agree: 2, disagree: 2 };
      expect(hasCommonGround(plain, participants)).toBe(true);
      expect(hasCommonGround(kept, participants)).toBe(false);
    });
  });
});
