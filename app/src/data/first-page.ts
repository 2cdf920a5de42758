// The first screen the server put into a first visit's page (sync-server/src/routes/first-page.ts):
// shown while the data layer opens and pulls, so the rows paint with the page instead of seconds
// later on a phone; also the page of a topic the service worker kept from an earlier visit by address
// (vite.config.ts). The local store takes over as soon as it has rows; other revisits (answered by the
// service worker's shell) have no such data and read the local store alone.
import { Observable, distinctUntilChanged, filter, map, startWith } from 'rxjs';
import { PAGE_SIZE } from '../../../shared/constants.js';
import type { FirstPageData, Response, Topic } from '../../../shared/types.js';
import type { ResponseView, TopicQuery, TopicView } from './api.js';

const ELEMENT_ID = 'crux-first-page';

/** The embedded data, read once at start-up; null when the page has none or it cannot be read. */
export function readFirstPage(doc: Document = document): FirstPageData | null {
  const text = doc.getElementById(ELEMENT_ID)?.textContent;
  if (!text) return null;
  try {
    return JSON.parse(text) as FirstPageData;
  } catch {
    return null;
  }
}

/** This document's first screen, read once when first asked for (undefined: not read yet). */
let documentFirstPage: FirstPageData | null | undefined;

/**
 * The strongest case the server ranked for topic `topicId`'s first screen, when this page came with
 * it: the panel shows it until the device has the topic's responses to rank them itself.
 */
export function firstScreenCase(topicId: string): NonNullable<FirstPageData['strongest']> | null {
  if (documentFirstPage === undefined) documentFirstPage = typeof document === 'undefined' ? null : readFirstPage();
  return documentFirstPage?.topic?.id === topicId ? (documentFirstPage.strongest ?? null) : null;
}

// The REST shapes carry no stance counts (docs/API.md): a topic's first screen comes with them
// (`stances`); a list's rows show none.
const topicView = (topic: Topic, stances?: FirstPageData['stances']): TopicView => ({
  ...topic,
  stance_agree: stances?.agree ?? 0,
  stance_disagree: stances?.disagree ?? 0,
  stance_unsure: stances?.unsure ?? 0,
  minds_changed: stances?.minds_changed ?? 0,
  isPending: false,
  isSavedOffline: false,
  responsesOnDevice: false,
});
// A quoted response on the same first screen lends its author's uid, so the name links to their page.
const responseView = (response: Response, _: number, page: readonly Response[]): ResponseView => ({
  ...response,
  quoted_response: response.quoted_response && {
    ...response.quoted_response,
    creator_uid: page.find((r) => r.id === response.quoted_response!.id)?.creator_uid,
  },
  delta_count: 0,
  upvotes_agree: 0,
  upvotes_disagree: 0,
  downvotes_agree: 0,
  downvotes_disagree: 0,
  isPending: false,
});

/** Sources that give the first screen's value at once on subscribing (withPreview, below). */
const atOnce = new WeakSet<Observable<unknown>>();

/** Whether `source` gives a first screen's value at once (hooks/useObservable.ts shows it in the app's first commit). */
export const givesValueAtOnce = (source: Observable<unknown>): boolean => atOnce.has(source);

/**
 * `real$` as it is, except that until it first gives a settled value (rows from the local store) it
 * shows `preview` instead: never the "nothing here" of a database that has not pulled yet. With no
 * preview (null), nothing is emitted until then: the caller keeps what it shows and stays loading.
 */
function withPreview<T>(real$: Observable<T>, preview: T | null, settled: (value: T) => boolean, onSettled: () => void): Observable<T> {
  const preview$ = new Observable<T>((subscriber) => {
    let done = false;
    const answers$ = real$.pipe(
      filter((value) => {
        if (!done && settled(value)) {
          done = true;
          onSettled();
        }
        return done || preview !== null;
      }),
      map((value) => (done ? value : (preview as T))),
    );
    return (preview === null ? answers$ : answers$.pipe(startWith(preview))).pipe(distinctUntilChanged()).subscribe(subscriber);
  });
  if (preview !== null) atOnce.add(preview$);
  return preview$;
}

/** The reads of CruxData that a first screen can answer before the local store does. */
export interface FirstPageReads {
  topics$(query: TopicQuery, real$: Observable<TopicView[]>): Observable<TopicView[]>;
  topic$(topicId: string, real$: Observable<TopicView | null | undefined>): Observable<TopicView | null | undefined>;
  rootResponses$(topicId: string, real$: Observable<ResponseView[]>): Observable<ResponseView[]>;
}

/**
 * Each part of the first screen is used until the local store has given that part once: after
 * that it is stale, and a later visit to the same page (client-side navigation) reads the store.
 */
export function firstPageReads(data: FirstPageData | null): FirstPageReads {
  let topics = data?.topics ?? null;
  let topic = data?.topic ?? null;
  let responses = data?.topic && data.responses ? data.responses : null;
  return {
    topics$(query, real$) {
      const matches = topics && !query.search && (query.sort ?? 'hot') === topics.sort && (query.category ?? null) === topics.category;
      if (!topics || !matches) return real$;
      const limit = query.limit ?? topics.items.length;
      // A full embedded page asked for more (the list scrolled to its end before the local store
      // answered): only the store knows what comes next. Showing the 20 as all there is would end
      // the paging for good; with no preview the list keeps its rows and says it is loading more.
      const more = limit > topics.items.length && topics.items.length >= PAGE_SIZE;
      const preview = more ? null : topics.items.slice(0, limit).map((item) => topicView(item));
      return withPreview(
        real$,
        preview,
        (list) => list.length > 0,
        () => (topics = null),
      );
    },
    topic$(topicId, real$) {
      if (!topic || topic.id !== topicId) return real$;
      return withPreview(
        real$,
        topicView(topic, data?.stances?.topic_id === topic.id ? data.stances : undefined) as TopicView | null | undefined,
        (value) => value !== undefined,
        () => (topic = null),
      );
    },
    rootResponses$(topicId, real$) {
      if (!responses || data?.topic?.id !== topicId) return real$;
      return withPreview(
        real$,
        responses.map(responseView),
        (list) => list.length > 0,
        () => (responses = null),
      );
    },
  };
}
