// Where a topic list comes from: online, the server's pages (each kept on the device as shown,
// working-set.ts), read again when the live stream says topics changed; offline, or when the server
// cannot answer, the topics kept on this device. A topic page asks the server for its topic while it
// is on screen.
import { concat, defer, distinctUntilChanged, finalize, map, Observable, of, shareReplay, switchMap, throttleTime } from 'rxjs';
import type { ListQuery, WorkingSet } from './working-set.js';

/** A list's page as the server answered it: its topic ids in order, and when it was read. */
export interface ServerPage {
  ids: readonly string[];
  /** Topics made after this (ISO time) are not in it yet: the device shows its own meanwhile. */
  readAt: string;
}

export interface TopicListsDeps {
  workingSet: WorkingSet;
  online$: Observable<boolean>;
  /** The live stream said topics changed. */
  changed$: Observable<void>;
  /** A list on screen reads its pages again at most this often. */
  refreshMs?: number;
}

export function createTopicLists({ workingSet, online$, changed$, refreshMs = 2000 }: TopicListsDeps) {
  /**
   * The first `limit` topics of a list from the server, while subscribed and online: again after each
   * change (throttled); null when the server could not answer (the device's list stands in).
   */
  const serverPage$ = (query: ListQuery, limit: number): Observable<ServerPage | null> =>
    new Observable<ServerPage | null>((subscriber) => {
      let closed = false;
      let offScreen = () => {};
      const read = async () => {
        const readAt = new Date().toISOString();
        try {
          const ids = await workingSet.fetchPage(query, 0, limit);
          if (closed) return;
          offScreen();
          offScreen = workingSet.onScreen(ids);
          subscriber.next({ ids, readAt });
        } catch {
          if (!closed) subscriber.next(null);
        }
      };
      void read();
      const changes = changed$.pipe(throttleTime(refreshMs, undefined, { leading: true, trailing: true })).subscribe(() => void read());
      return () => {
        closed = true;
        changes.unsubscribe();
        offScreen();
      };
    });

  /** One read of a list for every screen part that shows it (the rows and the note about them). */
  const pages = new Map<string, Observable<ServerPage | null>>();
  return {
    /** The server's page of a list while online (null: read it from the device). */
    page$(query: ListQuery, limit: number): Observable<ServerPage | null> {
      const key = JSON.stringify([query.sort, query.category ?? null, query.search ?? null, limit]);
      let page = pages.get(key);
      if (!page) {
        const shared: Observable<ServerPage | null> = online$.pipe(
          distinctUntilChanged(),
          switchMap((online) => (online ? serverPage$(query, limit) : of(null))),
          finalize(() => pages.get(key) === shared && pages.delete(key)),
          shareReplay({ bufferSize: 1, refCount: true }),
        );
        pages.set(key, (page = shared));
      }
      return page;
    },
    /**
     * Whether a topic missing from the device is really missing: offline at once; online once the
     * server answered for it. While subscribed the topic is on screen (kept, and kept fresh).
     */
    topicKnown$(topicId: string): Observable<boolean> {
      const known$ = online$.pipe(
        distinctUntilChanged(),
        switchMap((online) => (online ? concat(of(false), defer(() => workingSet.show(topicId)).pipe(map(() => true))) : of(true))),
      );
      return new Observable<boolean>((subscriber) => {
        const offScreen = workingSet.onScreen([topicId]);
        const subscription = known$.subscribe(subscriber);
        return () => {
          subscription.unsubscribe();
          offScreen();
        };
      });
    },
  };
}

export type TopicLists = ReturnType<typeof createTopicLists>;
