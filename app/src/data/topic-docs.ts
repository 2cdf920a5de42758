// A topic's responses, oldest first, live: what RxDB's query `find({ topic_id }, sorted)` gives, kept
// from the collection's change events instead of by the query. A subscribed RxDB query updates its
// whole result on every stored batch (a copy of the list and of its map of documents), and a big
// topic arrives in a few hundred batches of 100: at 20,000 responses each batch cost about 7 ms more
// than storing it (Node), four times that on a phone, and the copies kept its garbage collector busy.
// Here a batch costs the documents it holds, and while a pull is storing the topic the list is handed
// on at most every pulledEmitMs(size) (a change of the user's own is handed on at once).
import { Observable } from 'rxjs';
import type { MangoQuerySortPart, RxCollection } from 'rxdb';
import type { ResponseDocType } from './collections/response.schema.js';
import { PULL_WRITE } from './pull-guard.js';

/** How long a large topic's list waits between two emissions while pulled batches are stored: about 10 a second per 1,000 responses, at most one every 2 s. */
export const pulledEmitMs = (size: number) => Math.min(2_000, Math.floor(size / 10));

interface StoredChange {
  operation: 'INSERT' | 'UPDATE' | 'DELETE';
  documentId: string;
  documentData?: ResponseDocType & { _deleted?: boolean; _rev?: string };
  previousDocumentData?: unknown;
}

/** RxDB's order for this list: created_at, then id (its comparator compares strings by code units). */
const before = (a: ResponseDocType, b: ResponseDocType) => a.created_at < b.created_at || (a.created_at === b.created_at && a.id < b.id);

/** The index `doc` has, or would have, in the sorted `list`. */
function positionOf(list: readonly ResponseDocType[], doc: ResponseDocType): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (before(list[middle]!, doc)) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** A revision's height (`3-abc…`: 3): a stored change older than the state already kept is not applied. */
const height = (doc: { _rev?: string }) => Number.parseInt(doc._rev ?? '0', 10) || 0;

/** The sorted responses of one topic and the changes that keep them. */
class TopicDocs {
  readonly list: ResponseDocType[];
  private readonly byId = new Map<string, ResponseDocType>();

  constructor(docs: readonly ResponseDocType[]) {
    this.list = [...docs];
    for (const doc of docs) this.byId.set(doc.id, doc);
  }

  /** Applies one stored change; whether the list changed. */
  apply(change: StoredChange): boolean {
    const kept = this.byId.get(change.documentId);
    const next = change.documentData;
    if (kept && next && height(kept as { _rev?: string }) > height(next)) return false;
    if (kept) this.list.splice(this.indexOf(kept), 1);
    if (change.operation === 'DELETE' || !next || next._deleted) {
      this.byId.delete(change.documentId);
      return kept !== undefined;
    }
    this.byId.set(change.documentId, next);
    this.list.splice(positionOf(this.list, next), 0, next);
    return true;
  }

  private indexOf(doc: ResponseDocType): number {
    const at = positionOf(this.list, doc);
    return this.list[at]?.id === doc.id ? at : this.list.findIndex((kept) => kept.id === doc.id);
  }
}

const SORT: MangoQuerySortPart<ResponseDocType>[] = [{ created_at: 'asc' }, { id: 'asc' }];

/**
 * The topic's responses (RxDB's stored document data, the same object while a revision is unchanged),
 * oldest first, as RxDB's sorted query of `topic_id` would give them. Each emission is a new array.
 */
export function topicDocs$(
  collection: RxCollection<ResponseDocType>,
  topicId: string,
  waitAfterPull: (size: number) => number = pulledEmitMs,
): Observable<readonly ResponseDocType[]> {
  return new Observable<readonly ResponseDocType[]>((subscriber) => {
    let docs: TopicDocs | null = null;
    /** Changes stored while the first read ran: applied once it has answered (a change it already holds applies again as the same state). */
    const early: StoredChange[] = [];
    let timer: ReturnType<typeof setTimeout> | null = null;
    let lastEmit = 0;

    const emit = () => {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      lastEmit = Date.now();
      subscriber.next(docs!.list.slice());
    };
    const changed = (pulled: boolean) => {
      if (!pulled) return emit();
      if (timer !== null) return;
      timer = setTimeout(emit, Math.max(0, lastEmit + waitAfterPull(docs!.list.length) - Date.now()));
    };

    const subscription = collection.eventBulks$.subscribe((bulk) => {
      let touched = false;
      for (const event of bulk.events as StoredChange[]) {
        const data = event.documentData ?? event.previousDocumentData;
        if ((data as ResponseDocType | undefined)?.topic_id !== topicId) continue;
        if (!docs) early.push(event);
        else touched = docs.apply(event) || touched;
      }
      if (touched) changed(bulk.context.startsWith(PULL_WRITE));
    });
    collection
      .find({ selector: { topic_id: topicId }, sort: SORT })
      .exec()
      .then(
        (found) => {
          if (subscriber.closed) return;
          docs = new TopicDocs(found.map((doc) => doc._data as ResponseDocType));
          for (const change of early.splice(0)) docs.apply(change);
          emit();
        },
        (error: unknown) => subscriber.error(error),
      );
    return () => {
      subscription.unsubscribe();
      if (timer !== null) clearTimeout(timer);
    };
  });
}
