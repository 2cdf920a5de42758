// Runs the replications and the live stream in one tab per browser (the public
// database's leader), pauses them when offline (the 'offline' event or any
// failed request) and resumes them on 'online' or a successful retry, and
// surfaces their state for the UI.
import { BehaviorSubject, combineLatest, distinctUntilChanged, map, of, switchMap, type Observable, type Subscription } from 'rxjs';
import type { StreamEvent } from '../../../shared/sync-protocol.js';
import type { Connectivity } from './connectivity.js';
import type { PublicDb, UserDb } from './db.js';
import type { Follows } from './follows.js';
import type { SyncHttp, TokenSource } from './http.js';
import { createLiveStream } from './live-stream.js';
import type { Orphans } from './orphans.js';
import type { ProblemRecorder } from './problems.js';
import { replicate, type CollectionReplication } from './replication.js';
import { createDependencyWaiter } from './dependencies.js';

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
}

export function createSyncController(deps: SyncControllerDeps) {
  const { connectivity } = deps;
  const isLeader$ = new BehaviorSubject(false);
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
  const waitFor = createDependencyWaiter(deps.publicDb);

  const publicCommon = { ...common, uid: deps.uid, orphans: deps.orphans };
  const publicReps = [
    replicate('topics', deps.publicDb.topics, publicCommon),
    replicate('responses', deps.publicDb.responses, {
      ...publicCommon,
      followedTopics: () => deps.follows.current(),
      waitForDependencies: waitFor.responses,
    }),
  ];
  let userReps: CollectionReplication[] = [];
  const all = () => [...publicReps, ...userReps];
  replications$.next(all());

  const stream = createLiveStream({
    http: deps.http,
    connectivity,
    token: deps.token,
    topics: () => deps.follows.current(),
    onEvent: (event: StreamEvent, { deliberate }) => {
      // A connection we replaced on purpose (new followed topics or user) only needs
      // the responses pulled again (the user's own replications start afresh);
      // after a failure, everything is pulled again from its checkpoint.
      const wanted = event.collection === '*' && deliberate ? 'responses' : event.collection;
      for (const rep of all()) if (wanted === '*' || wanted === rep.collection) rep.resync();
    },
    retryTimeMs: deps.retryTimeMs,
  });

  const running = () => isLeader$.value && connectivity.isOnline() && !closed;
  const startAll = () => {
    for (const rep of all()) if (!rep.state.isStopped()) rep.state.start().catch(() => {});
  };
  const pauseAll = () => {
    for (const rep of all()) if (rep.state.internalReplicationState) rep.state.pause().catch(() => {});
  };

  subs.push(
    connectivity.online$.subscribe((online) => {
      if (!isLeader$.value || closed) return;
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
      if (!isLeader$.value || closed) return;
      if (browserOnline) stream.start();
      else stream.stop();
    }),
    // A newly followed topic: the stream must carry it, and its responses be pulled.
    deps.follows.changes$.pipe(map((ids) => ids.join(',')), distinctUntilChanged()).subscribe(() => {
      stream.restart();
      publicReps[1]!.resync();
    }),
  );

  // Only the leader replicates (RxDB's leader election over the public database).
  void deps.publicDb.waitForLeadership().then(
    () => {
      if (closed) return;
      isLeader$.next(true);
      if (connectivity.isBrowserOnline()) stream.start();
      if (running()) startAll();
    },
    () => {},
  );

  return {
    isLeader$,
    /** Replications of the signed-in user's collections (none when signed out). */
    async setUserDb(userDb: UserDb | null) {
      const old = userReps;
      userReps = [];
      await Promise.all(old.map((rep) => rep.state.cancel()));
      if (userDb) {
        userReps = [
          replicate('votes', userDb.votes, { ...common, waitForDependencies: waitFor.votes }),
          replicate('notifications', userDb.notifications, common),
          replicate('profile', userDb.profile, common),
        ];
      }
      replications$.next(all());
      if (running()) startAll();
      // The stream's private events follow the bearer: reconnect with the new user.
      stream.restart();
      // Pending public writes may have waited for a signed-in user.
      for (const rep of publicReps) rep.resync();
    },
    resyncResponses: () => publicReps[1]!.resync(),
    syncing$: replications$.pipe(
      switchMap((reps) => (reps.length ? combineLatest(reps.map((rep) => rep.state.active$)) : of([false]))),
      map((active) => active.some(Boolean)),
      distinctUntilChanged(),
    ) as Observable<boolean>,
    replications: all,
    async close() {
      closed = true;
      stream.stop();
      subs.forEach((sub) => sub.unsubscribe());
      await Promise.all(all().map((rep) => rep.state.cancel()));
    },
  };
}

export type SyncController = ReturnType<typeof createSyncController>;
