// Pull: the documents changed after a checkpoint, ordered by (seq, id), at most
// `limit` and never more than PULL_ANSWER_MAX, read through the collection's descriptor (public
// collections for anyone, private ones for the caller only).
import {
  PULL_ANSWER_MAX,
  type PullResponse,
  type ResponsesCheckpoint,
  type SyncCheckpoint,
  type SyncCollection,
  type SyncDocs,
} from '../../../shared/sync-protocol.js';
import type { DomainContext } from '../domain/context.js';
import { descriptorOf, type PullScope } from './collections/index.js';

function advance<D extends { id: string; seq: number }>(documents: D[], from: SyncCheckpoint): SyncCheckpoint {
  const last = documents[documents.length - 1];
  return last ? { id: last.id, seq: last.seq } : from;
}

export async function pull<C extends SyncCollection>(
  ctx: DomainContext,
  collection: C,
  scope: PullScope,
  from: SyncCheckpoint,
  limit: number,
): Promise<PullResponse<SyncDocs[C]>> {
  // One read: at most PULL_ANSWER_MAX documents, a few milliseconds of the event loop. (Pages of 1,000
  // were read in sub-pages with turns between them; under 50 pulls at once each still waited for the
  // others' whole pages.)
  const documents = await descriptorOf(collection).pull(ctx, scope, from, Math.min(limit, PULL_ANSWER_MAX));
  return { documents, checkpoint: advance(documents, from) };
}

/** Several followed topics in one request: topics in id order, each from its own position. */
export async function pullResponsesOfTopics(
  ctx: DomainContext,
  from: ResponsesCheckpoint,
  limit: number,
): Promise<PullResponse<SyncDocs['responses'], ResponsesCheckpoint>> {
  const documents: SyncDocs['responses'][] = [];
  const topics: Record<string, SyncCheckpoint> = {};
  const wanted = Math.min(limit, PULL_ANSWER_MAX);
  for (const topicId of Object.keys(from.topics).sort()) {
    const position = from.topics[topicId]!;
    const remaining = wanted - documents.length;
    if (remaining > 0) {
      const page = await pull(ctx, 'responses', { user: null, topicId }, position, remaining);
      documents.push(...page.documents);
      topics[topicId] = page.checkpoint;
    } else {
      topics[topicId] = position;
    }
  }
  return { documents, checkpoint: { topics } };
}
