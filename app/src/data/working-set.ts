// The topics this device keeps: its working set, never the whole site (docs/SYNC.md "What a device
// keeps"). A topic comes onto the device when a screen shows it (a page of a list, a topic opened or
// linked to) and is kept fresh while on screen and while the live stream is up (a pull of the kept
// ids). Each topic records when a screen last showed it (`seen_at`); past the storage budget the least
// recently seen leave the device first. Never evicted: an unsent change, the signed-in user's own
// topics, the topics they follow, those saved for offline and the recently opened (follows.ts).
import { BehaviorSubject, Subject, type Observable } from 'rxjs';
import { MAX_PAGE_SIZE, type Sort } from '../../../shared/constants.js';
import { MAX_TOPIC_IDS, type TopicDoc, type TopicsAnswer, type TopicTombstone } from '../../../shared/sync-protocol.js';
import type { TopicDocType } from './collections/topic.schema.js';
import type { PublicDb } from './db.js';
import type { Follows } from './follows.js';
import type { SyncHttp, TokenSource } from './http.js';
import { toLocal } from './local-docs.js';
import type { WorkingSetUsage } from './api.js';

/** The default budget of public data (topics and the responses kept with them). */
export const DEFAULT_BUDGET_BYTES = 25 * 1024 * 1024;
/** Where the chosen budget is kept (a local document of the public database). */
const SETTINGS_DOC = 'working-set';
/** A topic shown again within this time is not written again only to say so. */
const SEEN_AGAIN_MS = 60_000;
/** Responses sampled to estimate their average size. */
const RESPONSE_SAMPLE = 20;

export interface ListQuery {
  sort: Sort;
  category?: string | undefined;
  search?: string | undefined;
}

/** What the device keeps, as the settings show it: topics, responses, an estimate of their bytes, the budget. */
export type { WorkingSetUsage };

export interface WorkingSetDeps {
  db: PublicDb;
  follows: Follows;
  http: SyncHttp;
  token: () => TokenSource | null;
  /** The signed-in user (their own topics stay), or null. */
  uid: () => string | null;
  /** The topics the signed-in user follows (they stay). */
  followed: () => Promise<ReadonlySet<string>>;
}

type Wire = TopicDoc | TopicTombstone;

const sizeOf = (data: unknown) => JSON.stringify(data).length;
/** A server state as stored here, seen at `seenAt`. */
const asStored = (doc: TopicDoc, seenAt: number): TopicDocType => {
  const { _deleted: _ignored, ...local } = toLocal('topics', { ...doc }) as unknown as TopicDocType & { _deleted?: boolean };
  return { ...local, seen_at: seenAt };
};

