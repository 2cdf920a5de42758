// The `sync problems` list: writes the server refused or overruled, kept with
// the user's version (never dropped silently) until fixed or discarded.
import { newId } from '../../../shared/ids.js';
import type { SyncProblem } from './api.js';
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
      await db.sync_problems.insert({ ...rest, target_collection: collection, id: newId(), created_at: new Date().toISOString() } as never);
    },
  };
}

/** A stored problem as the API shows it. */
export function problemView(doc: Record<string, any>): SyncProblem {
  const { target_collection, ...rest } = doc;
  return { ...rest, collection: target_collection } as SyncProblem;
}
