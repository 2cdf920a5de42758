// A CruxData usable before the local database has opened (first load): the shell
// renders at once from a small entry while the data layer (RxDB, Dexie, the replication) loads
// as its own chunk. Reads subscribe to the real data layer's observable once it is there; calls
// wait for it. Nothing is queued twice or lost: each call or subscription maps to exactly one
// on the real object. A call made as the user also waits for the sign-in under way: the real one
// does that (session.ts), so it is not done here.
import { from, shareReplay, switchMap, type Observable } from 'rxjs';
import type { CruxData } from './api.js';
import type { FirstPageReads } from './first-page.js';
import { buildByKind, type MemberKind } from './members.js';

type AnyFunction = (...args: unknown[]) => unknown;

export function deferredData(ready: Promise<CruxData>, firstPage?: FirstPageReads): CruxData {
  const data$ = from(ready).pipe(shareReplay({ bufferSize: 1, refCount: false }));
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
