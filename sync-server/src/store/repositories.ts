// Each repository of the Store as both engines build it: the one place a repository is wired in.
// Each engine's store.ts builds every entry (`buildRepositories`), so a new repository is its two
// implementations and one line here; the compiler checks each entry against `Repositories`.
import type { Db } from './sqlite/connection.js';
import type { PgQueries } from './pg/queries.js';
import type { Repositories } from './rows.js';
import { createAccountsRepo } from './sqlite/accounts-repo.js';
import { createBlocksRepo } from './sqlite/blocks-repo.js';
import { createFollowsRepo } from './sqlite/follows-repo.js';
import { createGroupsRepo } from './sqlite/groups-repo.js';
import { createMailRepo } from './sqlite/mail-repo.js';
import { createModerationRepo } from './sqlite/moderation-repo.js';
import { createNotificationsRepo } from './sqlite/notifications-repo.js';
import { createPushRepo } from './sqlite/push-repo.js';
import { createReportsRepo } from './sqlite/reports-repo.js';
import { createResponsesRepo } from './sqlite/responses-repo.js';
import { createSourcesRepo } from './sqlite/sources-repo.js';
import { createStancesRepo } from './sqlite/stances-repo.js';
import { createTopicsRepo } from './sqlite/topics-repo.js';
import { createUsersRepo } from './sqlite/users-repo.js';
import { createVotesRepo } from './sqlite/votes-repo.js';
import { createPgAccountsRepo } from './pg/accounts-repo.js';
import { createPgBlocksRepo } from './pg/blocks-repo.js';
import { createPgFollowsRepo } from './pg/follows-repo.js';
import { createPgGroupsRepo } from './pg/groups-repo.js';
import { createPgMailRepo } from './pg/mail-repo.js';
import { createPgModerationRepo } from './pg/moderation-repo.js';
import { createPgNotificationsRepo } from './pg/notifications-repo.js';
import { createPgPushRepo } from './pg/push-repo.js';
import { createPgReportsRepo } from './pg/reports-repo.js';
import { createPgResponsesRepo } from './pg/responses-repo.js';
import { createPgSourcesRepo } from './pg/sources-repo.js';
import { createPgStancesRepo } from './pg/stances-repo.js';
import { createPgTopicsRepo } from './pg/topics-repo.js';
import { createPgUsersRepo } from './pg/users-repo.js';
import { createPgVotesRepo } from './pg/votes-repo.js';

/** What each engine's repositories are built on. */
interface Connections {
  /** better-sqlite3's connection: the repos are synchronous, the SQLite store makes them take turns. */
  sqlite: Db;
  pg: PgQueries;
}
type Engine = keyof Connections;

/**
 * A SQLite repository of `T`: the same methods, answering at once (a method that waits for a
 * `seq` callback may still answer a promise); what a statement ran (RunResult) is its own.
 */
type SqliteRepo<T> = {
  [M in keyof T]: NonNullable<T[M]> extends (...args: infer A) => Promise<infer R>
    ? (...args: A) => [R] extends [void] ? unknown : R | Promise<R>
    : T[M];
};

const REPOSITORIES = {
  topics: { sqlite: createTopicsRepo, pg: createPgTopicsRepo },
  responses: { sqlite: createResponsesRepo, pg: createPgResponsesRepo },
  sources: { sqlite: createSourcesRepo, pg: createPgSourcesRepo },
  votes: { sqlite: createVotesRepo, pg: createPgVotesRepo },
  users: { sqlite: createUsersRepo, pg: createPgUsersRepo },
  notifications: { sqlite: createNotificationsRepo, pg: createPgNotificationsRepo },
  stances: { sqlite: createStancesRepo, pg: createPgStancesRepo },
  blocks: { sqlite: createBlocksRepo, pg: createPgBlocksRepo },
  follows: { sqlite: createFollowsRepo, pg: createPgFollowsRepo },
  mail: { sqlite: createMailRepo, pg: createPgMailRepo },
  reports: { sqlite: createReportsRepo, pg: createPgReportsRepo },
  moderation: { sqlite: createModerationRepo, pg: createPgModerationRepo },
  push: { sqlite: createPushRepo, pg: createPgPushRepo },
  accounts: { sqlite: createAccountsRepo, pg: createPgAccountsRepo },
  groups: { sqlite: createGroupsRepo, pg: createPgGroupsRepo },
} satisfies {
  [K in keyof Repositories]: {
    sqlite: (db: Connections['sqlite']) => SqliteRepo<Repositories[K]>;
    pg: (q: Connections['pg']) => Repositories[K];
  };
};

/** One engine's repositories, each as its factory types it (the SQLite ones synchronous, with their extras). */
export type BuiltRepositories<E extends Engine> = {
  [K in keyof typeof REPOSITORIES]: ReturnType<(typeof REPOSITORIES)[K][E]>;
};

/** Builds every repository of one engine on its connection. */
export function buildRepositories<E extends Engine>(engine: E, connection: Connections[E]): BuiltRepositories<E> {
  const built = Object.entries(REPOSITORIES).map(([name, factories]) => [
    name,
    (factories[engine] as (connection: Connections[E]) => object)(connection),
  ]);
  return Object.fromEntries(built) as BuiltRepositories<E>;
}
