// Large pages (1,000 roots or replies; a sync pull, now at most 200 documents, and a page of 5,000
// mappings, made in one short call, go through the same gate) read and serialised in several turns of
// the event loop rather than one. Read, mapped and stringified in one go, such a page held the loop for
// its whole cost while every other request waited: under 50 connections a p99 of seconds even for a
// health check. Here the page is read as keyset sub-pages of a few hundred rows, and its JSON made a few
// hundred items at a time, with a turn given back between each, so a small request that arrives
// meanwhile is answered in between. The answer is the same page, byte for byte.

/** Rows read, or items stringified, in one turn: small enough that a turn stays short at full size. */
export const ROWS_PER_TURN = 200;

/** Lets the event loop run what waits (I/O, other requests) before going on. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * At most `limit` rows after `from`, read as keyset sub-pages of `perTurn` rows with a turn between
 * each: `read(after, n)` answers at most n rows after `after` in the page's order, `positionOf` is a
 * row's own position in it. Stops at a short sub-page (the end) as a single read of `limit` would.
 */
export async function readInTurns<R, P>(
  read: (after: P, limit: number) => R[] | Promise<R[]>,
  positionOf: (row: R) => P,
  from: P,
  limit: number,
  perTurn = ROWS_PER_TURN,
): Promise<R[]> {
  const rows: R[] = [];
  let after = from;
  while (rows.length < limit) {
    if (rows.length > 0) await nextTurn();
    const wanted = Math.min(perTurn, limit - rows.length);
    const part = await read(after, wanted);
    for (const row of part) rows.push(row);
    if (part.length < wanted) break;
    after = positionOf(part[part.length - 1]!);
  }
  return rows;
}

/**
 * `JSON.stringify(items)`, made `perTurn` items at a time with a turn between each: the same text
 * for a list of JSON values (each item's text is what the whole array's stringify writes for it).
 */
export async function stringifyInTurns(items: readonly unknown[], perTurn = ROWS_PER_TURN): Promise<string> {
  const parts: string[] = [];
  for (let start = 0; start < items.length; start += perTurn) {
    if (start > 0) await nextTurn();
    const chunk = JSON.stringify(items.slice(start, start + perTurn));
    parts.push(chunk.slice(1, -1));
  }
  return `[${parts.join(',')}]`;
}

/**
 * How many large pages are made at once. A turn given back with setImmediate lets I/O in only once
 * every page waiting for its next turn has had it: under 50 connections each asking for 1,000
 * documents, one pass of the loop was 50 sub-pages long. With two at a time a pass holds at most two,
 * and the others wait their turn without holding the loop; the pages take as long all told.
 */
export const LARGE_PAGES_AT_ONCE = 2;

/**
 * How many title searches are made at once, through a gate of their own. A search on SQLite's title
 * index takes a few tenths of a millisecond: with no gate one pass of the loop made every search that
 * had arrived (its longest delay 113 ms under 50 connections at a slow hour); two at a time, as large
 * pages go, left the loop turning for two searches each pass (1,240 against 1,630 searches a second
 * with eight).
 */
export const SEARCHES_AT_ONCE = 8;

/**
 * A gate that runs `work` when fewer than `atOnce` are in work, first come, first served, each in the
 * loop's next turn after its place is taken.
 */
function turnGate(atOnce: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async function throughGate<T>(work: () => Promise<T>): Promise<T> {
    if (running < atOnce) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      // Made in the loop's next turn, not in the pass that read the request: a page read in one go (a
      // sync pull, SQLite answering synchronously) ended before the next request of the same pass came
      // to the gate, so the gate never held anyone and one pass made every page that had arrived
      // (the loop's longest delay 130-200 ms under 50 pulls).
      await nextTurn();
      return await work();
    } finally {
      // The place passes straight to the next in line, if any (which then waits its own turn, above).
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}

/**
 * Runs `work` (the reading and writing of one large page, or another read of a few milliseconds made
 * in one call) when fewer than LARGE_PAGES_AT_ONCE are in work; first come, first served.
 */
export const fewLargePagesAtOnce = turnGate(LARGE_PAGES_AT_ONCE);

/** Runs a title search when fewer than SEARCHES_AT_ONCE are in work; first come, first served. */
export const fewSearchesAtOnce = turnGate(SEARCHES_AT_ONCE);
