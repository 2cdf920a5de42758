// The SQLite implementation of the storage boundary (store/types.ts). The
// connection stays inside: callers get the Store's named operations only.
import type { Sort } from '../../../shared/constants.js';
import type { Db } from './connection.js';
import { createTopicsRepo } from './topics-repo.js';
import { createResponsesRepo } from './responses-repo.js';
import { createSourcesRepo } from './sources-repo.js';
import { createVotesRepo } from './votes-repo.js';
import { createUsersRepo } from './users-repo.js';
import { createNotificationsRepo } from './notifications-repo.js';
import { createMailRepo } from './mail-repo.js';
import { createStancesRepo } from './stances-repo.js';
import type { Store, TopicsRepo } from './types.js';

export type { Store } from './types.js';

/** The SQLite store, plus what only SQLite can tell (tests check the query plans). */
export interface SqliteStore extends Store {
  topics: TopicsRepo & {
    /** SQLite's query plan of a topic list, so tests can check it is an index scan. */
    listPlan(sort: Sort, byCategory: boolean): string[];
    /** SQLite's query plan of a title search, by the plan chosen (many matches: walk; few: matches). */
    searchPlan(sort: Sort, byCategory: boolean, plan: 'walk' | 'matches'): string[];
  };
}

export function createStore(db: Db): SqliteStore {
  const nextSeqStatement = db.prepare<[], { value: number }>("UPDATE meta SET value = value + 1 WHERE key = 'seq' RETURNING value");
  const anyTopic = db.prepare<[], { one: number }>('SELECT 1 AS one FROM topics LIMIT 1');
  // One transaction function, made once, that runs the callback it is given: better-sqlite3
  // builds a wrapper (and its four variants) per db.transaction() call, which cost more than
  // the SAVEPOINT itself on a push's per-row savepoints (issue 12).
  const inTransaction = db.transaction(<T>(fn: () => T): T => fn());
  return {
    nextSeq: () => nextSeqStatement.get()!.value,
    // BEGIN IMMEDIATE: the write lock is taken (waiting up to busy_timeout) before the
    // first read. A deferred transaction that reads and then writes while another
    // connection holds the lock fails at once with SQLITE_BUSY: the timeout never
    // applies to it. better-sqlite3 turns nested calls into savepoints.
    transaction: <T>(fn: () => T): T => inTransaction.immediate(fn) as T,
    isEmpty: () => anyTopic.get() === undefined,
    topics: createTopicsRepo(db),
    responses: createResponsesRepo(db),
    sources: createSourcesRepo(db),
    votes: createVotesRepo(db),
    users: createUsersRepo(db),
    notifications: createNotificationsRepo(db),
    stances: createStancesRepo(db),
    mail: createMailRepo(db),
    close: () => db.close(),
  };
}
