// Which topics' responses stay on the device (docs/SYNC.md): the most recently
// opened (keepTopics, 50 by default) plus those saved for offline. Kept as an
// RxDB local document (RxDB caps collections at 13). Eviction removes a topic's
// local responses without pushing deletions (the push handler skips them: they
// carry no pending user action) and drops its checkpoint, which the responses
// pull handler only builds for followed topics.
import { BehaviorSubject, map, type Observable } from 'rxjs';
import type { PublicDb } from './db.js';

interface Followed {
  opened_at: string;
  saved: boolean;
  /** Its responses were pulled at least once since it was opened or saved here. */
  pulled?: boolean;
}
type FollowMap = Record<string, Followed>;
const DOC_ID = 'follows';

export interface Follows {
  /** Followed topic ids, sorted (stable for the stream URL). */
  current(): string[];
  readonly saved$: Observable<string[]>;
  readonly changes$: Observable<string[]>;
  /** Followed topics whose responses have been pulled onto the device. */
  readonly onDevice$: Observable<ReadonlySet<string>>;
  /** Records that these followed topics' responses were pulled (a pull caught up with them). */
  markPulled(topicIds: string[]): void;
  /** Marks the topic opened now; returns the topics evicted to keep the bound. */
  open(topicId: string): Promise<string[]>;
  setSaved(topicId: string, saved: boolean): Promise<string[]>;
}

export async function createFollows(db: PublicDb, keep: number): Promise<Follows> {
  const existing = await db.getLocal<{ topics: FollowMap }>(DOC_ID);
  const state$ = new BehaviorSubject<FollowMap>(existing?.get('topics') ?? {});

  // Writes of the local document one after another (the last state wins).
  let writes: Promise<unknown> = Promise.resolve();
  function persistQueued(next: FollowMap) {
    state$.next(next);
    const write = writes.then(() => db.upsertLocal(DOC_ID, { topics: state$.value }));
    writes = write.catch(() => {});
    return write;
  }
  async function persist(next: FollowMap) {
    await persistQueued(next);
  }

  /** Topics over the bound: not saved, beyond the `keep` most recently opened, and with nothing pending. */
  async function evict(next: FollowMap): Promise<string[]> {
    const recent = Object.entries(next)
      .filter(([, f]) => !f.saved)
      .sort(([, a], [, b]) => b.opened_at.localeCompare(a.opened_at));
    const evicted: string[] = [];
    for (const [topicId] of recent.slice(keep)) {
      // A topic with unsent local changes stays until they have gone out.
      const pending = await db.responses.findOne({ selector: { topic_id: topicId, pending: true } }).exec();
      if (pending) continue;
      delete next[topicId];
      evicted.push(topicId);
    }
    await persist(next);
    for (const topicId of evicted) {
      const docs = await db.responses.find({ selector: { topic_id: topicId } }).exec();
      await db.responses.bulkRemove(docs.map((doc) => doc.id));
    }
    // Purge the tombstones too: evicted documents leave the device, not just the lists.
    if (evicted.length > 0) await db.responses.cleanup(0);
    return evicted;
  }

  return {
    current: () => Object.keys(state$.value).sort(),
    saved$: state$.pipe(
      map((topics) =>
        Object.keys(topics)
          .filter((id) => topics[id]!.saved)
          .sort(),
      ),
    ),
    changes$: state$.pipe(map((topics) => Object.keys(topics).sort())),
    onDevice$: state$.pipe(map((topics) => new Set(Object.keys(topics).filter((id) => topics[id]!.pulled === true)))),
    markPulled(topicIds) {
      const fresh = topicIds.filter((id) => state$.value[id] && state$.value[id].pulled !== true);
      if (fresh.length === 0) return;
      const next = { ...state$.value };
      for (const id of fresh) next[id] = { ...next[id]!, pulled: true };
      persistQueued(next).catch(() => {});
    },
    async open(topicId) {
      // Strictly increasing times so that two opens in one millisecond keep their order.
      const last = Object.values(state$.value).reduce((max, f) => (f.opened_at > max ? f.opened_at : max), '');
      let now = new Date().toISOString();
      if (now <= last) now = new Date(Date.parse(last) + 1).toISOString();
      const previous = state$.value[topicId];
      const next = { ...state$.value, [topicId]: { ...previous, opened_at: now, saved: previous?.saved ?? false } };
      return evict(next);
    },
    async setSaved(topicId, saved) {
      const current = state$.value[topicId];
      const next = { ...state$.value, [topicId]: { ...current, opened_at: current?.opened_at ?? new Date().toISOString(), saved } };
      return evict(next);
    },
  };
}
