// The data built on the public database (follows, set-aside writes, the replications, the
// queries, the actions), and its renewal when the public data is removed from the device.
import { BehaviorSubject, combineLatest, filter, map, switchMap, type Observable } from 'rxjs';
import { SYNC_PROTOCOL_VERSION } from '../../../shared/sync-protocol.js';
import { createActions } from './actions.js';
import type { Connectivity } from './connectivity.js';
import { openPublicDb, type DbOptions, type UserDb } from './db.js';
import { createProblemFixer } from './fix-problem.js';
import { createFollows } from './follows.js';
import type { SyncHttp } from './http.js';
import { toWire } from './local-docs.js';
import { createOrphans, type Orphan } from './orphans.js';
import { draftsIn } from './drafts.js';
import type { ProblemRecorder } from './problems.js';
import { createQueries } from './queries.js';
import type { CurrentSession } from './session.js';
import { createSyncController } from './sync-controller.js';
import { yieldToMain } from './yield.js';
import { createWorkingSet } from './working-set.js';
import { createTopicLists } from './topic-lists.js';

export interface WorldDeps {
  dbOptions: DbOptions;
  keepTopics: number;
  connectivity: Connectivity;
  http: SyncHttp;
  problems: ProblemRecorder;
  session: () => CurrentSession | null;
  userDb$: Observable<UserDb | null>;
  retryTimeMs: number;
  /** The uid of a session that ended on this device, whose unsent writes the signed-in user takes over (ended-session.ts). */
  endedFrom: () => string | null;
}

/**
 * Everything built on the public database: follows, set-aside writes, the replications, the
 * queries and the actions. Built again when the public database is removed from the device
 * (sign-out with removeData), so anonymous browsing starts afresh on an empty database.
 */
async function createWorld(deps: WorldDeps) {
  const { connectivity, session } = deps;
  // Each step below is a task of its own (TBT: see yield.ts), the first one apart from
  // evaluating the data layer's chunk.
  await yieldToMain();
  const publicDb = await openPublicDb(deps.dbOptions);
  await yieldToMain();
  const follows = await createFollows(publicDb, deps.keepTopics);
  const orphans = createOrphans(publicDb, { from: deps.endedFrom, problems: deps.problems });
  // The signed-in user's followed topics: kept on the device whatever the budget.
  let userDb: UserDb | null = null;
  const userDbSubscription = deps.userDb$.subscribe((db) => (userDb = db));
  const workingSet = createWorkingSet({
    db: publicDb,
    follows,
    http: deps.http,
    token: () => null,
    uid: () => session()?.uid ?? null,
    followed: async () => {
      const marks = userDb ? await userDb.marks.find({ selector: { kind: 'follows', following: true } }).exec() : [];
      return new Set(marks.map((mark) => String(mark.get('topic_id'))));
    },
  });
  await yieldToMain();
  const controller = createSyncController({
    publicDb,
    http: deps.http,
    connectivity,
    follows,
    problems: deps.problems,
    // A fresh token per request: whatever the current user's getToken gives now. None once the
    // session ended (the account can no longer get one): pushes wait, public data is pulled anonymously.
    token: () => {
      const current = session();
      return current && !connectivity.isSessionEnded() ? (force?: boolean) => current.getToken(force) : null;
    },
    uid: () => session()?.uid ?? null,
    orphans,
    identifierPrefix: `crux-sync-v${SYNC_PROTOCOL_VERSION}`,
    retryTimeMs: deps.retryTimeMs,
    workingSet,
  });

  const lists = createTopicLists({ workingSet, online$: connectivity.online$, changed$: controller.topicsChanged$ });
  // What the device holds now, measured once it opened (a device that kept the whole site before evicts down to its budget).
  void workingSet.evict().catch(() => {});
  await yieldToMain();
  const queries = createQueries(publicDb, deps.userDb$, follows, lists);
  // Whether an empty notifications list means "none": after the signed-in user's first pull,
  // offline, or in a follower tab. Until then a fresh sign-in shows loading, not "no notifications".
  const notificationsKnown$ = combineLatest([controller.pulledOnce$('notifications'), connectivity.online$, controller.isLeader$]).pipe(
    map(([pulled, online, leader]) => pulled || !online || !leader),
  );
  const notifications$ = () =>
    combineLatest([queries.notifications$(), notificationsKnown$]).pipe(
      filter(([list, known]) => known || list.length > 0),
      map(([list]) => list),
    );
  const actions = createActions(publicDb, session, { topicKnown$: lists.topicKnown$, online$: connectivity.online$ });
  const fixer = createProblemFixer(publicDb, actions, session);
  return {
    publicDb,
    follows,
    orphans,
    controller,
    queries,
    notifications$,
    actions,
    fixer,
    workingSet,
    stop: () => userDbSubscription.unsubscribe(),
  };
}
export type World = Awaited<ReturnType<typeof createWorld>>;

/** The current world, as a value and as a stream (it changes when the public data is removed). */
export async function createWorlds(deps: WorldDeps) {
  let world = await createWorld(deps);
  const world$ = new BehaviorSubject<World>(world);

  /**
   * Removes the public database (topics, responses, follows, set-aside writes, replication state)
   * and opens it again empty: anonymous browsing pulls afresh. Other people's set-aside or unsent
   * writes on a shared device are kept (as set-aside writes for their next sign-in).
   */
  async function removePublicData(uid: string) {
    const old = world;
    const others: Orphan[] = (await old.orphans.list()).filter((o) => o.author_uid !== uid);
    for (const collection of ['topics', 'responses'] as const) {
      const pending = await old.publicDb[collection].find({ selector: { pending: true } }).exec();
      for (const doc of pending) {
        const json = doc.toJSON() as Record<string, unknown> & { id: string; creator_uid: string; seq: number };
        if (json.creator_uid === uid) continue;
        others.push({
          author_uid: json.creator_uid,
          kind: 'rejected',
          collection,
          itemId: json.id,
          action: json.pending_delete ? 'delete' : json.seq > 0 ? 'edit' : 'create',
          error: 'Not sent: you signed out before this change reached the server.',
          status: 401,
          localState: toWire(json),
          serverState: null,
        });
      }
    }
    // Other accounts' drafts stay on the device, like their writes: only this person's data goes.
    const othersDrafts = await draftsIn(old.publicDb).notOf(uid);
    await old.controller.close();
    old.stop();
    await old.publicDb.remove();
    world = await createWorld(deps);
    for (const orphan of others) await world.orphans.keep(orphan);
    if (othersDrafts.length) await draftsIn(world.publicDb).restore(othersDrafts);
    world$.next(world);
  }

  return {
    current: () => world,
    world$,
    /** A live read of the current world. */
    live: <T>(read: (w: World) => Observable<T>): Observable<T> => world$.pipe(switchMap(read)),
    removePublicData,
  };
}

export type Worlds = Awaited<ReturnType<typeof createWorlds>>;
