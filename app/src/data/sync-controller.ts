// Runs the replications and the live stream in one tab per browser (the public
// database's leader), pauses them when offline (the 'offline' event or any
// failed request) and resumes them on 'online' or a successful retry, and
// surfaces their state for the UI.
import {
  BehaviorSubject,
  combineLatest,
  defaultIfEmpty,
  distinctUntilChanged,
  filter,
  from,
  map,
  of,
  startWith,
  Subject,
  switchMap,
  type Observable,
  type Subscription,
} from 'rxjs';
import type { RxCollection } from 'rxdb';
import { SYNC_COLLECTIONS, type StreamEvent, type SyncCollection } from '../../../shared/sync-protocol.js';
import { storedIn, SYNCED } from './collections/index.js';
import type { Connectivity } from './connectivity.js';
import type { PublicDb, UserDb } from './db.js';
import type { Follows } from './follows.js';
import type { SyncHttp, TokenSource } from './http.js';
import { createLiveStream } from './live-stream.js';
import type { Orphans } from './orphans.js';
import type { ProblemRecorder } from './problems.js';
import { replicate, type CollectionReplication, type ReplicationDeps } from './replication.js';
import { createDependencyWaiter } from './dependencies.js';
import type { WorkingSet } from './working-set.js';

export interface SyncControllerDeps {
  publicDb: PublicDb;
  http: SyncHttp;
  connectivity: Connectivity;
  follows: Follows;
  problems: ProblemRecorder;
  token: () => TokenSource | null;
  uid: () => string | null;
  orphans: Orphans;
  identifierPrefix: string;
  retryTimeMs: number;
  /** The topics the device keeps: pulled by id (working-set.ts). */
  workingSet: WorkingSet;
}

