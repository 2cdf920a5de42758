// A CruxData usable before the local database has opened (issue 12, first load): the shell
// renders at once from a small entry while the data layer (RxDB, Dexie, the replication) loads
// as its own chunk. Reads subscribe to the real data layer's observable once it is there; calls
// wait for it. Nothing is queued twice or lost: each call or subscription maps to exactly one
// on the real object.
import { from, shareReplay, switchMap, type Observable } from 'rxjs';
import type { CruxData } from '../data';
import type { FirstPageReads } from './first-page';

/** The members of CruxData that are observables themselves (not functions returning one). */
type ObservableKeys = 'uid$' | 'status$';
type FunctionKeys = Exclude<keyof CruxData, ObservableKeys>;
type AnyFunction = (...args: unknown[]) => unknown;

/**
 * Calls made as the signed-in user (their own data, and every write): on a reload they must not
 * run before the persisted user is known, or a click in that moment is refused as "log in".
 */
const USER_CALLS: ReadonlySet<FunctionKeys> = new Set([
  'saveDraft',
  'loadDraft',
  'deleteDraft',
  'exportMyData',
  'importDrafts',
  'createTopic',
  'deleteTopic',
  'createResponse',
  'editResponse',
  'deleteResponse',
  'toggleVote',
  'setStance',
  'creditDeltas',
  'markRead',
  'markAllRead',
  'setWeeklySummary',
]);

/**
 * `sessionKnown` settles once Firebase has said who is signed in (and the data layer was told): the
 * user's own calls (drafts, export) wait for it, as they waited for the sign-in when the app only
 * rendered after both.
 */
export function deferredData(
  ready: Promise<CruxData>,
  sessionKnown: Promise<void> = Promise.resolve(),
  firstPage?: FirstPageReads,
): CruxData {
  const data$ = from(ready).pipe(shareReplay({ bufferSize: 1, refCount: false }));
  const isObservableKey = (key: FunctionKeys) => key.endsWith('$');
  // Keyed access keeps `this` and the real implementation's types; the casts only erase the
  // per-member signatures, which the `satisfies` below checks against CruxData as a whole.
  const forward = <K extends FunctionKeys>(key: K): CruxData[K] => {
    const fn = isObservableKey(key)
      ? (...args: unknown[]) => data$.pipe(switchMap((data) => (data[key] as AnyFunction)(...args) as Observable<unknown>))
      : async (...args: unknown[]) => {
          if (USER_CALLS.has(key)) await sessionKnown;
          return ((await ready)[key] as AnyFunction)(...args);
        };
    return fn as CruxData[K];
  };
  const deferred = {
    uid$: data$.pipe(switchMap((data) => data.uid$)),
    status$: data$.pipe(switchMap((data) => data.status$)),
  } as Pick<CruxData, ObservableKeys> & Partial<CruxData>;
  const keys = [
    'signIn',
    'signOut',
    'topics$',
    'topic$',
    'rootResponses$',
    'replies$',
    'topicResponses$',
    'ancestorPath',
    'responseBalance$',
    'stance$',
    'notifications$',
    'unreadCount$',
    'preferences$',
    'syncProblems$',
    'savedTopics$',
    'sourceCitations',
    'searchSources',
    'sources$',
    'leaderboard$',
    'userProfile$',
    'score$',
    'createTopic',
    'deleteTopic',
    'createResponse',
    'editResponse',
    'deleteResponse',
    'toggleVote',
    'setStance',
    'creditDeltas',
    'markRead',
    'markAllRead',
    'setWeeklySummary',
    'saveDraft',
    'loadDraft',
    'deleteDraft',
    'openTopic',
    'saveTopicOffline',
    'fixProblem',
    'resolveConflict',
    'exportMyData',
    'importDrafts',
    'discardProblem',
    'close',
  ] as const satisfies readonly FunctionKeys[];
  // Every function of CruxData is forwarded: a member added there and not here fails to compile.
  const complete: [Exclude<FunctionKeys, (typeof keys)[number]>] extends [never] ? true : never = true;
  void complete;
  for (const key of keys) (deferred as Record<string, unknown>)[key] = forward(key);
  if (firstPage) {
    // A first visit's page came with its first screen: shown until the local store has it.
    const real = { topics$: forward('topics$'), topic$: forward('topic$'), rootResponses$: forward('rootResponses$') };
    deferred.topics$ = (query = {}) => firstPage.topics$(query, real.topics$(query));
    deferred.topic$ = (topicId) => firstPage.topic$(topicId, real.topic$(topicId));
    // The page's first screen is in the default order: another order reads the local store alone.
    deferred.rootResponses$ = (topicId, order = 'default') =>
      order === 'default' ? firstPage.rootResponses$(topicId, real.rootResponses$(topicId, order)) : real.rootResponses$(topicId, order);
  }
  return deferred as CruxData;
}
