// Pull: the documents changed after a checkpoint, ordered by (seq, id), at most
// `limit`, read through the collection's descriptor (public collections for
// anyone, private ones for the caller only).
import type { PullResponse, ResponsesCheckpoint, SyncCheckpoint, SyncCollection, SyncDocs } from '../../../shared/sync-protocol.js';
import type { DomainContext } from '../domain/context.js';
import { readInTurns } from '../domain/turns.js';
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
  // In sub-pages with a turn between each (domain/turns.ts): a page of 1,000 read in one go held the
  // event loop for its whole cost. Each sub-page starts where the last one ended, so the page is the one
  // a single read answers; a document changed meanwhile may come again, later, and only that last copy is kept.
  const descriptor = descriptorOf(collection);
  const read = (after: SyncCheckpoint, n: number) => descriptor.pull(ctx, scope, after, n);
  const documents = latestOfEach(await readInTurns(read, (doc): SyncCheckpoint => ({ id: doc.id, seq: doc.seq }), from, limit));
  return { documents, checkpoint: advance(documents, from) };
}

/** The documents with only the last copy of any that came twice (stamped again between two sub-pages). */
function latestOfEach<D extends { id: string }>(documents: D[]): D[] {
  const lastIndex = new Map<string, number>();
  documents.forEach((doc, index) => lastIndex.set(doc.id, index));
  return lastIndex.size === documents.length ? documents : documents.filter((doc, index) => lastIndex.get(doc.id) === index);
}

/** Several followed topics in one request: topics in id order, each from its own position. */
export async function pullResponsesOfTopics(
  ctx: DomainContext,
  from: ResponsesCheckpoint,
  limit: number,
): Promise<PullResponse<SyncDocs['responses'], ResponsesCheckpoint>> {
  const documents: SyncDocs['responses'][] = [];
  const topics: Record<string, SyncCheckpoint> = {};
  for (const topicId of Object.keys(from.topics).sort()) {
    const position = from.topics[topicId]!;
    const remaining = limit - documents.length;
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
