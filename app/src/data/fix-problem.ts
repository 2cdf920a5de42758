// "Fix" for a refused write and "resolve" for a conflict.
//
// Fix: the user's version (with their corrections) is written again as a local
// change under the write's ORIGINAL id, then the problem is forgotten. One id
// from the moment a write is made to the moment it lands (offline queue,
// set-aside, retry, fix), so the server's idempotency always applies: a create
// that did land meanwhile is recognised, never posted twice.
//
// Resolve: a conflict is never overwritten blind. Only the person's choice
// ('mine', 'theirs', or a merged text) settles it; 'mine' and 'merged' are
// written on top of the server's current state (the local document holds it
// since the conflicting push answered), so the server takes them as a
// deliberate edit of what it has, and a further change there is a new conflict.
import { filter, firstValueFrom, of, timeout, type Observable } from 'rxjs';
import type { Actions, Session } from './actions.js';
import type { ConflictChoice, SyncProblem } from './api.js';
import { SYNCED } from './collections/index.js';
import type { PublicDb } from './db.js';
import { problemsIn } from './problems.js';
import { badRequest, notFound } from '../../../shared/errors.js';
import { SYNC_COLLECTIONS, type SyncCollection } from '../../../shared/sync-protocol.js';

export const CONFLICT_NEEDS_CHOICE = 'This change conflicts with a newer version: choose Keep mine, Keep theirs or Edit and merge.';

export function createProblemFixer(publicDb: PublicDb, actions: Actions, session: () => Session | null) {
  async function load(problemId: string) {
    const s = session();
    const problem = s ? await problemsIn(s.db).find(problemId) : null;
    if (!s || !problem) throw notFound('This problem no longer exists.');
    return { s, problem };
  }

  const cannotRetry = (): never => {
    throw badRequest('This change cannot be retried; discard it instead.');
  };

  // A stored problem names its collection as this device kept it: one no longer synced cannot be retried.
  const isSynced = (collection: string): collection is SyncCollection => (SYNC_COLLECTIONS as readonly string[]).includes(collection);

  /**
   * Writes the user's version again as a local change, under the item's original id, the way its
   * collection's entry does it by the action the problem names (collections/index.ts: sync.reapply).
   */
  async function reapply(s: Session, problem: SyncProblem, local: Record<string, unknown>) {
    const collection: string = problem.collection;
    if (!isSynced(collection)) return cannotRetry();
    await SYNCED[collection].sync.reapply({ publicDb, actions, session: s, cannotRetry }, problem.action, problem.itemId, local);
  }

  return {
    async fix(problemId: string, patch: Record<string, unknown> = {}) {
      const { s, problem } = await load(problemId);
      // A conflict is settled by the person's choice only (resolveConflict), never by a retry.
      if (problem.kind === 'conflict') throw badRequest(CONFLICT_NEEDS_CHOICE);
      // The wire document of its collection as the push sent it (push-handler.ts: toWire),
      // with the user's corrections laid over; the action's zod schemas check it again.
      await reapply(s, problem, { ...problem.localState, ...patch });
      await problemsIn(s.db).remove(problem.id);
    },

    async resolveConflict(problemId: string, choice: ConflictChoice) {
      const { s, problem } = await load(problemId);
      if (problem.kind !== 'conflict') throw badRequest('This problem is not a conflict; fix or discard it instead.');
      if (choice.keep === 'theirs') {
        await problemsIn(s.db).remove(problem.id);
        return;
      }
      const server = problem.serverState;
      const local = problem.localState;
      if (choice.keep === 'merged' && (problem.collection !== 'responses' || problem.action !== 'edit')) {
        throw badRequest('Only an edited response text can be merged.');
      }
      if (problem.collection === 'responses' || problem.collection === 'topics') {
        const collection = problem.collection === 'responses' ? publicDb.responses : publicDb.topics;
        // The push that met the conflict writes the server's state here right after recording it.
        const current = await firstValueFrom(
          (collection.findOne(problem.itemId).$ as Observable<{ pending: boolean } | null>).pipe(
            filter((doc) => !doc || !doc.pending),
            timeout({ first: 5000, with: () => of(undefined) }),
          ),
        );
        if (current === undefined) throw badRequest('This item has another change waiting to be sent; try again once it is sent.');
        if (!current || server?._deleted === true) throw badRequest('This item was deleted meanwhile: it cannot be changed any more.');
      }
      await reapply(s, problem, choice.keep === 'merged' ? { ...local, content: choice.content } : local);
      await problemsIn(s.db).remove(problem.id);
    },
  };
}
