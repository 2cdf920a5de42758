// Drafts and sync problems were collections of the user's database until they moved into local
// documents of it (drafts.ts, problems.ts): neither ever leaves the device, and every collection
// counts toward the 13 that RxDB's open-source build opens on a page. A database that still holds
// them is moved over when it opens: the old collection's documents are merged into the local
// document (a move interrupted and run again takes nothing twice), and only then is it removed.
import { getAllCollectionDocuments, type RxDatabase, type RxJsonSchema } from 'rxdb';
import type { SyncCollection } from '../../../../shared/sync-protocol.js';
import { draftsIn } from '../drafts.js';
import type { LocalDocumentsDb } from '../local-list.js';
import { problemsIn } from '../problems.js';
import { draftSchema, type DraftDocType } from './draft.schema.js';
import { syncProblemSchema, type SyncProblemDocType } from './sync-problem.schema.js';

/** What the move needs of a user's database. */
type UserDatabase = LocalDocumentsDb & Pick<RxDatabase, 'internalStore' | 'addCollections'>;

/** Reads a retired collection whole, hands its documents to `move`, then removes the collection from the device. */
async function moveOut<T>(db: UserDatabase, name: string, schema: RxJsonSchema<T>, move: (docs: T[]) => Promise<unknown>) {
  const collections = await db.addCollections({ [name]: { schema } });
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
      draftsIn(db).merge(
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
