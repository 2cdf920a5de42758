// What differs on SQLite: one file in this one process, one synchronous connection (better-sqlite3)
// taking turns, its write transactions grouped into one COMMIT, FTS5 for search; so one server process.
//
// The SQLite implementation of the storage boundary (store/types.ts). The
// connection stays inside: callers get the Store's named operations only.
import type { Sort } from '../../../../shared/constants.js';
import type { Checkpointer } from './checkpointer.js';
import type { Db } from './connection.js';
import { buildRepositories, type BuiltRepositories } from '../repositories.js';
import type { TopicListQuery, TopicsRepo } from '../rows.js';
import type { Store } from '../types.js';
import { createSqliteTransactions, type Promisified, type TransactionOptions } from './transactions.js';
import { createVersionClock, type VersionClockOptions, type VersionReads } from './kept-versions.js';

export type { Store } from '../types.js';

/** The SQLite store, plus what only SQLite can tell (tests check the query plans). */
export interface SqliteStore extends Store {
  topics: TopicsRepo & {
    /** SQLite's query plan of a topic list, so tests can check it is an index scan. */
    listPlan(sort: Sort, byCategory: boolean): Promise<string[]>;
    /** SQLite's query plan of a title search, by the plan chosen (many matches: walk; few: matches). */
    searchPlan(sort: Sort, byCategory: boolean, plan: 'walk' | 'matches'): Promise<string[]>;
    /** A search page's REST JSON written by SQLite (undefined until the title index is built, or in a transaction). */
    searchJson(query: TopicListQuery & { match: string }): Promise<string | undefined>;
    /** Resolves once the title index (title-index.ts) is built: until then a search is FTS5's. */
    titleIndexReady(): Promise<void>;
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
  const repos = buildRepositories('sqlite', db);
  const inTurns = Object.fromEntries(Object.entries(repos).map(([name, repo]) => [name, turns.wrap(repo)])) as {
    [K in keyof BuiltRepositories<'sqlite'>]: Promisified<BuiltRepositories<'sqlite'>[K]>;
  };
  // listVersion and changeNumber kept in memory between writes (kept-versions.ts); every write
  // that moves either stamps a seq, so nextSeq says a version may have moved.
  const versionClock = createVersionClock(options.keptVersions);
  const reads = (statement: () => number): VersionReads => ({
    statement,
    readNow: turns.readNow,
    inTurn: turns.wrap({ statement }).statement,
    inTransaction: turns.inTransaction,
  });
  const listVersion = versionClock.track(reads(repos.topics.listVersion));
  const changeNumber = versionClock.track(reads(repos.users.changeNumber));
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
    ...inTurns,
    topics: { ...inTurns.topics, listVersion: listVersion.read },
    users: { ...inTurns.users, changeNumber: changeNumber.read },
  };
}
