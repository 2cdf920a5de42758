// Opens the two local databases (docs/SYNC.md "What is kept on the device"): a public one for topics and
// responses, and one per signed-in uid for the user's own data, so a shared
// device never shows one user's data to the next. Factories, no singletons.
import { addRxPlugin, createRxDatabase, type RxCollectionCreator } from 'rxdb';
import { RxDBCleanupPlugin } from 'rxdb/plugins/cleanup';
import { RxDBLeaderElectionPlugin } from 'rxdb/plugins/leader-election';
import { RxDBLocalDocumentsPlugin } from 'rxdb/plugins/local-documents';
import { RxDBMigrationSchemaPlugin } from 'rxdb/plugins/migration-schema';
import { RxStorageDexie } from 'rxdb/plugins/storage-dexie';
import type { AnyStorage } from './api.js';
import {
  COLLECTIONS,
  type Database,
  type PublicCollections,
  type PublicDb,
  type UserCollections,
  type UserDb,
} from './collections/index.js';
import { moveIntoMarks, moveRetiredCollections } from './collections/retired.js';
import { keepUnsentOnPull } from './pull-guard.js';
import { yieldToMain } from './yield.js';

export type { PublicCollections, PublicDb, UserCollections, UserDb } from './collections/index.js';

/**
 * Whether this build can load RxDB's dev-mode and schema validator. A production build
 * replaces import.meta.env.PROD with true, so the bundler drops both dynamic imports and
 * never emits (or precaches) their chunks; vitest (PROD false) and plain Node/tsx (no
 * import.meta.env) keep them, and there `devMode` decides.
 */
const devChecksBuilt = !(import.meta.env as ImportMetaEnv | undefined)?.PROD;

let pluginsAdded = false;
async function addPlugins(devMode: boolean) {
  if (pluginsAdded) return;
  pluginsAdded = true;
  await warmCollator();
  addRxPlugin(RxDBCleanupPlugin);
  addRxPlugin(RxDBLeaderElectionPlugin);
  addRxPlugin(RxDBLocalDocumentsPlugin);
  addRxPlugin(RxDBMigrationSchemaPlugin);
  // Dev-mode adds checks (schema, misuse), not data validation; kept out of the
  // production bundle (SYNC-NOTES: 30–50 KB gzip): see devChecksBuilt.
  if (devChecksBuilt && devMode) {
    const { RxDBDevModePlugin, disableWarnings } = await import('rxdb/plugins/dev-mode');
    disableWarnings();
    addRxPlugin(RxDBDevModePlugin);
  }
}

/**
 * Any RxDB storage: its two type parameters are the storage's own internals
 * (instance and creation options), which nothing here reads.
 */
export type { AnyStorage };

/** The collections of one database, as the registry describes them. */
function creatorsIn(database: Database): Record<string, RxCollectionCreator> {
  const creators: Record<string, RxCollectionCreator> = {};
  for (const [name, { database: where, schema, migrationStrategies }] of Object.entries(COLLECTIONS)) {
    if (where === database) creators[name] = { schema, migrationStrategies };
  }
  return creators;
}

/**
 * RxDB sorts every schema's keys with localeCompare, and the page's first localeCompare builds
 * ICU's collator: 35 ms on a phone-class CPU, which made the first collection's task long. Built
 * here in a task of its own (later calls reuse it).
 */
async function warmCollator() {
  await yieldToMain();
  'a'.localeCompare('b');
  await yieldToMain();
}

/**
 * Adds the collections one at a time, giving the main thread back before each: creating one
 * (its Dexie tables, schema hash, migration check) is a task of its own, not one long task for all.
 */
async function addCollectionsInTurn(db: PublicDb | UserDb, database: Database) {
  for (const [name, creator] of Object.entries(creatorsIn(database))) {
    await yieldToMain();
    await db.addCollections({ [name]: creator });
  }
}

export interface DbOptions {
  storage: AnyStorage;
  prefix: string;
  devMode: boolean;
  multiInstance: boolean;
  duplicateInstances: 'close' | 'allow';
}

/**
 * In development and tests every write is checked against the schema (dev-mode
 * requires a validator). z-schema, not ajv: ajv uses eval, which a strict CSP blocks.
 */
async function storageFor(options: DbOptions): Promise<AnyStorage> {
  if (!devChecksBuilt || !options.devMode) return options.storage;
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
    // Every replication only pulls: a pull never overwrites an unsent change (pull-guard.ts).
    storage: keepUnsentOnPull(await storageFor(options)),
    multiInstance: options.multiInstance,
    // Local documents hold the followed-topics list (no extra collection: RxDB caps them at 13).
    localDocuments: true,
    // Tombstones here are never unsent user deletes (those are `pending_delete` until the
    // server confirms), so they can be purged without waiting for the replication to be in
    // sync, which never happens offline.
    cleanupPolicy: { minimumDeletedTime: 60 * 60 * 1000, awaitReplicationsInSync: false, waitForLeadership: true },
    ...duplicates(options),
  });
  await addCollectionsInTurn(db, 'public');
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
    storage: keepUnsentOnPull(await storageFor(options)),
    multiInstance: options.multiInstance,
    // Local documents hold the drafts and the sync problems (drafts.ts, problems.ts): they never
    // leave the device, and RxDB's open-source build opens at most 13 collections on a page.
    localDocuments: true,
    ...duplicates(options),
  });
  // Before the collections are added: a device that kept them as collections holds one more of each meanwhile.
  await moveRetiredCollections(db);
  await addCollectionsInTurn(db, 'user');
  // After: the old blocks, follows and reports move into `marks`, one at a time.
  await moveIntoMarks(db);
  return db;
}

const isIdbFactory = (value: unknown): value is IDBFactory => typeof (value as Partial<IDBFactory> | undefined)?.databases === 'function';

/**
 * Removes a database from the device. RxDB's Dexie storage keeps one IndexedDB database per
 * collection and per internal store (`rxdb-dexie-<name>--<version>--<store>`), and `remove()` only
 * empties them: for a user's database about 18 would stay, named after their uid. They are deleted
 * here. A tab that still has one open delays that deletion, never the caller.
 */
export async function removeDb(options: DbOptions, db: PublicDb | UserDb): Promise<void> {
  const prefix = `rxdb-dexie-${db.name}--`;
  await db.remove();
  if (!(options.storage instanceof RxStorageDexie)) return;
  // Tests give each client an IndexedDB of its own (fake-indexeddb); the browser has one.
  const factory: unknown = options.storage.settings.indexedDB ?? globalThis.indexedDB;
  if (!isIdbFactory(factory)) return;
  for (const { name } of await factory.databases()) {
    if (!name?.startsWith(prefix)) continue;
    await new Promise<void>((resolve) => {
      const request = factory.deleteDatabase(name);
      request.onsuccess = request.onerror = request.onblocked = () => resolve();
    });
  }
}
