// A CruxData usable before the local database has opened (first load): the shell
// renders at once from a small entry while the data layer (RxDB, Dexie, the replication) loads
// as its own chunk. Reads subscribe to the real data layer's observable once it is there; calls
// wait for it. Nothing is queued twice or lost: each call or subscription maps to exactly one
// on the real object. A call made as the user also waits for the sign-in under way: the real one
// does that (session.ts), so it is not done here.
//
// Below: every member of CruxData and its kind, listed once. The layers that stand in for the data layer
// or sit in front of it are built from this table, member by member: the deferred layer (what it
// forwards, and how), the stand-in when the database cannot open (what fails, what is a no-op), the
// test fake (what a screen gets by default), and the real one (which calls wait for the sign-in
// under way, session.ts). A member added to CruxData without a row here does not compile.
// Types only from the data layer: the entry imports this before the data layer's chunk loads.
import { concatMap, defer, from, shareReplay, switchMap, type Observable } from 'rxjs';
import type { CruxData } from './api.js';
import type { FirstPageReads } from './first-page.js';
import { yieldToMain } from './yield.js';

export type MemberKind =
  /** An observable itself (status$). */
  | 'value'
  /** uid$: who is signed in (an observable itself). With no database open, nobody. */
  | 'identity'
  /** A function returning a live read (an observable). */
  | 'read'
  /** A read shown on every page (the header's score): with no database open it shows nothing (null), not an error. */
  | 'quiet-read'
  /** A function returning a promise that needs no signed-in user, or only one already on screen (a sync problem). */
  | 'call'
  /**
   * A function returning a promise made as the signed-in user (their own data, and every write):
   * it waits for a sign-in under way (session.ts), or on a reload a click made before the user's
   * database opened would be refused as "log in" and lost.
   */
  | 'user-call'
  /** signOut and close: with no database open there is nothing to close, so they resolve. */
  | 'teardown';

export const CRUX_DATA_MEMBERS = {
  signIn: 'call',
  signOut: 'teardown',
  uid$: 'identity',
  status$: 'value',

  topics$: 'read',
  topicList$: 'read',
  deviceStorage$: 'read',
  setStorageBudget: 'call',
  topic$: 'read',
  rootResponses$: 'read',
  replies$: 'read',
  topicResponses$: 'read',
  responseBalance$: 'read',
  stance$: 'read',
  ancestorPath: 'call',
  notifications$: 'read',
  unreadCount$: 'read',
  preferences$: 'read',
  pushSettings$: 'read',
  syncProblems$: 'read',
  storageNote$: 'quiet-read',
  savedTopics$: 'read',
  sourceCitations: 'call',
  searchSources: 'call',
  sources$: 'read',
  leaderboard$: 'read',
  userProfile$: 'read',
  score$: 'quiet-read',
  blockedUsers$: 'read',
  blockedUids$: 'quiet-read',
  follows$: 'quiet-read',
  myAccount$: 'quiet-read',
  moderationQueue: 'user-call',
  moderate: 'user-call',
  moderationLog: 'user-call',
  moderatedOriginal: 'user-call',
  moderatedUser: 'user-call',
  setUserRole: 'user-call',
  deleteAccount: 'user-call',
  pushPublicKey: 'call',
  savePushSubscription: 'user-call',
  removePushSubscription: 'user-call',
  confirmUnsubscribe: 'call',

  createTopic: 'user-call',
  deleteTopic: 'user-call',
  createResponse: 'user-call',
  editResponse: 'user-call',
  deleteResponse: 'user-call',
  toggleVote: 'user-call',
  castVote: 'user-call',
  setStance: 'user-call',
  creditDeltas: 'user-call',
  blockUser: 'user-call',
  unblockUser: 'user-call',
  followTopic: 'user-call',
  unfollowTopic: 'user-call',
  report: 'user-call',
  markRead: 'user-call',
  markAllRead: 'user-call',
  setWeeklySummary: 'user-call',
  setPushSettings: 'user-call',
  saveDraft: 'user-call',
  loadDraft: 'user-call',
  deleteDraft: 'user-call',
  unsentDrafts: 'user-call',
  adoptDraft: 'user-call',
  discardDraft: 'user-call',
  exportMyData: 'user-call',
  importDrafts: 'user-call',
  openTopic: 'call',
  saveTopicOffline: 'call',
  fixProblem: 'call',
  resolveConflict: 'call',
  discardProblem: 'call',

  close: 'teardown',
} as const satisfies Record<keyof CruxData, MemberKind>;

/**
 * A CruxData built member by member from each one's kind. The builder answers for the signatures
 * (a member of a kind has the shape the kind says); the table's `satisfies` that none is missing.
 */
export function buildByKind(member: (key: keyof CruxData, kind: MemberKind) => unknown): CruxData {
  const data: Partial<Record<keyof CruxData, unknown>> = {};
  for (const key of Object.keys(CRUX_DATA_MEMBERS) as (keyof CruxData)[]) data[key] = member(key, CRUX_DATA_MEMBERS[key]);
  return data as CruxData;
}

type AnyFunction = (...args: unknown[]) => unknown;

export function deferredData(ready: Promise<CruxData>, firstPage?: FirstPageReads): CruxData {
  const opened$ = from(ready).pipe(shareReplay({ bufferSize: 1, refCount: false }));
  let opened = false;
  void ready.then(
    () => (opened = true),
    () => undefined,
  );
  // The reads on screen while the data layer opens each switch to the real one in a task of their
  // own: all at once (their queries, their requests, their first values) they were one task of
  // 100 ms and more on a phone-class CPU. A read subscribed later switches at once.
  const inTurn$ = opened$.pipe(
    concatMap(async (data) => {
      await yieldToMain();
      return data;
    }),
  );
  const data$ = defer(() => (opened ? opened$ : inTurn$));
  // Keyed access keeps `this`; the real implementation answers for each member's signature.
  const observable = (key: keyof CruxData) => data$.pipe(switchMap((data) => data[key] as Observable<unknown>));
  const read =
    (key: keyof CruxData) =>
    (...args: unknown[]) =>
      data$.pipe(switchMap((data) => (data[key] as AnyFunction)(...args) as Observable<unknown>));
  const call =
    (key: keyof CruxData) =>
    async (...args: unknown[]) =>
      ((await ready)[key] as AnyFunction)(...args);
  const byKind: Record<MemberKind, (key: keyof CruxData) => unknown> = {
    value: observable,
    identity: observable,
    read,
    'quiet-read': read,
    call,
    'user-call': call,
    teardown: call,
  };
  const deferred = buildByKind((key, kind) => byKind[kind](key));
  if (firstPage) {
    // A first visit's page came with its first screen: shown until the local store has it.
    const real = { topics$: deferred.topics$, topic$: deferred.topic$, rootResponses$: deferred.rootResponses$ };
    deferred.topics$ = (query = {}) => firstPage.topics$(query, real.topics$(query));
    deferred.topic$ = (topicId) => firstPage.topic$(topicId, real.topic$(topicId));
    // The page's first screen is in the default order: another order reads the local store alone.
    deferred.rootResponses$ = (topicId, order = 'default') =>
      order === 'default' ? firstPage.rootResponses$(topicId, real.rootResponses$(topicId, order)) : real.rootResponses$(topicId, order);
  }
  return deferred;
}
