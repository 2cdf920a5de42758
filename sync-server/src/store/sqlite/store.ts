// What differs on SQLite: one file in this one process, one synchronous connection (better-sqlite3)
// taking turns, its write transactions grouped into one COMMIT, FTS5 for search; so one server process.
//
// The SQLite implementation of the storage boundary (store/types.ts). The
// connection stays inside: callers get the Store's named operations only.
import type { Sort } from '../../../../shared/constants.js';
import type { Checkpointer } from './checkpointer.js';
import type { Db } from './connection.js';
import { createTopicsRepo } from './topics-repo.js';
import { createResponsesRepo } from './responses-repo.js';
import { createSourcesRepo } from './sources-repo.js';
import { createVotesRepo } from './votes-repo.js';
import { createUsersRepo } from './users-repo.js';
import { createNotificationsRepo } from './notifications-repo.js';
import { createMailRepo } from './mail-repo.js';
import { createStancesRepo } from './stances-repo.js';
import { createBlocksRepo } from './blocks-repo.js';
import { createFollowsRepo } from './follows-repo.js';
import { createReportsRepo } from './reports-repo.js';
import { createModerationRepo } from './moderation-repo.js';
import { createPushRepo } from './push-repo.js';
import { createGroupsRepo } from './groups-repo.js';
import type { Store } from '../types.js';
import type { TopicsRepo } from '../rows.js';
import { createSqliteTransactions, type TransactionOptions } from './transactions.js';
import { createVersionClock, type VersionClockOptions, type VersionReads } from './kept-versions.js';

export type { Store } from '../types.js';

/** The SQLite store, plus what only SQLite can tell (tests check the query plans). */
export interface SqliteStore extends Store {
  topics: TopicsRepo & {
    /** SQLite's query plan of a topic list, so tests can check it is an index scan. */
    listPlan(sort: Sort, byCategory: boolean): Promise<string[]>;
    /** SQLite's query plan of a title search, by the plan chosen (many matches: walk; few: matches). */
    searchPlan(sort: Sort, byCategory: boolean, plan: 'walk' | 'matches'): Promise<string[]>;
  };
}

export interface StoreOptions extends TransactionOptions {
  /** The connection's background checkpointer (checkpointer.ts): the store's close stops it, then closes the connection. */
  checkpointer?: Checkpointer | undefined;
  /** How the kept versions are re-read (kept-versions.ts; tests set the clock). */
  keptVersions?: VersionClockOptions;
}

export function createStore(db: Db, options: StoreOptions = {}): SqliteStore {
  const anyTopic = db.prepare<[], { one: number }>('SELECT 1 AS one FROM topics LIMIT 1');
  // The repos are synchronous (better-sqlite3); the Store's callers await. The wrapper makes
  // every call take its turn around the open transaction (transactions.ts).
  const turns = createSqliteTransactions(db, options);
  const topicsRepo = createTopicsRepo(db);
  const usersRepo = createUsersRepo(db);
  // listVersion and changeNumber kept in memory between writes (kept-versions.ts); every write
  // that moves either stamps a seq, so nextSeq says a version may have moved.
  const versionClock = createVersionClock(options.keptVersions);
  const reads = (statement: () => number): VersionReads => ({
    statement,
    readNow: turns.readNow,
    inTurn: turns.wrap({ statement }).statement,
    inTransaction: turns.inTransaction,
  });
  const listVersion = versionClock.track(reads(topicsRepo.listVersion));
  const changeNumber = versionClock.track(reads(usersRepo.changeNumber));
  return {
    ...turns.wrap({
      // Counted in memory within a group commit, written back once before its COMMIT (transactions.ts);
      // a kept version may have moved with it.
      nextSeq: () => {
        versionClock.changed();
        return turns.nextSeq();
      },
      isEmpty: () => anyTopic.get() === undefined,
      close: () => {
        options.checkpointer?.stop();
        db.close();
      },
    }),
    transaction: turns.transaction,
    transactionEach: turns.transactionEach,
    afterCommit: turns.afterCommit,
    versions: {
      listVersionNow: listVersion.now,
      changeNumberNow: changeNumber.now,
      changedElsewhere: versionClock.changed,
    },
    topics: { ...turns.wrap(topicsRepo), listVersion: listVersion.read },
    responses: turns.wrap(createResponsesRepo(db)),
    sources: turns.wrap(createSourcesRepo(db)),
    votes: turns.wrap(createVotesRepo(db)),
    users: { ...turns.wrap(usersRepo), changeNumber: changeNumber.read },
    notifications: turns.wrap(createNotificationsRepo(db)),
    stances: turns.wrap(createStancesRepo(db)),
    blocks: turns.wrap(createBlocksRepo(db)),
    follows: turns.wrap(createFollowsRepo(db)),
    mail: turns.wrap(createMailRepo(db)),
    reports: turns.wrap(createReportsRepo(db)),
    moderation: turns.wrap(createModerationRepo(db)),
    push: turns.wrap(createPushRepo(db)),
    groups: turns.wrap(createGroupsRepo(db)),
  };
}
