// The reads of CruxData: live queries of the local databases (followed into a new public database
// when the old one is removed), and the pages only the server can answer (leaderboard, a user's
// page, the sources and the header's score), kept for offline reading. Those ask whenever the
// browser is online: their answer (or its failure) is itself what tells whether the server is there.
import { EMPTY, merge, switchMap } from 'rxjs';
import type { CruxData } from './api.js';
import { createSourceCatalog } from './catalog.js';
import type { Connectivity } from './connectivity.js';
import type { Http } from './http.js';
import { createLeaderboard } from './leaderboard.js';
import { createModeration } from './moderation.js';
import { createScore } from './score.js';
import type { SessionState } from './session.js';
import { createSources } from './sources.js';
import type { Worlds } from './world.js';

interface ReadDeps {
  http: Http;
  connectivity: Connectivity;
  worlds: Worlds;
  session: SessionState;
}

export function createReads({ http, connectivity, worlds, session }: ReadDeps) {
  const { live } = worlds;
  const publicDb = () => worlds.current().publicDb;
  const current = () => session.current();
  // Data that moves points landed on this device: the open leaderboard and the header's rank
  // ask the server again (someone else passing the user moves their rank, not their points).
  const pointsMoved$ = merge(
    worlds.world$.pipe(switchMap((w) => merge(w.publicDb.topics.$, w.publicDb.responses.$))),
    // The user's own profile, and their stances: a Δ credited here moves its author's points.
    session.userDb$.pipe(switchMap((db) => (db ? merge(db.profile.$, db.stances.$) : EMPTY))),
  );
  const online$ = connectivity.browserOnline$;
  const catalog = createSourceCatalog(http);
  const remoteReads = createLeaderboard({ http, online$, publicDb, session: current, uid$: session.uid$, pointsMoved$ });
  const sourcesPage = createSources({ http, online$, publicDb });
  const score$ = createScore({
    http,
    online$,
    userDb$: session.userDb$,
    uid$: session.uid$,
    session: current,
    publicDb,
    pointsMoved$,
  });

  const moderation = createModeration({ http, session: current, userDb$: session.userDb$, uid$: session.uid$ });

  return {
    ...moderation,
    uid$: session.uid$,
    topics$: (query) => live((w) => w.queries.topics$(query)),
    topicList$: (query) => live((w) => w.queries.topicList$(query)),
    deviceStorage$: () => live((w) => w.workingSet.usage$),
    setStorageBudget: (bytes) => worlds.current().workingSet.setBudget(bytes),
    topic$: (topicId) => live((w) => w.queries.topic$(topicId)),
    rootResponses$: (topicId, order) => live((w) => w.queries.rootResponses$(topicId, order)),
    replies$: (responseId) => live((w) => w.queries.replies$(responseId)),
    topicResponses$: (topicId) => live((w) => w.queries.topicResponses$(topicId)),
    responseBalance$: (topicId) => live((w) => w.queries.responseBalance$(topicId)),
    stance$: (topicId) => live((w) => w.queries.stance$(topicId)),
    ancestorPath: (responseId) => worlds.current().queries.ancestorPath(responseId),
    notifications$: () => live((w) => w.notifications$()),
    blockedUsers$: () => live((w) => w.queries.blockedUsers$()),
    blockedUids$: () => live((w) => w.queries.blockedUids$()),
    follows$: () => live((w) => w.queries.follows$()),
    unreadCount$: () => live((w) => w.queries.unreadCount$()),
    preferences$: () => live((w) => w.queries.preferences$(session.uid$)),
    pushSettings$: () => live((w) => w.queries.pushSettings$(session.uid$)),
    syncProblems$: () => live((w) => w.queries.syncProblems$()),
    savedTopics$: () => live((w) => w.follows.saved$),
    searchSources: catalog.searchSources,
    sources$: (query) => sourcesPage.sources$(query),
    sourceCitations: (sourceId, offset) => sourcesPage.citations(sourceId, offset),
    leaderboard$: () => remoteReads.leaderboard$(),
    score$,
    userProfile$: (uid) => remoteReads.userProfile$(uid),
  } satisfies Partial<CruxData>;
}
