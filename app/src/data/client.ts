// Builds a CruxData: the local databases, the replication controller, the read
// queries and the write actions, wired to the signed-in user.
import { BehaviorSubject, EMPTY, combineLatest, firstValueFrom, filter, map, merge, switchMap, type Observable } from 'rxjs';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { SYNC_PROTOCOL_VERSION } from '../../../shared/sync-protocol.js';
import { createActions, type Session } from './actions.js';
import type { CruxData, CruxDataOptions, EditResponseInput, NewResponseInput, NewTopicInput, SessionUser, SyncStatus } from './api.js';
import type { Stance, TargetType } from '../../../shared/constants.js';
import { exportMyData, importDrafts } from './export.js';
import { createSourceCatalog } from './catalog.js';
import { createConnectivity } from './connectivity.js';
import { openPublicDb, openUserDb, removeDb, type DbOptions, type UserDb } from './db.js';
import { notFound, unauthorized } from '../../../shared/errors.js';
import { MSG } from '../../../shared/messages.js';
import { createFollows } from './follows.js';
import { createLeaderboard } from './leaderboard.js';
import { createSources } from './sources.js';
import { createScore } from './score.js';
import { createSyncHttp } from './http.js';
import { createOrphans, type Orphan } from './orphans.js';
import { createProblemRecorder } from './problems.js';
import { createQueries } from './queries.js';
import { createSyncController } from './sync-controller.js';
import { createProblemFixer } from './fix-problem.js';
import type { Connectivity } from './connectivity.js';
import type { SyncHttp } from './http.js';
import type { ProblemRecorder } from './problems.js';
import { toWire } from './local-docs.js';
import { yieldToMain } from './yield.js';

type CurrentSession = Session & { getToken: SessionUser['getToken'] };

interface WorldDeps {
  dbOptions: DbOptions;
  keepTopics: number;
  connectivity: Connectivity;
  http: SyncHttp;
  problems: ProblemRecorder;
  session: () => CurrentSession | null;
  userDb$: Observable<UserDb | null>;
  retryTimeMs: number;
}

/**
 * Everything built on the public database: follows, set-aside writes, the replications, the
 * queries and the actions. Built again when the public database is removed from the device
 * (sign-out with removeData), so anonymous browsing starts afresh on an empty database.
 */
async function createWorld(deps: WorldDeps) {
  const { connectivity, session } = deps;
  // Each step below is a task of its own (issue 12, TBT: see yield.ts), the first one apart from
  // evaluating the data layer's chunk.
  await yieldToMain();
  const publicDb = await openPublicDb(deps.dbOptions);
  await yieldToMain();
  const follows = await createFollows(publicDb, deps.keepTopics);
  const orphans = createOrphans(publicDb);
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
  });

  const initialTopicsPull$ = new BehaviorSubject(false);
  void controller.isLeader$
    .pipe(filter(Boolean))
    .forEach(() => {
      const topics = controller.replications().find((rep) => rep.collection === 'topics');
      topics?.state.awaitInitialReplication().then(
        () => initialTopicsPull$.next(true),
        () => {},
      );
    })
    .catch(() => {});
  // Whether a missing topic is really missing: after the first pull, offline, or in a follower tab.
  const topicsKnown$ = combineLatest([initialTopicsPull$, connectivity.online$, controller.isLeader$]).pipe(
    map(([pulled, online, leader]) => pulled || !online || !leader),
  );
  await yieldToMain();
  const queries = createQueries(publicDb, deps.userDb$, follows, topicsKnown$);
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
  const actions = createActions(publicDb, session, { topicsKnown$, online$: connectivity.online$ });
  const fixer = createProblemFixer(publicDb, actions, session);
  return { publicDb, follows, orphans, controller, queries, notifications$, actions, fixer };
}
type World = Awaited<ReturnType<typeof createWorld>>;

