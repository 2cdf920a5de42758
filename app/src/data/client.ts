// Builds a CruxData: the local databases, the replication controller, the read
// queries and the write actions, wired to the signed-in user.
import { BehaviorSubject, combineLatest, firstValueFrom, filter, map, type Observable } from 'rxjs';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { SYNC_PROTOCOL_VERSION } from '../../../shared/sync-protocol.js';
import { createActions, type Session } from './actions.js';
import type { CruxData, CruxDataOptions, SessionUser, SyncStatus } from './api.js';
import { createSourceCatalog } from './catalog.js';
import { createConnectivity } from './connectivity.js';
import { openPublicDb, openUserDb, type UserDb } from './db.js';
import { notFound } from '../../../shared/errors.js';
import { MSG } from '../../../shared/messages.js';
import { createFollows } from './follows.js';
import { createSyncHttp } from './http.js';
import { createOrphans } from './orphans.js';
import { createProblemRecorder } from './problems.js';
import { createQueries } from './queries.js';
import { createSyncController } from './sync-controller.js';
import { createProblemFixer } from './fix-problem.js';

export async function createCruxData(options: CruxDataOptions): Promise<CruxData> {
  const dbOptions = {
    storage: options.storage ?? getRxStorageDexie(),
    prefix: options.dbPrefix ?? 'crux',
    devMode: options.devMode ?? import.meta.env?.DEV ?? false,
    multiInstance: options.multiInstance ?? true,
    duplicateInstances: options.duplicateInstances ?? 'close',
  };
  const retryTimeMs = options.retryTimeMs ?? 5000;
  const publicDb = await openPublicDb(dbOptions);
  const follows = await createFollows(publicDb, options.keepTopics ?? 50);
  const connectivity = createConnectivity(
    options.events ?? (typeof window !== 'undefined' ? window : undefined),
    options.isOnline ?? (() => (typeof navigator !== 'undefined' ? navigator.onLine : true)),
  );
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const http = createSyncHttp(options.baseUrl, fetchImpl, connectivity);
  const catalog = createSourceCatalog(options.baseUrl, fetchImpl, connectivity.isBrowserOnline);

  let session: (Session & { getToken: SessionUser['getToken'] }) | null = null;
  const userDb$ = new BehaviorSubject<UserDb | null>(null);
  const uid$ = new BehaviorSubject<string | null>(null);
  const problems = createProblemRecorder(() => session?.db ?? null);
  const orphans = createOrphans(publicDb);
  const controller = createSyncController({
    publicDb,
    http,
    connectivity,
    follows,
    problems,
    // A fresh token per request: whatever the current user's getToken gives now.
    token: () => (session ? (force?: boolean) => session!.getToken(force) : null),
    uid: () => session?.uid ?? null,
    orphans,
    identifierPrefix: `crux-sync-v${SYNC_PROTOCOL_VERSION}`,
    retryTimeMs,
  });

  const initialTopicsPull$ = new BehaviorSubject(false);
  void controller.isLeader$
    .pipe(filter(Boolean))
    .forEach(() => {
      const topics = controller.replications().find((rep) => rep.collection === 'topics');
      topics?.state.awaitInitialReplication().then(() => initialTopicsPull$.next(true), () => {});
    })
    .catch(() => {});
  // Whether a missing topic is really missing: after the first pull, offline, or in a follower tab.
  const topicsKnown$ = combineLatest([initialTopicsPull$, connectivity.online$, controller.isLeader$]).pipe(
    map(([pulled, online, leader]) => pulled || !online || !leader),
  );

  const queries = createQueries(publicDb, userDb$, follows, topicsKnown$);
  const actions = createActions(publicDb, () => session);
  const fixer = createProblemFixer(actions, () => session);

  const status$: Observable<SyncStatus> = combineLatest([
    connectivity.online$,
    controller.syncing$,
    queries.pendingCount$(),
    connectivity.lastError$,
    connectivity.lastSuccessAt$,
    controller.isLeader$,
    connectivity.updateRequired$,
  ]).pipe(
    map(([online, syncing, pending, lastError, lastSyncedAt, isLeader, updateRequired]) => ({
      online,
      syncing,
      pending,
      // Nothing syncs any more, so nothing can clear the message but a reload.
      lastError: updateRequired ? MSG.syncOutdated : lastError,
      lastSyncedAt,
      isLeader,
      updateRequired,
    })),
  );

  async function signOut() {
    const current = session;
    if (!current) return;
    session = null;
    userDb$.next(null);
    uid$.next(null);
    await controller.setUserDb(null);
    await current.db.close();
  }

  async function viewOf<T>(source: Observable<T | null | undefined>): Promise<T> {
    return firstValueFrom(source.pipe(filter((value): value is T => value !== null && value !== undefined)));
  }

  return {
    async signIn(user) {
      if (session?.uid === user.uid) {
        session.getToken = user.getToken;
        return;
      }
      await signOut();
      const db = await openUserDb(dbOptions, user.uid);
      session = { uid: user.uid, db, getToken: user.getToken };
      userDb$.next(db);
      uid$.next(user.uid);
      await orphans.adopt(user.uid, problems);
      await controller.setUserDb(db);
    },
    signOut,
    uid$,
    status$,
    topics$: queries.topics$,
    topic$: queries.topic$,
    rootResponses$: queries.rootResponses$,
    replies$: queries.replies$,
    topicResponses$: queries.topicResponses$,
    ancestorPath: queries.ancestorPath,
    notifications$: queries.notifications$,
    unreadCount$: queries.unreadCount$,
    preferences$: () => queries.preferences$(uid$),
    syncProblems$: queries.syncProblems$,
    savedTopics$: () => follows.saved$,
    searchSources: catalog.searchSources,

    async createTopic(input) {
      const id = await actions.createTopic(input);
      return viewOf(queries.topic$(id));
    },
    deleteTopic: actions.deleteTopic,
    async createResponse(input) {
      const id = await actions.createResponse(input);
      await follows.open(input.topicId);
      const views = await firstValueFrom(
        queries.topicResponses$(input.topicId).pipe(filter((list) => list.some((r) => r.id === id))),
      );
      return views.find((r) => r.id === id)!;
    },
    editResponse: actions.editResponse,
    deleteResponse: actions.deleteResponse,
    toggleVote: actions.toggleVote,
    markRead: actions.markRead,
    markAllRead: actions.markAllRead,
    setWeeklySummary: actions.setWeeklySummary,
    saveDraft: actions.saveDraft,
    loadDraft: actions.loadDraft,
    deleteDraft: actions.deleteDraft,
    async openTopic(topicId) {
      await follows.open(topicId);
      controller.resyncResponses();
    },
    async saveTopicOffline(topicId, saved) {
      await follows.setSaved(topicId, saved);
      controller.resyncResponses();
    },
    fixProblem: fixer.fix,
    async discardProblem(problemId) {
      const doc = session ? await session.db.sync_problems.findOne(problemId).exec() : null;
      if (!doc) throw notFound('This problem no longer exists.');
      await doc.remove();
    },
    async close() {
      await controller.close();
      connectivity.dispose();
      await signOut();
      await publicDb.close();
    },
  };
}
