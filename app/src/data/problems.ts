// The `sync problems` list: writes the server refused or overruled, kept with
// the user's version (never dropped silently) until fixed or discarded.
import { newId } from '../../../shared/ids.js';
import type { SyncProblem } from './api.js';
import type { SyncCollection } from '../../../shared/sync-protocol.js';
import type { SyncProblemDocType } from './collections/sync-problem.schema.js';
import type { UserDb } from './db.js';

export interface ProblemRecorder {
  record(problem: Omit<SyncProblem, 'id' | 'created_at'>): Promise<void>;
}

export function createProblemRecorder(userDb: () => UserDb | null): ProblemRecorder {
  return {
    async record(problem) {
      const db = userDb();
      // Without a user database nothing was pushed (pushes need a signed-in user).
      if (!db) return;
      const { collection, ...rest } = problem;
      // One problem per item: the same write recorded again (a retried push, a set-aside write
      // adopted twice) replaces the earlier entry instead of listing it twice.
      const existing = await db.sync_problems.find({ selector: { target_collection: collection, itemId: problem.itemId } }).exec();
      const [first, ...extra] = existing;
      for (const doc of extra) await doc.remove();
      const doc = {
        ...rest,
        target_collection: collection,
        id: first?.id ?? newId(),
        created_at: first?.created_at ?? new Date().toISOString(),
      };
      await db.sync_problems.upsert(doc);
    },
  };
}

/** A stored problem as the API shows it. */
export function problemView(doc: SyncProblemDocType): SyncProblem {
  const { target_collection, localState, serverState, ...rest } = doc;
  // Written by record() above only: a SyncCollection and two documents (the schema says 'object').
  return {
    ...rest,
    collection: target_collection as SyncCollection,
    localState: localState as Record<string, unknown>,
    serverState: (serverState as Record<string, unknown> | null | undefined) ?? null,
  };
}
