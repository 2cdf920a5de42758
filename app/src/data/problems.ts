// The `sync problems` list: writes the server refused or overruled, kept with the user's version
// (never dropped silently) until fixed or discarded. One list in a local document of the user's
// database (local-list.ts): they are few and never leave the device.
import { map } from 'rxjs';
import { newId } from '../../../shared/ids.js';
import type { SyncProblem } from './api.js';
import { localList, type LocalDocumentsDb } from './local-list.js';

const DOC_ID = 'sync-problems';

export interface ProblemRecorder {
  record(problem: Omit<SyncProblem, 'id' | 'created_at'>): Promise<void>;
}

export function problemsIn(db: LocalDocumentsDb) {
  const problems = localList<SyncProblem>(db, DOC_ID);
  return {
    /** The list, oldest first, now and after every change. */
    list$: () => problems.list$().pipe(map((list) => [...list].sort((a, b) => a.created_at.localeCompare(b.created_at)))),
    async find(id: string): Promise<SyncProblem | null> {
      return (await problems.read()).find((problem) => problem.id === id) ?? null;
    },
    /** Forgets a problem; resolves to whether it was there. */
    async remove(id: string): Promise<boolean> {
      let found = false;
      await problems.change((list) => {
        found = list.some((problem) => problem.id === id);
        return list.filter((problem) => problem.id !== id);
      });
      return found;
    },
    /** Adds problems whose id is not here yet (a rerun adds nothing twice). */
    add: (added: readonly SyncProblem[]) =>
      problems.change((list) => [...list, ...added.filter((problem) => !list.some((p) => p.id === problem.id))]),
  };
}

export function createProblemRecorder(userDb: () => LocalDocumentsDb | null): ProblemRecorder {
  return {
    async record(problem) {
      const db = userDb();
      // Without a user database nothing was pushed (pushes need a signed-in user).
      if (!db) return;
      // Made once, outside the change: a change run again must not make another id.
      const id = newId();
      const now = new Date().toISOString();
      const sameItem = (p: SyncProblem) => p.collection === problem.collection && p.itemId === problem.itemId;
      // One problem per item: the same write recorded again (a retried push, a set-aside write
      // adopted twice) replaces the earlier entry, keeping its id and place, instead of listing it twice.
      await localList<SyncProblem>(db, DOC_ID).change((list) => {
        const first = list.find(sameItem);
        return [...list.filter((p) => !sameItem(p)), { ...problem, id: first?.id ?? id, created_at: first?.created_at ?? now }];
      });
    },
  };
}