export function createWorkingSet(deps: WorkingSetDeps) {
  const { db } = deps;
  const usage$ = new BehaviorSubject<WorkingSetUsage>({ topics: 0, responses: 0, bytes: 0, budget: DEFAULT_BUDGET_BYTES });
  /** Topics a screen shows now: kept fresh by the live stream, never evicted meanwhile. */
  const onScreen = new Map<string, number>();
  /** Kept topics a pull must bring up to date ('all': every kept topic, at each connection). */
  const stale = new Set<string>();
  let allStale = true;
  const shown = new Map<string, Promise<boolean>>();
  /** Kept topics wait to be pulled (the sync controller's topics replication pulls them). */
  const pullWanted$ = new Subject<void>();

  async function budget(): Promise<number> {
    const doc = await db.getLocal<{ budget_bytes: number }>(SETTINGS_DOC);
    const value = doc?.get('budget_bytes') as number | undefined;
    return typeof value === 'number' && value > 0 ? value : DEFAULT_BUDGET_BYTES;
  }

  /**
   * Writes topics the server sent outside the replication (a page of a list, a topic shown by id):
   * never over an unsent change, never an older state over a newer one; `seenAt` marks them shown.
   */
  async function store(docs: readonly Wire[], seenAt: number): Promise<void> {
    if (docs.length === 0) return;
    const stored = await db.topics.findByIds(docs.map((doc) => doc.id)).exec();
    const inserts: TopicDocType[] = [];
    for (const doc of docs) {
      const current = stored.get(doc.id);
      if (!current) {
        if (!doc._deleted) inserts.push(asStored(doc, seenAt));
        continue;
      }
      if (doc._deleted) {
        if (!current.pending) await current.incrementalRemove().catch(() => {});
        continue;
      }
      const fresh = doc.seq > current.seq && !current.pending;
      if (!fresh && current.seen_at + SEEN_AGAIN_MS > seenAt) continue;
      await current.incrementalModify((data) => {
        const seen = Math.max(data.seen_at, seenAt);
        // An unsent change, or a newer state than the one sent: only the time it was seen moves.
        if (data.pending || data.seq >= doc.seq) return { ...data, seen_at: seen };
        return { ...data, ...asStored(doc, seen) };
      });
    }
    // A topic written meanwhile (another tab, the replication) is already there: its insert fails alone.
    if (inserts.length > 0) await db.topics.bulkInsert(inserts);
    scheduleEviction();
  }

  /** Marks stored topics as shown now. */
  async function touch(ids: readonly string[]): Promise<void> {
    const now = Date.now();
    for (const doc of (await db.topics.findByIds([...ids]).exec()).values()) {
      if (doc.seen_at + SEEN_AGAIN_MS > now) continue;
      await doc.incrementalModify((data) => ({ ...data, seen_at: Math.max(data.seen_at, now) }));
    }
  }

  const pageQuery = (query: ListQuery, offset: number, limit: number) => {
    const params = new URLSearchParams({ sort: query.sort, limit: String(limit), offset: String(offset) });
    if (query.category) params.set('category', query.category);
    if (query.search) params.set('search', query.search);
    return params.toString();
  };

  let evicting: Promise<string[]> | null = null;
  let evictTimer: ReturnType<typeof setTimeout> | null = null;
  function scheduleEviction() {
    if (evictTimer) return;
    evictTimer = setTimeout(() => {
      evictTimer = null;
      evict().catch(() => {});
    }, 1000);
  }

  /** The topics that never leave the device for the budget. */
  async function keptForGood(): Promise<ReadonlySet<string>> {
    const kept = new Set<string>([...deps.follows.current(), ...onScreen.keys(), ...(await deps.followed())]);
    return kept;
  }

  /** Evicts the least recently seen topics until the public data fits the budget; answers their ids. */
  function evict(): Promise<string[]> {
    evicting ??= (async () => {
      try {
        const limit = await budget();
        const docs = await db.topics.find({ sort: [{ seen_at: 'asc' }] }).exec();
        const responses = await db.responses.count().exec();
        const sample = responses > 0 ? await db.responses.find({ limit: RESPONSE_SAMPLE }).exec() : [];
        const responseBytes = sample.length > 0 ? (sample.reduce((sum, doc) => sum + sizeOf(doc._data), 0) / sample.length) * responses : 0;
        const sizes = docs.map((doc) => sizeOf(doc._data));
        let bytes = responseBytes + sizes.reduce((sum, size) => sum + size, 0);
        const evicted: string[] = [];
        if (bytes > limit) {
          const kept = await keptForGood();
          const uid = deps.uid();
          for (const [index, doc] of docs.entries()) {
            if (bytes <= limit) break;
            if (doc.pending || kept.has(doc.id) || (uid !== null && doc.creator_uid === uid)) continue;
            evicted.push(doc.id);
            bytes -= sizes[index]!;
          }
        }
        if (evicted.length > 0) {
          await db.topics.bulkRemove(evicted);
          // Evicted documents leave the device, tombstones included.
          await db.topics.cleanup(0);
          for (const id of evicted) stale.delete(id);
        }
        usage$.next({ topics: docs.length - evicted.length, responses, bytes: Math.round(bytes), budget: limit });
        return evicted;
      } finally {
        evicting = null;
      }
    })();
    return evicting;
  }

  return {
    usage$: usage$ as Observable<WorkingSetUsage>,
    pullWanted$: pullWanted$ as Observable<void>,
    evict,
    touch,
    budget,
    /** Sets the budget (bytes) and evicts to it at once. */
    async setBudget(bytes: number): Promise<void> {
      await db.upsertLocal(SETTINGS_DOC, { budget_bytes: bytes });
      await evict();
    },

    /** One page of a list from the server, kept on the device as shown now; answers its topic ids in the list's order. */
    async fetchPage(query: ListQuery, offset: number, limit: number): Promise<string[]> {
      const ids: string[] = [];
      // The server answers at most MAX_PAGE_SIZE a request: a longer page is read in parts.
      for (let at = offset; at < offset + limit; at += MAX_PAGE_SIZE) {
        const size = Math.min(MAX_PAGE_SIZE, offset + limit - at);
        const answer = await deps.http.json<TopicsAnswer>(`/topics/page?${pageQuery(query, at, size)}`, { token: null });
        await store(answer.documents, Date.now());
        ids.push(...answer.documents.map((doc) => doc.id));
        if (answer.documents.length < size) break;
      }
      return ids;
    },

    /**
     * A topic a screen shows (opened, linked to): marked seen, kept fresh while on screen, and asked
     * of the server when online. Answers once the device knows whether the server has it (false: the
     * request failed).
     */
    show(topicId: string): Promise<boolean> {
      let request = shown.get(topicId);
      if (!request) {
        request = (async () => {
          try {
            const current = await db.topics.findOne(topicId).exec();
            // Kept here already: shown now, and pulled by the tab that syncs (a follower tab asks
            // nothing itself). The stream names no topic, so a change heard while this one was
            // off screen (an edit, a removal, a delete) is caught up now, in one short pull.
            if (current) {
              if (!current.pending) {
                await touch([topicId]);
                stale.add(topicId);
                pullWanted$.next();
              }
              return true;
            }
            const answer = await deps.http.json<TopicsAnswer>('/topics/pull', {
              method: 'POST',
              body: { topics: { [topicId]: 0 } },
              token: null,
            });
            await store(answer.documents, Date.now());
            return true;
          } catch {
            return false;
          } finally {
            shown.delete(topicId);
          }
        })();
        shown.set(topicId, request);
      }
      return request;
    },

    /** A screen shows these topics now (until the returned function is called). */
    onScreen(ids: readonly string[]): () => void {
      for (const id of ids) onScreen.set(id, (onScreen.get(id) ?? 0) + 1);
      return () => {
        for (const id of ids) {
          const count = (onScreen.get(id) ?? 1) - 1;
          if (count <= 0) onScreen.delete(id);
          else onScreen.set(id, count);
        }
      };
    },

    /** The live stream said topics changed: what is on screen and opened is pulled again. */
    markShownStale(): void {
      for (const id of [...onScreen.keys(), ...deps.follows.current()]) stale.add(id);
    },
    /** Every kept topic is pulled again (a new connection of the live stream may have missed changes). */
    markAllStale(): void {
      allStale = true;
    },
    /** Up to `max` kept topics to pull, each with the seq the device holds (none: nothing to pull). */
    async takeStale(max: number): Promise<Record<string, number>> {
      if (allStale) {
        allStale = false;
        for (const doc of await db.topics.find().exec()) stale.add(doc.id);
      }
      const ids = [...stale].slice(0, Math.min(max, MAX_TOPIC_IDS));
      for (const id of ids) stale.delete(id);
      const stored = await db.topics.findByIds(ids).exec();
      const known: Record<string, number> = {};
      for (const id of ids) {
        const doc = stored.get(id);
        // An unsent topic is not on the server yet; an evicted one is no longer kept.
        if (doc && !doc.pending) known[id] = doc.seq;
      }
      return known;
    },
    /** A pull that failed: its topics are pulled again next time. */
    putBack(ids: readonly string[]): void {
      for (const id of ids) stale.add(id);
    },
    hasStale: () => allStale || stale.size > 0,
  };
}

export type WorkingSet = ReturnType<typeof createWorkingSet>;