export function createSyncController(deps: SyncControllerDeps) {
  const { connectivity } = deps;
  const isLeader$ = new BehaviorSubject(false);
  /** The live stream said topics changed: the lists on screen read their pages again. */
  const topicsChanged$ = new Subject<void>();
  const replications$ = new BehaviorSubject<CollectionReplication[]>([]);
  let closed = false;
  const subs: Subscription[] = [];
  const common = {
    http: deps.http,
    token: deps.token,
    problems: deps.problems,
    identifierPrefix: deps.identifierPrefix,
    retryTimeMs: deps.retryTimeMs,
  };
  const order = createDependencyWaiter(deps.publicDb);
  /**
   * The synced collections a database holds (keyed by local collection: `marks` holds three),
   * replicated in dependency order (SYNC_COLLECTIONS).
   */
  const replicateAll = (collections: Partial<Record<string, RxCollection>>, extra: Partial<ReplicationDeps> = {}) =>
    SYNC_COLLECTIONS.flatMap((name) => {
      const collection = collections[storedIn(name)];
      if (!collection) return [];
      return [
        replicate(name, collection, {
          ...common,
          ...extra,
          followedTopics: () => deps.follows.current(),
          keptTopics: deps.workingSet,
          topicsPulled: (topicIds) => deps.follows.markPulled(topicIds),
          dependencies: {
            wait: (docs) => order.wait(name, docs, collections),
            heldBack: (doc) => order.heldBack(name, doc, collections),
            landed: (docs) => order.landed(name, docs),
          },
        }),
      ];
    });

  const publicReps = replicateAll(deps.publicDb.collections, { uid: deps.uid, orphans: deps.orphans });
  /** Replications that pull the followed topics only: a new followed topic needs them again. */
  const resyncFollowed = () => {
    for (const rep of publicReps) if (SYNCED[rep.collection].sync.pull === 'followed-topics') rep.resync();
  };
  let userReps: CollectionReplication[] = [];
  const all = () => [...publicReps, ...userReps];
  replications$.next(all());

  const stream = createLiveStream({
    http: deps.http,
    connectivity,
    token: deps.token,
    topics: () => deps.follows.current(),
    onEvent: (event: StreamEvent) => {
      // Topics: the kept ones by id. A new connection may have missed changes to any of them; a
      // change while connected is pulled for what is on screen and opened (the rest when shown).
      if (event.collection === '*') deps.workingSet.markAllStale();
      if (event.collection === '*' || event.collection === 'topics') {
        deps.workingSet.markShownStale();
        topicsChanged$.next();
      }
      // '*' opens every connection, a replaced one too (new followed topics or user): a change
      // committed while no connection was open was announced to nobody, so everything is
      // pulled again from its checkpoint (an empty page when nothing was missed).
      for (const rep of all()) if (event.collection === '*' || event.collection === rep.collection) rep.resync();
    },
    retryTimeMs: deps.retryTimeMs,
  });

  const running = () => isLeader$.value && connectivity.isOnline() && !closed && !connectivity.isOutdated();
  const startAll = () => {
    for (const rep of all()) {
      if (rep.state.isStopped()) continue;
      rep.state.start().catch(() => {});
      // Each start looks for the pending changes again (those made while paused included).
      rep.outbox.start();
    }
  };
  const pauseAll = () => {
    for (const rep of all()) {
      rep.outbox.pause();
      if (rep.state.internalReplicationState) rep.state.pause().catch(() => {});
    }
  };
  const cancel = (rep: CollectionReplication) => {
    rep.outbox.cancel();
    return rep.state.cancel();
  };

  subs.push(
    connectivity.online$.subscribe((online) => {
      if (!isLeader$.value || closed || connectivity.isOutdated()) return;
      if (online) {
        startAll();
      } else {
        pauseAll();
        // A failed request with the browser still online: the stream's reconnect
        // loop becomes the probe whose first success resumes everything.
        if (connectivity.isBrowserOnline()) stream.restart();
      }
    }),
    // 'offline' closes the live stream at once; 'online' opens it again.
    connectivity.browserOnline$.pipe(distinctUntilChanged()).subscribe((browserOnline) => {
      if (!isLeader$.value || closed || connectivity.isOutdated()) return;
      if (browserOnline) stream.start();
      else stream.stop();
    }),
    // The server speaks a newer sync protocol: stop for good (until the page reloads
    // with the new app) rather than retry. The local changes stay `pending` in their
    // collections, so the new app sends them: nothing queued is dropped.
    connectivity.updateRequired$.pipe(filter(Boolean)).subscribe(() => {
      stream.stop();
      for (const rep of all()) cancel(rep).catch(() => {});
    }),
    // An ended session: the stream reconnects without the refused token (public events only).
    connectivity.sessionEnded$.pipe(distinctUntilChanged(), filter(Boolean)).subscribe(() => stream.restart()),
    // A kept topic shown again: the topics replication pulls it (only when this tab syncs).
    deps.workingSet.pullWanted$.subscribe(() => {
      if (!running()) return;
      for (const rep of publicReps) if (SYNCED[rep.collection].sync.pull === 'kept-topics') rep.resync();
    }),
    // A newly followed topic: the stream must carry it, and its responses be pulled.
    deps.follows.changes$
      .pipe(
        map((ids) => ids.join(',')),
        distinctUntilChanged(),
      )
      .subscribe(() => {
        stream.restart();
        resyncFollowed();
      }),
  );

  // Only the leader replicates (RxDB's leader election over the public database).
  void deps.publicDb.waitForLeadership().then(
    () => {
      if (closed) return;
      isLeader$.next(true);
      if (connectivity.isBrowserOnline() && !connectivity.isOutdated()) stream.start();
      if (running()) startAll();
    },
    () => {},
  );

  return {
    isLeader$,
    topicsChanged$: topicsChanged$.asObservable(),
    /** Replications of the signed-in user's collections (none when signed out). */
    async setUserDb(userDb: UserDb | null) {
      const old = userReps;
      userReps = [];
      await Promise.all(old.map(cancel));
      if (userDb) userReps = replicateAll(userDb.collections);
      replications$.next(all());
      if (running()) startAll();
      // The stream's private events follow the bearer: reconnect with the new user.
      stream.restart();
      // Pending public writes may have waited for a signed-in user.
      for (const rep of publicReps) rep.resync();
    },
    resyncResponses: resyncFollowed,
    /** Pulls everything again and retries waiting pushes (an ended session signed in again). */
    resyncAll() {
      stream.restart();
      for (const rep of all()) {
        rep.resync();
        if (running()) rep.state.reSync();
      }
    },
    syncing$: replications$.pipe(
      // A cancelled replication's active$ completes without a value (426 cancels them
      // all): it counts as idle, or the combined status would never emit again.
      switchMap((reps) => {
        const actives = reps.flatMap((rep) => [rep.state.active$.pipe(defaultIfEmpty(false)), rep.outbox.active$]);
        return actives.length ? combineLatest(actives) : of([false]);
      }),
      map((active) => active.some(Boolean)),
      distinctUntilChanged(),
    ),
    replications: all,
    /**
     * Whether `collection` (of the current replications: a user collection follows the signed-in
     * user) has been pulled once since it started: false while it has not, or while it does not
     * exist (signed out), so an empty list is not yet taken for "none".
     */
    pulledOnce$(collection: SyncCollection): Observable<boolean> {
      return replications$.pipe(
        switchMap((reps) => {
          const rep = reps.find((r) => r.collection === collection);
          if (!rep) return of(false);
          return from(
            rep.state.awaitInitialReplication().then(
              () => true,
              () => false,
            ),
          ).pipe(startWith(false));
        }),
        distinctUntilChanged(),
      );
    },
    async close() {
      closed = true;
      stream.stop();
      subs.forEach((sub) => sub.unsubscribe());
      await Promise.all(all().map(cancel));
    },
  };
}

export type SyncController = ReturnType<typeof createSyncController>;
