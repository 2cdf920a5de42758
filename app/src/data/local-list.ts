// A short list kept in one RxDB local document of a database, for data that never leaves the
// device (drafts, sync problems). A local document is not a collection: RxDB's open-source build
// opens at most 13 collections on a page, counted over every database, and the app stays well
// under that. Reads are live (getLocal$). A change is one atomic step: RxDB's write queue runs it
// again on the stored list when another tab wrote in between, so no writer loses another's entry.
import type { RxLocalDocument } from 'rxdb';
import { map, type Observable } from 'rxjs';

/** A database opened with `localDocuments: true` (whatever its collections). */
export interface LocalDocumentsDb {
  getLocal<D>(id: string): Promise<RxLocalDocument<unknown, D> | null>;
  getLocal$<D>(id: string): Observable<RxLocalDocument<unknown, D> | null>;
  insertLocal<D>(id: string, data: D): Promise<RxLocalDocument<unknown, D>>;
}

interface Stored<T> {
  list: T[];
}

export interface LocalList<T> {
  read(): Promise<T[]>;
  /** The list now and after every change, from any tab. */
  list$(): Observable<T[]>;
  /**
   * Replaces the list by `change(list)`, atomically. `change` may run more than once (a write of
   * another tab in between) and must return a new list, not alter the one it is given.
   */
  change(change: (list: readonly T[]) => T[]): Promise<void>;
}

const isConflict = (error: unknown) => (error as { status?: unknown } | null)?.status === 409;

/** The list stored under `id`. The document is never removed (only the database is), so a change always finds or makes it. */
export function localList<T>(db: LocalDocumentsDb, id: string): LocalList<T> {
  const read = async () => ((await db.getLocal<Stored<T>>(id))?.get('list') as T[] | undefined) ?? [];
  return {
    read,
    list$: () => db.getLocal$<Stored<T>>(id).pipe(map((doc) => (doc?.get('list') as T[] | undefined) ?? [])),
    async change(change) {
      for (;;) {
        const doc = await db.getLocal<Stored<T>>(id);
        if (doc) {
          await doc.incrementalModify((data) => ({ list: change(data.list ?? []) }));
          return;
        }
        try {
          await db.insertLocal<Stored<T>>(id, { list: change([]) });
          return;
        } catch (error) {
          // Another tab made the document first: the change goes on top of theirs.
          if (!isConflict(error)) throw error;
        }
      }
    },
  };
}
