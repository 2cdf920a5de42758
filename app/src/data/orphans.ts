// Writes left behind by someone who signed out before they were sent. The next
// user's token must never carry them (they would be created under the wrong
// name), so the push keeps them aside here, in a local document of the public
// database, and hands them to their author's `sync problems` at their next
// sign-in: never sent as someone else, never dropped silently.
//
// One entry per item (collection + id): a push retried after a failure, or any
// other path that sets the same write aside again, replaces the entry instead of
// adding a second one, so the author never sees (nor retries) the write twice.
import type { SyncProblem } from './api.js';
import type { PublicDb } from './db.js';
import type { ProblemRecorder } from './problems.js';

const DOC_ID = 'orphaned-writes';
export type Orphan = Omit<SyncProblem, 'id' | 'created_at'> & { author_uid: string };

export interface Orphans {
  keep(orphan: Orphan): Promise<void>;
  /** Moves the author's orphaned writes into their sync problems. */
  adopt(uid: string, problems: ProblemRecorder): Promise<void>;
  list(): Promise<Orphan[]>;
}

const sameItem = (a: Orphan, b: Orphan) => a.collection === b.collection && a.itemId === b.itemId;

export function createOrphans(db: PublicDb): Orphans {
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = queue.then(fn, fn);
    queue = next.catch(() => {});
    return next;
  };
  const read = async () => ((await db.getLocal<{ list: Orphan[] }>(DOC_ID))?.get('list') as Orphan[] | undefined) ?? [];
  return {
    keep: (orphan) =>
      serial(async () => {
        await db.upsertLocal(DOC_ID, { list: [...(await read()).filter((o) => !sameItem(o, orphan)), orphan] });
      }),
    adopt: (uid, problems) =>
      serial(async () => {
        const list = await read();
        const mine = list.filter((o) => o.author_uid === uid);
        if (mine.length === 0) return;
        for (const { author_uid: _author, ...problem } of mine) await problems.record(problem);
        await db.upsertLocal(DOC_ID, { list: list.filter((o) => o.author_uid !== uid) });
      }),
    list: () => serial(read),
  };
}
