// One RxDB replication per collection against /api/sync/{collection}: pull only, from an
// {id, seq} checkpoint (responses: one position per followed topic), again on each RESYNC of the
// shared live stream. The user's changes go the other way through the collection's outbox
// (outbox.ts), which sends them through the push handler (push-handler.ts). Without a push, RxDB
// keeps no replication-meta copy of the pulled documents.
import { Subject } from 'rxjs';
import type { RxCollection } from 'rxdb';
import { replicateRxCollection, type RxReplicationState } from 'rxdb/plugins/replication';
import {
  PRIVATE_COLLECTIONS,
  PULL_ANSWER_MAX,
  START_CHECKPOINT,
  type AnySyncDoc,
  type PullResponse,
  type ResponsesCheckpoint,
  type SyncCheckpoint,
  type SyncCollection,
  type TopicsAnswer,
} from '../../../shared/sync-protocol.js';
import { SYNCED, type LocalRow } from './collections/index.js';
import { toLocal } from './local-docs.js';
import { chunkedPull } from './pull-chunks.js';
import { pulledWritesSettled } from './pull-guard.js';
import { MSG } from '../../../shared/messages.js';
import { forgetTopicPage } from '../service-worker/topic-pages.js';
import { createPushHandler, type PushDeps } from './push-handler.js';
import { createOutbox, type Outbox } from './outbox.js';
import type { WorkingSet } from './working-set.js';

/** Documents asked of the server per pull request: the most one answer carries, so a shorter one is the last. */
export const PULL_BATCH = PULL_ANSWER_MAX;
/** Documents RxDB stores at a time: a short task on a phone's CPU (pull-chunks.ts). PULL_BATCH must be a whole number of parts. */
export const PULL_PART = 100;
// Under the server's 1 MiB body limit even with 10,000-character responses.
export const PUSH_BATCH = 50;

export interface CollectionReplication {
  collection: SyncCollection;
  state: RxReplicationState<LocalRow, unknown>;
  /** What sends the user's changes (the replication only pulls). */
  outbox: Outbox;
  /** Feeds the replication's stream$: 'RESYNC' sends it back to checkpoint pulls (and the outbox looks again). */
  resync(): void;
}

export interface ReplicationDeps extends Omit<PushDeps, 'collection'> {
  identifierPrefix: string;
  retryTimeMs: number;
  /** Followed topics (pull style 'followed-topics' only). */
  followedTopics?: () => string[];
  /** Topics whose responses a pull has brought up to date (their responses are on the device). */
  topicsPulled?: (topicIds: string[]) => void;
  /** The kept topics to pull again (pull style 'kept-topics' only: working-set.ts). */
  keptTopics?: Pick<WorkingSet, 'takeStale' | 'putBack'>;
}

function pullQuery(checkpoint: SyncCheckpoint | undefined, limit: number) {
  const from = checkpoint ?? START_CHECKPOINT;
  return `id=${encodeURIComponent(from.id)}&seq=${from.seq}&limit=${limit}`;
}

/** Where a run of pulled documents ends: the last one's position (they come in (seq, id) order). */
const lastPosition = (from: SyncCheckpoint, part: readonly AnySyncDoc[]): SyncCheckpoint => {
  const last = part[part.length - 1];
  return last ? { id: last.id, seq: last.seq } : from;
};

type PullHandler = (checkpoint: unknown, batchSize: number) => Promise<PullResponse<AnySyncDoc, unknown>>;

