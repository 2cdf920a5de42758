// Opens the two local databases (DESIGN.md §5): a public one for topics and
// responses, and one per signed-in uid for the user's own data, so a shared
// device never shows one user's data to the next. Factories, no singletons.
import { addRxPlugin, createRxDatabase, type RxCollection, type RxDatabase, type RxStorage } from 'rxdb';
import { RxDBCleanupPlugin } from 'rxdb/plugins/cleanup';
import { RxDBLeaderElectionPlugin } from 'rxdb/plugins/leader-election';
import { RxDBLocalDocumentsPlugin } from 'rxdb/plugins/local-documents';
import { RxDBMigrationSchemaPlugin } from 'rxdb/plugins/migration-schema';
import { draftMigrations, draftSchema, type DraftDocType } from './collections/draft.schema.js';
import { notificationMigrations, notificationSchema, type NotificationDocType } from './collections/notification.schema.js';
import { profileMigrations, profileSchema, type ProfileDocType } from './collections/profile.schema.js';
import { responseMigrations, responseSchema, type ResponseDocType } from './collections/response.schema.js';
import { syncProblemMigrations, syncProblemSchema, type SyncProblemDocType } from './collections/sync-problem.schema.js';
import { topicMigrations, topicSchema, type TopicDocType } from './collections/topic.schema.js';
import { voteMigrations, voteSchema, type VoteDocType } from './collections/vote.schema.js';

export type PublicCollections = {
  topics: RxCollection<TopicDocType>;
  responses: RxCollection<ResponseDocType>;
};
export type UserCollections = {
  votes: RxCollection<VoteDocType>;
  notifications: RxCollection<NotificationDocType>;
  profile: RxCollection<ProfileDocType>;
  drafts: RxCollection<DraftDocType>;
  sync_problems: RxCollection<SyncProblemDocType>;
};
export type PublicDb = RxDatabase<PublicCollections>;
export type UserDb = RxDatabase<UserCollections>;

let pluginsAdded = false;
async function addPlugins(devMode: boolean) {
  if (pluginsAdded) return;
  pluginsAdded = true;
  addRxPlugin(RxDBCleanupPlugin);
  addRxPlugin(RxDBLeaderElectionPlugin);
  addRxPlugin(RxDBLocalDocumentsPlugin);
  addRxPlugin(RxDBMigrationSchemaPlugin);
  // Dev-mode adds checks (schema, misuse), not data validation; kept out of the
  // production bundle by the dynamic import (SYNC-NOTES: 30–50 KB gzip).
  if (devMode) {
    const { RxDBDevModePlugin, disableWarnings } = await import('rxdb/plugins/dev-mode');
    disableWarnings();
    addRxPlugin(RxDBDevModePlugin);
  }
}

export interface DbOptions {
  storage: RxStorage<any, any>;
  prefix: string;
  devMode: boolean;
  multiInstance: boolean;
  duplicateInstances: 'close' | 'allow';
}

/**
 * In development and tests every write is checked against the schema (dev-mode
 * requires a validator). z-schema, not ajv: ajv uses eval, which a strict CSP blocks.
 */
async function storageFor(options: DbOptions): Promise<RxStorage<any, any>> {
  if (!options.devMode) return options.storage;
  const { wrappedValidateZSchemaStorage } = await import('rxdb/plugins/validate-z-schema');
  return wrappedValidateZSchemaStorage({ storage: options.storage });
}

// RxDB only lets dev-mode open one database name twice in a realm.
const duplicates = (options: DbOptions) =>
  options.duplicateInstances === 'allow' && options.devMode ? { ignoreDuplicate: true } : { closeDuplicates: true };

export async function openPublicDb(options: DbOptions): Promise<PublicDb> {
  await addPlugins(options.devMode);
  const db = await createRxDatabase<PublicCollections>({
    name: `${options.prefix}-public`,
    storage: await storageFor(options),
    multiInstance: options.multiInstance,
    // Local documents hold the followed-topics list (no extra collection: RxDB caps them at 13).
    localDocuments: true,
    // Tombstones here are never unsent user deletes (those are `pending_delete` until the
    // server confirms), so they can be purged without waiting for the replication to be in
    // sync, which never happens offline.
    cleanupPolicy: { minimumDeletedTime: 60 * 60 * 1000, awaitReplicationsInSync: false, waitForLeadership: true },
    ...duplicates(options),
  });
  await db.addCollections({
    topics: { schema: topicSchema, migrationStrategies: topicMigrations },
    responses: { schema: responseSchema, migrationStrategies: responseMigrations },
  });
  return db;
}

/** Database names allow [a-z0-9_$()+/-]; a uid is letters and digits, lower-cased plus a hash of the original case. */
export function userDbName(prefix: string, uid: string): string {
  let hash = 0;
  for (const char of uid) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return `${prefix}-user-${uid.toLowerCase().replace(/[^a-z0-9]/g, '_')}-${hash.toString(36)}`;
}

export async function openUserDb(options: DbOptions, uid: string): Promise<UserDb> {
  await addPlugins(options.devMode);
  const db = await createRxDatabase<UserCollections>({
    name: userDbName(options.prefix, uid),
    storage: await storageFor(options),
    multiInstance: options.multiInstance,
    ...duplicates(options),
  });
  await db.addCollections({
    votes: { schema: voteSchema, migrationStrategies: voteMigrations },
    notifications: { schema: notificationSchema, migrationStrategies: notificationMigrations },
    profile: { schema: profileSchema, migrationStrategies: profileMigrations },
    drafts: { schema: draftSchema, migrationStrategies: draftMigrations },
    sync_problems: { schema: syncProblemSchema, migrationStrategies: syncProblemMigrations },
  });
  return db;
}
