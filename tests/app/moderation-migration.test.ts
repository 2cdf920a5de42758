// Moderation bumped four local schemas: topics v2 → v3 (locked, moderation), responses
// v1 → v2 (moderation), profile v1 → v2 (role, suspension) and notifications v1 → v2 (the moderation
// notices join the types). Documents stored by the previous app, in its real shapes, open in the
// current ones with the defaults: not locked, not moderated, a member, not suspended.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { addRxPlugin, createRxDatabase } from 'rxdb';
import { RxDBMigrationSchemaPlugin } from 'rxdb/plugins/migration-schema';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { wrappedValidateZSchemaStorage } from 'rxdb/plugins/validate-z-schema';
import { describe, expect, it } from 'vitest';
import { notificationSchemaV1 } from '../../app/src/data/collections/notification.schema.v1.js';
import { profileSchemaV1 } from '../../app/src/data/collections/profile.schema.v1.js';
import { responseSchemaV1 } from '../../app/src/data/collections/response.schema.v1.js';
import { topicSchemaV2 } from '../../app/src/data/collections/topic.schema.v2.js';
import { openPublicDb, openUserDb, userDbName, type DbOptions } from '../../app/src/data/db.js';

const same = (doc: unknown) => doc;
// The previous app opened its databases with the migration plugin (its own earlier steps).
addRxPlugin(RxDBMigrationSchemaPlugin);

describe('moderation migration of the local store', () => {
  it('topics, responses, profile and notifications stored before moderation open with its defaults', async () => {
    const indexedDB = new IDBFactory();
    const prefix = `modmigrate${Date.now().toString(36)}`;
    const storage = () => wrappedValidateZSchemaStorage({ storage: getRxStorageDexie({ indexedDB, IDBKeyRange }) });

    // The public database as the previous app left it (its own earlier steps included).
    const oldPublic = await createRxDatabase({ name: `${prefix}-public`, storage: storage(), multiInstance: false });
    await oldPublic.addCollections({
      topics: { schema: topicSchemaV2 as never, migrationStrategies: { 1: same, 2: same } },
      responses: { schema: responseSchemaV1 as never, migrationStrategies: { 1: same } },
    });
    await oldPublic.topics!.insert({
      id: 'topic-from-v2',
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
      seq: 7,
      pending: false,
      pending_delete: false,
    });
    await oldPublic.responses!.insert({
      id: 'response-from-v1',
      topic_id: 'topic-from-v2',
      parent_response_id: null,
      quoted_response_id: null,
      type: 'for',
      content: 'An old argument',
      sources: [{ url: 'https://example.org/a', name: 'A', description: null }],
      creator_uid: 'someone',
      username: 'Old Timer',
      created_at: '2020-01-02T03:04:06.000Z',
      updated_at: '2020-01-02T03:04:06.000Z',
      score: 2,
      comment_count: 0,
      delta_count: 1,
      upvotes_agree: 1,
      upvotes_disagree: 0,
      seq: 8,
      pending: false,
      pending_delete: false,
    });
    await oldPublic.close();

    const oldUser = await createRxDatabase({ name: userDbName(prefix, 'old-uid'), storage: storage(), multiInstance: false });
    await oldUser.addCollections({
      profile: { schema: profileSchemaV1 as never, migrationStrategies: { 1: same } },
      notifications: { schema: notificationSchemaV1 as never, migrationStrategies: { 1: same } },
    });
    await oldUser.profile!.insert({
      id: 'old-uid',
      display_name: 'Old Timer',
      receive_weekly_summary: false,
      points: 12,
      persuasion_points: 5,
      seq: 3,
      pending: false,
    });
    await oldUser.notifications!.insert({
      id: 'notification-from-v1',
      type: 'reply_to_topic',
      actor_display_name: 'Bob',
      target_summary: 'A reply',
      target_id: 'topic-from-v2',
      response_id: 'response-from-v1',
      response_deleted: false,
      created_at: '2020-01-02T03:04:07.000Z',
      is_read: false,
      seq: 4,
      pending: false,
    });
    await oldUser.close();

    // Both databases as the data layer opens them now.
    const options: DbOptions = {
      storage: getRxStorageDexie({ indexedDB, IDBKeyRange }),
      prefix,
      devMode: true,
      multiInstance: false,
      duplicateInstances: 'close',
    };
    const publicDb = await openPublicDb(options);
    try {
      expect((await publicDb.topics.findOne('topic-from-v2').exec())?.toJSON()).toMatchObject({
        title: 'Kept by the previous app',
        score: 3,
        stance_disagree: 2,
        minds_changed: 1,
        seq: 7,
        locked: false,
        moderation: null,
        moderation_reason: null,
      });
      expect((await publicDb.responses.findOne('response-from-v1').exec())?.toJSON()).toMatchObject({
        content: 'An old argument',
        sources: [{ url: 'https://example.org/a', name: 'A', description: null }],
        delta_count: 1,
        seq: 8,
        moderation: null,
        moderation_reason: null,
      });
    } finally {
      await publicDb.close();
    }

    const user = await openUserDb(options, 'old-uid');
    try {
      expect((await user.profile.findOne('old-uid').exec())?.toJSON()).toMatchObject({
        display_name: 'Old Timer',
        points: 12,
        persuasion_points: 5,
        receive_weekly_summary: false,
        role: 'member',
        suspended_until: null,
        suspension_reason: null,
      });
      expect((await user.notifications.findOne('notification-from-v1').exec())?.toJSON()).toMatchObject({
        type: 'reply_to_topic',
        target_summary: 'A reply',
        response_id: 'response-from-v1',
        is_read: false,
        seq: 4,
      });
      // The new collection opens empty beside them.
      expect(await user.marks.find({ selector: { kind: 'reports' } }).exec()).toEqual([]);
    } finally {
      await user.close();
    }
  });
});
