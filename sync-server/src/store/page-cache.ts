// The pages of the topic lists and title searches, kept while no topic changes (the
// list's SQL and its rows were most of a GET /api/topics), for both engines. Every change to a
// topic row stamps it with a new seq (sync relies on it too, docs/SYNC.md), a new display name
// restamps the author's topics, and a vote on a topic changes its score and seq; seqs only grow
// and commit in order, so the largest seq of the topics names the state a page was read in, in
// this process or any other on the same database. The caller reads that version first, then the
// page (never inside a transaction: its writes may still roll back and their seq be reused).

/** How many list pages (sort, category, limit, offset, viewer) are kept between two topic changes. */
export const LIST_PAGES_KEPT = 500;

export interface PageCache<T> {
  /** The page kept for `key` at `version` (a copy), or undefined. */
  read(version: number, key: string): T[] | undefined;
  /** Keeps a page read at `version` (not kept if a newer version has been seen meanwhile). */
  keep(version: number, key: string, rows: T[]): void;
}

export function createPageCache<T>(kept: number): PageCache<T> {
  const pages = new Map<string, T[]>();
  let at = -Infinity;
  return {
    read(version, key) {
      if (version > at) {
        pages.clear();
        at = version;
      }
      // An older version (a read that started before another finished) is answered by its own query.
      if (version !== at) return undefined;
      return pages.get(key)?.slice();
    },
    keep(version, key, rows) {
      if (version !== at) return;
      pages.set(key, rows);
      if (pages.size > kept) pages.delete(pages.keys().next().value!);
    },
  };
}
