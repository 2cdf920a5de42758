// Writes left behind by someone who signed out before they were sent. The next
// user's token must never carry them (they would be created under the wrong
// name), so the push keeps them aside here, in a local document of the public
// database, and hands them to their author's `sync problems` at their next
// sign-in: never sent as someone else, never dropped silently.
//
// A write of an account whose session ended on this device (ended-session.ts) goes instead to the
// sync problems of the person signed in now, named as such, to post as themselves, copy or discard.
//
// One entry per item (collection + id): a push retried after a failure, or any
// other path that sets the same write aside again, replaces the entry instead of
// adding a second one, so the author never sees (nor retries) the write twice.
import type { SyncProblem } from './api.js';
import type { PublicDb } from './db.js';
import type { ProblemRecorder } from './problems.js';

const DOC_ID = 'orphaned-writes';
export type Orphan = Omit<SyncProblem, 'id' | 'created_at'> & { author_uid: string };

/** The reason a write of an ended session shows in the next person's sync problems. */
export const ENDED_SESSION_WRITE = 'Not sent: the session it was written in ended before it reached the server.';

/** Who takes over the writes of an ended session: its uid (null when none), and where they go. */
export interface Heir {
  from(): string | null;
  problems: ProblemRecorder;
}

export interface Orphans {
  keep(orphan: Orphan): Promise<void>;
  /** Moves the author's orphaned writes into the current user's sync problems (`error`: the reason they show). */
  adopt(uid: string, problems: ProblemRecorder, error?: string): Promise<void>;
  list(): Promise<Orphan[]>;
}

const sameItem = (a: Orphan, b: Orphan) => a.collection === b.collection && a.itemId === b.itemId;

export function createOrphans(db: PublicDb, heir?: Heir): Orphans {
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
        if (heir && heir.from() === orphan.author_uid) {
          const { author_uid: _author, ...problem } = orphan;
          return heir.problems.record({ ...problem, error: ENDED_SESSION_WRITE });
        }
        await db.upsertLocal(DOC_ID, { list: [...(await read()).filter((o) => !sameItem(o, orphan)), orphan] });
      }),
    adopt: (uid, problems, error) =>
      serial(async () => {
        const list = await read();
        const mine = list.filter((o) => o.author_uid === uid);
        if (mine.length === 0) return;
        for (const { author_uid: _author, ...problem } of mine) await problems.record(error ? { ...problem, error } : problem);
        await db.upsertLocal(DOC_ID, { list: list.filter((o) => o.author_uid !== uid) });
      }),
    list: () => serial(read),
  };
}