export async function createCruxData(options: CruxDataOptions): Promise<CruxData> {
  const dbOptions: DbOptions = {
    storage: options.storage ?? getRxStorageDexie(),
    prefix: options.dbPrefix ?? 'crux',
    devMode: options.devMode ?? import.meta.env?.DEV ?? false,
    multiInstance: options.multiInstance ?? true,
    duplicateInstances: options.duplicateInstances ?? 'close',
  };
  const connectivity = createConnectivity(
    options.events ?? (typeof window !== 'undefined' ? window : undefined),
    options.isOnline ?? (() => (typeof navigator !== 'undefined' ? navigator.onLine : true)),
  );
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const http = createSyncHttp(options.baseUrl, fetchImpl, connectivity);
  const catalog = createSourceCatalog(options.baseUrl, fetchImpl, connectivity.isBrowserOnline);

  let session: CurrentSession | null = null;
  const userDb$ = new BehaviorSubject<UserDb | null>(null);
  const uid$ = new BehaviorSubject<string | null>(null);
  const problems = createProblemRecorder(() => session?.db ?? null);
  const worldDeps: WorldDeps = {
    dbOptions,
    keepTopics: options.keepTopics ?? 50,
    connectivity,
    http,
    problems,
    session: () => session,
    userDb$,
    retryTimeMs: options.retryTimeMs ?? 5000,
  };
  let world = await createWorld(worldDeps);
  const world$ = new BehaviorSubject<World>(world);
  // Data that moves points landed on this device: the open leaderboard and the header's rank
  // ask the server again (someone else passing the user moves their rank, not their points).
  const pointsMoved$ = merge(
    world$.pipe(switchMap((w) => merge(w.publicDb.topics.$, w.publicDb.responses.$))),
    // The user's own profile, and their stances: a Δ credited here moves its author's points.
    userDb$.pipe(switchMap((db) => (db ? merge(db.profile.$, db.stances.$) : EMPTY))),
  );
  const remoteReads = createLeaderboard({
    baseUrl: options.baseUrl,
    fetchImpl,
    online$: connectivity.online$,
    publicDb: () => world.publicDb,
    session: () => session,
    uid$,
    pointsMoved$,
  });
  const sourcesPage = createSources({
    baseUrl: options.baseUrl,
    fetchImpl,
    online$: connectivity.online$,
    publicDb: () => world.publicDb,
  });
  const score$ = createScore({
    baseUrl: options.baseUrl,
    fetchImpl,
    online$: connectivity.online$,
    userDb$,
    uid$,
    session: () => session,
    publicDb: () => world.publicDb,
    pointsMoved$,
  });
  /** A live read of the current world (it changes when the public data is removed from the device). */
  const live = <T>(read: (w: World) => Observable<T>): Observable<T> => world$.pipe(switchMap(read));

  /**
   * The unsent changes of the last session closed without removing its data. When that session
   * ended (the account could no longer get a token) they are still on the device and the status
   * keeps counting them, so "sign in again to send N changes" stays true until that sign-in. Taken
   * at every close, not only after the end was reported: Firebase signs a disabled account out
   * (closing its database) before the refused refresh reaches the request that reports the end.
   */
  const endedPending$ = new BehaviorSubject<number | null>(null);

  const status$: Observable<SyncStatus> = live((w) =>
    combineLatest([
      connectivity.online$,
      w.controller.syncing$,
      w.queries.pendingCount$(),
      connectivity.lastError$,
      connectivity.lastSuccessAt$,
      w.controller.isLeader$,
      connectivity.updateRequired$,
      connectivity.sessionEnded$,
      endedPending$,
      connectivity.rateLimitedUntil$,
    ]).pipe(
      map(
        ([online, syncing, pending, lastError, lastSyncedAt, isLeader, updateRequired, sessionEnded, endedPending, rateLimitedUntil]) => ({
          online,
          syncing,
          pending: sessionEnded && endedPending !== null ? Math.max(pending, endedPending) : pending,
          // Nothing syncs any more, so nothing can clear the message but a reload.
          lastError: updateRequired ? MSG.syncOutdated : lastError,
          lastSyncedAt,
          isLeader,
          updateRequired,
          sessionEnded,
          rateLimitedUntil,
        }),
      ),
    ),
  );

  /** A sign-in or sign-out under way: the next one (and loadDraft) waits for it. */
  let sessionChange: Promise<void> = Promise.resolve();
  const serially = (fn: () => Promise<void>): Promise<void> => {
    const next = sessionChange.then(fn, fn);
    sessionChange = next.catch(() => {});
    return next;
  };

  async function closeSession(removeData: boolean) {
    const current = session;
    if (!current) return;
    if (!removeData) endedPending$.next(await firstValueFrom(world.queries.pendingCount$()));
    session = null;
    userDb$.next(null);
    uid$.next(null);
    await world.controller.setUserDb(null);
    if (removeData) await removeDb(dbOptions, current.db);
    else await current.db.close();
  }

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
    await old.controller.close();
    await old.publicDb.remove();
    world = await createWorld(worldDeps);
    for (const orphan of others) await world.orphans.keep(orphan);
    world$.next(world);
  }

  const signOut = (signOutOptions: { removeData?: boolean } = {}) =>
    serially(async () => {
      const uid = session?.uid ?? null;
      await closeSession(signOutOptions.removeData === true);
      if (signOutOptions.removeData) {
        connectivity.clearSessionEnded();
        endedPending$.next(null);
        if (uid) await removePublicData(uid);
      }
    });

  async function viewOf<T>(source: Observable<T | null | undefined>): Promise<T> {
    return firstValueFrom(source.pipe(filter((value): value is T => value !== null && value !== undefined)));
  }

  const signedInSession = () => {
    if (!session) throw unauthorized(MSG.loginToSeeNotifications);
    return session;
  };

  /**
   * A write made as the signed-in user: after the sign-in under way (on a reload the user's
   * database opens a moment after the screen knows who is signed in, and a click in that moment
   * would be refused as "log in" and lost).
   */
  const asUser =
    <A extends unknown[], R>(write: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      await sessionChange;
      return write(...args);
    };

  // The screens waiting for the data layer switch to it when this resolves: in a task of their own.
  await yieldToMain();
  return {
    signIn: (user) =>
      serially(async () => {
        // Signing in again is how an ended session resumes: the queued changes go out.
        const resumed = connectivity.isSessionEnded();
        connectivity.clearSessionEnded();
        endedPending$.next(null);
        if (session?.uid === user.uid) {
          session.getToken = user.getToken;
          if (resumed) world.controller.resyncAll();
          return;
        }
        await closeSession(false);
        const db = await openUserDb(dbOptions, user.uid);
        session = { uid: user.uid, db, getToken: user.getToken };
        userDb$.next(db);
        uid$.next(user.uid);
        await world.orphans.adopt(user.uid, problems);
        await world.controller.setUserDb(db);
      }),
    signOut,
    uid$,
    status$,
    topics$: (query) => live((w) => w.queries.topics$(query)),
    topic$: (topicId) => live((w) => w.queries.topic$(topicId)),
    rootResponses$: (topicId, order) => live((w) => w.queries.rootResponses$(topicId, order)),
    replies$: (responseId) => live((w) => w.queries.replies$(responseId)),
    topicResponses$: (topicId) => live((w) => w.queries.topicResponses$(topicId)),
    responseBalance$: (topicId) => live((w) => w.queries.responseBalance$(topicId)),
    stance$: (topicId) => live((w) => w.queries.stance$(topicId)),
    ancestorPath: (responseId) => world.queries.ancestorPath(responseId),
    notifications$: () => live((w) => w.notifications$()),
    unreadCount$: () => live((w) => w.queries.unreadCount$()),
    preferences$: () => live((w) => w.queries.preferences$(uid$)),
    syncProblems$: () => live((w) => w.queries.syncProblems$()),
    savedTopics$: () => live((w) => w.follows.saved$),
    searchSources: catalog.searchSources,
    sources$: (query) => sourcesPage.sources$(query),
    sourceCitations: (sourceId, offset) => sourcesPage.citations(sourceId, offset),
    leaderboard$: () => remoteReads.leaderboard$(),
    score$,
    userProfile$: (uid) => remoteReads.userProfile$(uid),

    createTopic: asUser(async (input: NewTopicInput) => {
      const w = world;
      const id = await w.actions.createTopic(input);
      return viewOf(w.queries.topic$(id));
    }),
    deleteTopic: asUser((topicId: string) => world.actions.deleteTopic(topicId)),
    createResponse: asUser(async (input: NewResponseInput) => {
      const w = world;
      const id = await w.actions.createResponse(input);
      await w.follows.open(input.topicId);
      const views = await firstValueFrom(w.queries.topicResponses$(input.topicId).pipe(filter((list) => list.some((r) => r.id === id))));
      return views.find((r) => r.id === id)!;
    }),
    editResponse: asUser((responseId: string, input: EditResponseInput) => world.actions.editResponse(responseId, input)),
    deleteResponse: asUser((responseId: string) => world.actions.deleteResponse(responseId)),
    toggleVote: asUser((targetType: TargetType, targetId: string) => world.actions.toggleVote(targetType, targetId)),
    setStance: asUser((topicId: string, stance: Stance) => world.actions.setStance(topicId, stance)),
    creditDeltas: asUser((topicId: string, responseIds: string[]) => world.actions.creditDeltas(topicId, responseIds)),
    markRead: asUser((notificationId: string) => world.actions.markRead(notificationId)),
    markAllRead: asUser(() => world.actions.markAllRead()),
    setWeeklySummary: asUser((receive: boolean) => world.actions.setWeeklySummary(receive)),
    async saveDraft(key, text, extra) {
      await sessionChange;
      return world.actions.saveDraft(key, text, extra);
    },
    async loadDraft(key) {
      // On a reload the composer asks before the user's database is open: wait for the sign-in.
      await sessionChange;
      return world.actions.loadDraft(key);
    },
    async deleteDraft(key) {
      await sessionChange;
      return world.actions.deleteDraft(key);
    },
    async openTopic(topicId) {
      await world.follows.open(topicId);
      world.controller.resyncResponses();
    },
    async saveTopicOffline(topicId, saved) {
      await world.follows.setSaved(topicId, saved);
      world.controller.resyncResponses();
    },
    fixProblem: (problemId, patch) => world.fixer.fix(problemId, patch),
    resolveConflict: (problemId, choice) => world.fixer.resolveConflict(problemId, choice),
    async discardProblem(problemId) {
      const doc = session ? await session.db.sync_problems.findOne(problemId).exec() : null;
      if (!doc) throw notFound('This problem no longer exists.');
      await doc.remove();
    },
    async exportMyData() {
      await sessionChange;
      return exportMyData(world.publicDb, signedInSession());
    },
    async importDrafts(exported) {
      await sessionChange;
      return importDrafts(signedInSession(), exported);
    },
    async close() {
      await world.controller.close();
      connectivity.dispose();
      await serially(() => closeSession(false));
      await world.publicDb.close();
    },
  };
}
