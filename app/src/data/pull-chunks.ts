// A server page of pulled documents, handed to RxDB in parts. RxDB stores a pulled batch by reading
// the stored state of each of its documents, comparing each in one run of microtasks, then writing
// (write-slices.ts slices only the write): for a page of 1,000 the read and the compare are long tasks
// on a phone's CPU. And while it stores one batch, RxDB already asks for the next and merges whatever
// arrives meanwhile into the batch it stores next, so on a fast network a batch grows to several pages.
// Here the server is asked for pages (PULL_BATCH: now one part, the server answering 200 at most),
// RxDB is given a part of a page at a time, each with the checkpoint it ends at, and the next part only
// once the last one is stored: no part is merged with another, and each is a short task. The next page is asked for while the last part is stored.
import { deepEqual } from 'rxdb/plugins/utils';

export interface PulledPage<D, C> {
  documents: D[];
  checkpoint: C;
}

export interface ChunkedPullOptions<D, C> {
  /** One request to the server: at most `limit` documents after `from`. */
  fetch(from: C, limit: number): Promise<PulledPage<D, C>>;
  /** Where a part of a page that starts at `from` ends. */
  advance(from: C, part: readonly D[]): C;
  /** Resolves once the part handed out last is stored. */
  stored(): Promise<void>;
  /** Documents per request: a shorter page is the last one. */
  pageSize: number;
  /** Documents per part (RxDB's pull batch size: a shorter part ends its pulls). */
  partSize: number;
}

export interface PulledPart<D, C> extends PulledPage<D, C> {
  /** The last part of the last page: the position is the server's latest. */
  caughtUp: boolean;
}

/** A request made ahead is used only by the call that asks for its position soon after. */
const AHEAD_KEPT_MS = 5_000;

/** The pull handler: the part after `from`, and where it ends. */
export function chunkedPull<D, C>(options: ChunkedPullOptions<D, C>): (from: C) => Promise<PulledPart<D, C>> {
  const { pageSize, partSize } = options;
  /** What is left of the last page, from the position its next part starts at. */
  let rest: { from: C; documents: D[]; end: C; short: boolean } | null = null;
  let ahead: { from: C; at: number; page: Promise<PulledPage<D, C>> } | null = null;

  // Never a synchronous throw: a part already taken from `rest` must reach RxDB or fail as a whole.
  const fetch = (from: C) => Promise.resolve().then(() => options.fetch(from, pageSize));
  const askAhead = (from: C) => {
    const page = fetch(from);
    page.catch(() => undefined); // a failed request ahead is asked again by the call that needs it
    ahead = { from, at: Date.now(), page };
  };
  const request = (from: C): Promise<PulledPage<D, C>> => {
    const made = ahead;
    ahead = null;
    if (made && deepEqual(made.from, from) && Date.now() - made.at < AHEAD_KEPT_MS) return made.page.catch(() => fetch(from));
    return fetch(from);
  };

  return async (from) => {
    await options.stored();
    if (!rest || !deepEqual(rest.from, from)) {
      const page = await request(from);
      rest = { from, documents: page.documents, end: page.checkpoint, short: page.documents.length < pageSize };
    }
    const part = rest.documents.slice(0, partSize);
    const remaining = rest.documents.slice(partSize);
    if (remaining.length > 0) {
      const checkpoint = options.advance(from, part);
      rest = { ...rest, from: checkpoint, documents: remaining };
      return { documents: part, checkpoint, caughtUp: false };
    }
    const { end, short } = rest;
    rest = null;
    // A full page: the next one is on its way while this part is stored. (RxDB asks again after a
    // full part of a short page too, and gets what the server has then.)
    if (!short) askAhead(end);
    return { documents: part, checkpoint: end, caughtUp: short };
  };
}
