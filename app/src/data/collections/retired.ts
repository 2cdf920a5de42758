// Drafts and sync problems were collections of the user's database until they moved into local
// documents of it (drafts.ts, problems.ts; drafts then moved on to the device's list at sign-in): neither ever leaves the device, and every collection
// counts toward the 13 that RxDB's open-source build opens on a page. A database that still holds
// them is moved over when it opens: the old collection's documents are merged into the local
// document (a move interrupted and run again takes nothing twice), and only then is it removed.
// Blocks, follows and reports were three collections until they became kinds of one, `marks`
// (mark.schema.ts): their documents move into it the same way, unsent changes with their
// server_base, so each is still sent once.
import { getAllCollectionDocuments, type MigrationStrategies, type RxCollection, type RxDatabase, type RxJsonSchema } from 'rxdb';
import type { SyncCollection } from '../../../../shared/sync-protocol.js';
import { userDraftList } from '../drafts.js';
import type { LocalDocumentsDb } from '../local-list.js';
import { problemsIn } from '../problems.js';
import { blockMigrations, blockSchema } from './block.schema.js';
import { draftSchema, type DraftDocType } from './draft.schema.js';
import { followMigrations, followSchema } from './follow.schema.js';
import { markId, type MarkDocType, type MarkKind } from './mark.schema.js';
import { reportMigrations, reportSchema } from './report.schema.js';
import { syncProblemSchema, type SyncProblemDocType } from './sync-problem.schema.js';

/** What the move needs of a user's database. */
type UserDatabase = LocalDocumentsDb & Pick<RxDatabase, 'internalStore' | 'addCollections'>;

/**
 * Reads a retired collection whole (brought to its last schema first), hands its documents to
 * `move`, then removes the collection from the device.
 */
async function moveOut<T>(
  db: UserDatabase,
  name: string,
  schema: RxJsonSchema<T>,
  move: (docs: T[]) => Promise<unknown>,
  migrationStrategies: MigrationStrategies = {},
) {
  const collections = await db.addCollections({ [name]: { schema, migrationStrategies } });
  const collection = collections[name]!;
  const docs = (await collection.find().exec()).map((doc) => doc.toJSON() as T);
  await move(docs);
  await collection.remove();
}

/** Moves what the retired collections of a user's database hold into its local documents (none: one read of the database's own store). */
export async function moveRetiredCollections(db: UserDatabase): Promise<void> {
  const present = new Set((await getAllCollectionDocuments(db.internalStore)).map((doc) => doc.data.name));
  if (present.has('drafts')) {
    await moveOut<DraftDocType>(db, 'drafts', draftSchema, (docs) =>
      userDraftList(db).merge(
        docs.map((d) => ({ key: d.key, text: d.text, extra: { ...(d.extra as Record<string, unknown>) }, updated_at: d.updated_at })),
      ),
    );
  }
  if (present.has('sync_problems')) {
    await moveOut<SyncProblemDocType>(db, 'sync_problems', syncProblemSchema, (docs) =>
      problemsIn(db).add(
        docs.map(({ target_collection, localState, serverState, ...rest }) => ({
          ...rest,
          collection: target_collection as SyncCollection,
          localState: localState as Record<string, unknown>,
          serverState: (serverState as Record<string, unknown> | null | undefined) ?? null,
        })),
      ),
    );
  }
}

/** The retired collections whose documents are now marks of their kind, with their last schema. */
const MARKED: Record<MarkKind, { schema: RxJsonSchema<unknown>; migrationStrategies: MigrationStrategies }> = {
  blocks: { schema: blockSchema as RxJsonSchema<unknown>, migrationStrategies: blockMigrations },
  follows: { schema: followSchema as RxJsonSchema<unknown>, migrationStrategies: followMigrations },
  reports: { schema: reportSchema as RxJsonSchema<unknown>, migrationStrategies: reportMigrations },
};

/**
 * Moves what the retired blocks, follows and reports collections of a user's database hold into its
 * `marks` (opened already), one collection at a time. A mark already there (a move interrupted and
 * run again) is kept as it is.
 */
export async function moveIntoMarks(db: UserDatabase & { marks: RxCollection<MarkDocType> }): Promise<void> {
  const present = new Set((await getAllCollectionDocuments(db.internalStore)).map((doc) => doc.data.name));
  for (const kind of Object.keys(MARKED) as MarkKind[]) {
    if (!present.has(kind)) continue;
    const { schema, migrationStrategies } = MARKED[kind];
    await moveOut<Record<string, unknown>>(
      db,
      kind,
      schema,
      async (docs) => {
        const marks = docs.map(({ _deleted, _meta, _rev, _attachments, ...doc }) => ({
          ...doc,
          kind,
          id: markId(kind, String(doc.id)),
        })) as MarkDocType[];
        const { error } = await db.marks.bulkInsert(marks);
        const failed = error.filter((e) => e.status !== 409);
        if (failed.length > 0) throw new Error(`${failed.length} ${kind} could not be moved into marks.`);
      },
      migrationStrategies,
    );
  }
}
