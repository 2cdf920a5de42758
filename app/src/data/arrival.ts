// A topic or response an action names may still be on its way to the device: a page painted from
// the server's first screen (a first visit, a page the service worker kept) can be clicked before
// the pull has stored its rows. An action then waits for the row instead of saying "not found", as
// long as it may still come: until the pull that would bring it is known to be done (or the device
// is offline), and never longer than ARRIVAL_WAIT_MS.
import { combineLatest, filter, firstValueFrom, map, of, timeout, type Observable } from 'rxjs';

/** The longest an action waits for a row still being pulled. */
export const ARRIVAL_WAIT_MS = 15_000;

export interface Arrivals {
  /** True once a missing topic is really missing: the server answered for it (the device asks), or offline. */
  topicKnown$: (topicId: string) => Observable<boolean>;
  /** Whether the server can be reached (rows are pulled only then). */
  online$: Observable<boolean>;
  waitMs?: number;
}

/** Something with a live single-row query (an RxCollection). */
interface Findable<D> {
  findOne(id: string): { exec(): Promise<D | null>; $: Observable<D | null> };
}

/**
 * The row with this id: at once if it is stored; otherwise the first time it is, or null once
 * `known$` says it is not coming (without `arrivals`, null at once, as a plain lookup).
 */
export async function whenStored<D>(
  collection: Findable<D>,
  id: string,
  known$: Observable<boolean> | null,
  waitMs?: number,
): Promise<D | null> {
  const stored = await collection.findOne(id).exec();
  if (stored || !known$) return stored;
  return firstValueFrom(
    combineLatest([collection.findOne(id).$, known$]).pipe(
      filter(([row, known]) => row !== null || known),
      map(([row]) => row),
      timeout({ first: waitMs ?? ARRIVAL_WAIT_MS, with: () => of(null) }),
    ),
  );
}

/** `known$` for each kind of row: a topic once the server answered for it; a topic's responses only offline (they come with the topic's pull). */
export function arrivalRules(arrivals: Arrivals | undefined) {
  return {
    topics: (topicId: string) => (arrivals ? arrivals.topicKnown$(topicId) : null),
    responses: arrivals ? arrivals.online$.pipe(map((online) => !online)) : null,
    waitMs: arrivals?.waitMs,
  };
}
