// Push settings bumped the local profile schema v2 → v3: a profile stored by the
// previous app, in its real shape, opens in the current one with the server's defaults
// (everything pushed, no quiet hours), keeping everything else.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { addRxPlugin, createRxDatabase } from 'rxdb';
import { RxDBMigrationSchemaPlugin } from 'rxdb/plugins/migration-schema';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { wrappedValidateZSchemaStorage } from 'rxdb/plugins/validate-z-schema';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PUSH_SETTINGS } from '../../shared/push.js';
import { profileSchemaV2 } from '../../app/src/data/collections/profile.schema.v2.js';
import { profileSchemaV3 } from '../../app/src/data/collections/profile.schema.v3.js';
import { openUserDb, userDbName, type DbOptions } from '../../app/src/data/db.js';

const same = (doc: unknown) => doc;
addRxPlugin(RxDBMigrationSchemaPlugin);

describe('push settings migration of the local profile', () => {
  it('a profile stored before push settings opens with the defaults and keeps the rest', async () => {
    const indexedDB = new IDBFactory();
    const prefix = `pushmigrate${Date.now().toString(36)}`;
    const storage = wrappedValidateZSchemaStorage({ storage: getRxStorageDexie({ indexedDB, IDBKeyRange }) });
    const old = await createRxDatabase({ name: userDbName(prefix, 'old-uid'), storage, multiInstance: false });
    await old.addCollections({ profile: { schema: profileSchemaV2 as never, migrationStrategies: { 1: same, 2: same } } });
    const stored = {
      id: 'old-uid',
      display_name: 'Old Timer',
      receive_weekly_summary: false,
      points: 12,
      persuasion_points: 5,
      role: 'moderator',
      suspended_until: null,
      suspension_reason: null,
      seq: 3,
      pending: false,
    };
    await old.profile!.insert(stored);
    await old.close();

    const options: DbOptions = {
      storage: getRxStorageDexie({ indexedDB, IDBKeyRange }),
      prefix,
      devMode: true,
      multiInstance: false,
      duplicateInstances: 'close',
    };
    const user = await openUserDb(options, 'old-uid');
    try {
      const profile = (await user.profile.findOne('old-uid').exec())?.toJSON();
      expect(profile).toMatchObject({ ...stored, push_settings: DEFAULT_PUSH_SETTINGS });
      // The new field takes the user's changes like any other.
      await user.profile
        .findOne('old-uid')
        .exec()
        .then((doc) => doc!.incrementalPatch({ push_settings: { ...DEFAULT_PUSH_SETTINGS, replies: false } }));
      expect((await user.profile.findOne('old-uid').exec())?.push_settings.replies).toBe(false);
    } finally {
      await user.close();
    }
  });

  it('a profile stored with the first push settings keeps them and gains the mention and follow kinds, on', async () => {
    const indexedDB = new IDBFactory();
    const prefix = `pushmigrate4${Date.now().toString(36)}`;
    const storage = wrappedValidateZSchemaStorage({ storage: getRxStorageDexie({ indexedDB, IDBKeyRange }) });
    const old = await createRxDatabase({ name: userDbName(prefix, 'v3-uid'), storage, multiInstance: false });
    await old.addCollections({ profile: { schema: profileSchemaV3 as never, migrationStrategies: { 1: same, 2: same, 3: same } } });
    const quiet = { start: '22:00', end: '07:00', time_zone: 'Europe/Paris' };
    await old.profile!.insert({
      id: 'v3-uid',
      display_name: 'Quiet Nights',
      receive_weekly_summary: true,
      push_settings: { replies: false, moderation: true, quiet_hours: quiet },
      points: 1,
      persuasion_points: 0,
      role: 'member',
      suspended_until: null,
      suspension_reason: null,
      seq: 9,
      pending: false,
    });
    await old.close();

    const user = await openUserDb(
      { storage: getRxStorageDexie({ indexedDB, IDBKeyRange }), prefix, devMode: true, multiInstance: false, duplicateInstances: 'close' },
      'v3-uid',
    );
    try {
      const profile = (await user.profile.findOne('v3-uid').exec())?.toJSON();
      expect(profile?.push_settings).toEqual({
        replies: false,
        moderation: true,
        mentions: true,
        follows: true,
        follow_on_reply: true,
        quiet_hours: quiet,
      });
      expect(profile?.display_name).toBe('Quiet Nights');
    } finally {
      await user.close();
    }
  });
});