function pullHandler(name: SyncCollection, collection: RxCollection, deps: ReplicationDeps): PullHandler {
  const isPrivate = PRIVATE_COLLECTIONS.includes(name);
  const stored = () => pulledWritesSettled(collection.database.name, collection.name);
  if (SYNCED[name].sync.pull === 'followed-topics') {
    const pull = chunkedPull<AnySyncDoc, ResponsesCheckpoint>({
      fetch: (from, limit) =>
        deps.http.json<PullResponse<AnySyncDoc, ResponsesCheckpoint>>(`/${name}/pull`, {
          method: 'POST',
          body: { checkpoint: from, limit },
          token: deps.token(),
        }),
      // Topic by topic: each topic that has documents in the part moves to its last one.
      advance: (from, part) => {
        const topics = { ...from.topics };
        for (const doc of part) if ('topic_id' in doc) topics[doc.topic_id] = { id: doc.id, seq: doc.seq };
        return { topics };
      },
      stored,
      pageSize: PULL_BATCH,
      partSize: PULL_PART,
    });
    return async (last) => {
      const checkpoint = last as ResponsesCheckpoint | undefined;
      // Followed topics only: an evicted topic's position is dropped with it;
      // a newly opened one starts from the beginning.
      const topics: Record<string, SyncCheckpoint> = {};
      for (const topicId of deps.followedTopics?.() ?? []) {
        topics[topicId] = checkpoint?.topics?.[topicId] ?? START_CHECKPOINT;
      }
      if (Object.keys(topics).length === 0) return { documents: [], checkpoint: { topics } };
      const answer = await pull({ topics });
      // The last part of a short page: every asked topic is caught up (RxDB stores the part next).
      if (answer.caughtUp) deps.topicsPulled?.(Object.keys(topics));
      return { documents: answer.documents, checkpoint: answer.checkpoint };
    };
  }
  if (SYNCED[name].sync.pull === 'kept-topics') {
    // The kept topics by id, never the site: each pull reads at most one row per kept topic on the
    // server. RxDB pulls again while a page is full, so a page is short only once none is left.
    return async (_last, batchSize) => {
      await stored();
      const documents: AnySyncDoc[] = [];
      const taken: string[] = [];
      while (documents.length < batchSize && deps.keptTopics) {
        const known = await deps.keptTopics.takeStale(batchSize - documents.length);
        const ids = Object.keys(known);
        if (ids.length === 0) break;
        taken.push(...ids);
        try {
          const answer = await deps.http.json<TopicsAnswer>(`/${name}/pull`, { method: 'POST', body: { topics: known }, token: null });
          documents.push(...answer.documents);
        } catch (error) {
          // Nothing of this call is stored: every topic it took is pulled again.
          deps.keptTopics.putBack(taken);
          throw error;
        }
      }
      return { documents, checkpoint: { kept: true } };
    };
  }
  const pull = chunkedPull<AnySyncDoc, SyncCheckpoint>({
    fetch: (from, limit) => {
      const bearer = deps.token();
      if (isPrivate && !bearer) throw new Error('Signed out: private data is not pulled.');
      return deps.http.json<PullResponse>(`/${name}/pull?${pullQuery(from, limit)}`, { token: bearer });
    },
    advance: lastPosition,
    stored,
    pageSize: PULL_BATCH,
    partSize: PULL_PART,
  });
  return async (last) => {
    const { documents, checkpoint } = await pull((last as SyncCheckpoint | undefined) ?? START_CHECKPOINT);
    return { documents, checkpoint };
  };
}

/**
 * Whether a pulled topic or response changed in a way the topic's kept page (the service worker's
 * copy of the server's first screen) must not outlive: it was deleted, a moderator removed or hid
 * it, or its author deleted their account. An erased account's texts read MSG.deletedWithAccount with no moderation
 * state (the server writes no moderation for them), and both choices, erase and anonymise, rename
 * the author MSG.deletedUser, so the name is the marker that covers both. Someone who calls
 * themselves "deleted user" only costs their topics' kept pages, which the next online visit keeps again.
 */
function outdatesKeptPage(doc: AnySyncDoc): boolean {
  if (doc._deleted) return true;
  if ('moderation' in doc && doc.moderation) return true;
  if ('username' in doc && doc.username === MSG.deletedUser) return true;
  if ('content' in doc && doc.content === MSG.deletedWithAccount) return true;
  return 'title' in doc && doc.title === MSG.deletedWithAccount;
}

/** The topics whose kept pages a pull of `name` makes stale (see outdatesKeptPage). */
export function topicsWithStalePages(name: SyncCollection, documents: readonly AnySyncDoc[]): Set<string> {
  const topics = new Set<string>();
  if (name !== 'topics' && name !== 'responses') return topics;
  for (const doc of documents) {
    if (!outdatesKeptPage(doc)) continue;
    topics.add('topic_id' in doc ? doc.topic_id : doc.id);
  }
  return topics;
}

async function forgetStalePages(name: SyncCollection, documents: readonly AnySyncDoc[]): Promise<void> {
  for (const topicId of topicsWithStalePages(name, documents)) await forgetTopicPage(topicId);
}

/** `collection` is the local collection named `name` (RxCollection's default document type: any of them). */
export function replicate(name: SyncCollection, collection: RxCollection, deps: ReplicationDeps): CollectionReplication {
  const stream$ = new Subject<'RESYNC'>();
  const handler = pullHandler(name, collection, deps);
  const state = replicateRxCollection<LocalRow, unknown>({
    replicationIdentifier: `${deps.identifierPrefix}-${name}`,
    collection,
    pull: {
      handler: async (checkpoint, batchSize) => {
        const answer = await handler(checkpoint, batchSize);
        await forgetStalePages(name, answer.documents);
        return { documents: answer.documents.map((doc) => ({ ...doc })), checkpoint: answer.checkpoint };
      },
      // A part of a page at a time (pull-chunks.ts): a shorter part ends the pulls.
      batchSize: PULL_PART,
      modifier: (doc) => toLocal(name, doc),
      stream$: stream$.asObservable(),
    },
    live: true,
    retryTime: deps.retryTimeMs,
    // One replicating tab per browser: the client starts these only in the leader (see sync-controller.ts).
    waitForLeadership: false,
    autoStart: false,
    toggleOnDocumentVisible: false,
  });
  const push = createPushHandler({ ...deps, collection: name });
  const outbox = createOutbox({ name, collection, push, batchSize: PUSH_BATCH, retryTimeMs: deps.retryTimeMs });
  return {
    collection: name,
    state,
    outbox,
    resync: () => {
      stream$.next('RESYNC');
      outbox.kick();
    },
  };
}
