// One RxDB replication per collection against /api/sync/{collection}: pull from
// an {id, seq} checkpoint (responses: one position per followed topic), push
// through the push handler, and RESYNC from the shared live stream.
import { Subject } from 'rxjs';
import type { RxCollection } from 'rxdb';
import { replicateRxCollection, type RxReplicationState } from 'rxdb/plugins/replication';
import {
  START_CHECKPOINT,
  type PullResponse,
  type ResponsesCheckpoint,
  type SyncCheckpoint,
  type SyncCollection,
} from '../../../shared/sync-protocol.js';
import type { SyncHttp, TokenSource } from './http.js';
import { toLocal } from './local-docs.js';
import { createPushHandler, type PushDeps } from './push-handler.js';

export const PULL_BATCH = 1000;
// Under the server's 1 MiB body limit even with 10,000-character responses.
export const PUSH_BATCH = 50;

export interface CollectionReplication {
  collection: SyncCollection;
  state: RxReplicationState<any, any>;
  /** Feeds the replication's stream$: 'RESYNC' sends it back to checkpoint pulls. */
  resync(): void;
}

export interface ReplicationDeps extends Omit<PushDeps, 'collection'> {
  identifierPrefix: string;
  retryTimeMs: number;
  /** Followed topics (responses only). */
  followedTopics?: () => string[];
}

function pullQuery(checkpoint: SyncCheckpoint | undefined, limit: number) {
  const from = checkpoint ?? START_CHECKPOINT;
  return `id=${encodeURIComponent(from.id)}&seq=${from.seq}&limit=${limit}`;
}

export function replicate(
  name: SyncCollection,
  collection: RxCollection<any>,
  deps: ReplicationDeps,
): CollectionReplication {
  const stream$ = new Subject<'RESYNC'>();
  const isPrivate = name === 'votes' || name === 'notifications' || name === 'profile';
  const token = (): TokenSource | null => deps.token();

  const pullHandler =
    name === 'responses'
      ? async (checkpoint: ResponsesCheckpoint | undefined, batchSize: number) => {
          // Followed topics only: an evicted topic's position is dropped with it;
          // a newly opened one starts from the beginning.
          const topics: Record<string, SyncCheckpoint> = {};
          for (const topicId of deps.followedTopics?.() ?? []) {
            topics[topicId] = checkpoint?.topics?.[topicId] ?? START_CHECKPOINT;
          }
          if (Object.keys(topics).length === 0) return { documents: [], checkpoint: { topics } };
          return deps.http.json<PullResponse<any, ResponsesCheckpoint>>('/responses/pull', {
            method: 'POST',
            body: { checkpoint: { topics }, limit: batchSize },
            token: token(),
          });
        }
      : async (checkpoint: SyncCheckpoint | undefined, batchSize: number) => {
          const bearer = token();
          if (isPrivate && !bearer) throw new Error('Signed out: private data is not pulled.');
          return deps.http.json<PullResponse>(`/${name}/pull?${pullQuery(checkpoint, batchSize)}`, { token: bearer });
        };

  const state = replicateRxCollection<any, any>({
    replicationIdentifier: `${deps.identifierPrefix}-${name}`,
    collection,
    pull: {
      handler: pullHandler as never,
      batchSize: PULL_BATCH,
      modifier: (doc) => toLocal(name, doc),
      stream$: stream$.asObservable(),
    },
    push: {
      handler: createPushHandler({ ...deps, collection: name }),
      batchSize: PUSH_BATCH,
    },
    live: true,
    retryTime: deps.retryTimeMs,
    // One replicating tab per browser: the client starts these only in the leader (see sync-controller.ts).
    waitForLeadership: false,
    autoStart: false,
    toggleOnDocumentVisible: false,
  });
  return { collection: name, state, resync: () => stream$.next('RESYNC') };
}
