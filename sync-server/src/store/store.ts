// The storage boundary (DESIGN.md §8): everything the server keeps goes through
// this object, so another engine can stand behind the same methods later.
import type { Db } from './connection.js';
import { createTopicsRepo } from './topics-repo.js';
import { createResponsesRepo } from './responses-repo.js';
import { createSourcesRepo } from './sources-repo.js';
import { createVotesRepo } from './votes-repo.js';
import { createUsersRepo } from './users-repo.js';
import { createNotificationsRepo } from './notifications-repo.js';

export function createStore(db: Db) {
  const nextSeqStatement = db.prepare<[], { value: number }>(
    "UPDATE meta SET value = value + 1 WHERE key = 'seq' RETURNING value",
  );
  return {
    db,
    /** A fresh change number; call only inside `transaction`. */
    nextSeq: () => nextSeqStatement.get()!.value,
    /** Runs `fn` in one SQLite transaction (nested calls become savepoints). */
    transaction: <T>(fn: () => T): T => db.transaction(fn)(),
    topics: createTopicsRepo(db),
    responses: createResponsesRepo(db),
    sources: createSourcesRepo(db),
    votes: createVotesRepo(db),
    users: createUsersRepo(db),
    notifications: createNotificationsRepo(db),
    close: () => db.close(),
  };
}

export type Store = ReturnType<typeof createStore>;
