// Pull: the documents changed after a checkpoint, ordered by (seq, id), at most
// `limit`. Public collections for anyone, private ones for the caller only.
import type {
  PullResponse,
  ResponsesCheckpoint,
  SyncCheckpoint,
  SyncCollection,
  SyncDocs,
} from '../../../shared/sync-protocol.js';
import type { AuthUser } from '../auth/verifier.js';
import type { DomainContext } from '../domain/context.js';
import { notificationDoc, profileDoc, responseDoc, topicDoc, voteDoc } from './docs.js';

function advance<D extends { id: string; seq: number }>(documents: D[], from: SyncCheckpoint): SyncCheckpoint {
  const last = documents[documents.length - 1];
  return last ? { id: last.id, seq: last.seq } : from;
}

export function pullTopics(ctx: DomainContext, from: SyncCheckpoint, limit: number): PullResponse<SyncDocs['topics']> {
  const documents = ctx.store.topics.changesSince(from, limit, null).map(topicDoc);
  return { documents, checkpoint: advance(documents, from) };
}

export function pullTopicResponses(
  ctx: DomainContext,
  topicId: string,
  from: SyncCheckpoint,
  limit: number,
): PullResponse<SyncDocs['responses']> {
  const documents = ctx.store.responses.changesSince(topicId, from, limit, null).map((row) => responseDoc(ctx.store, row));
  return { documents, checkpoint: advance(documents, from) };
}

/** Several followed topics in one request: topics in id order, each from its own position. */
export function pullResponsesOfTopics(
  ctx: DomainContext,
  from: ResponsesCheckpoint,
  limit: number,
): PullResponse<SyncDocs['responses'], ResponsesCheckpoint> {
  const documents: SyncDocs['responses'][] = [];
  const topics: Record<string, SyncCheckpoint> = {};
  for (const topicId of Object.keys(from.topics).sort()) {
    const position = from.topics[topicId]!;
    const remaining = limit - documents.length;
    if (remaining > 0) {
      const page = pullTopicResponses(ctx, topicId, position, remaining);
      documents.push(...page.documents);
      topics[topicId] = page.checkpoint;
    } else {
      topics[topicId] = position;
    }
  }
  return { documents, checkpoint: { topics } };
}

export function pullPrivate(
  ctx: DomainContext,
  user: AuthUser,
  collection: Exclude<SyncCollection, 'topics' | 'responses'>,
  from: SyncCheckpoint,
  limit: number,
): PullResponse {
  const { store } = ctx;
  if (collection === 'votes') {
    const documents = store.votes.changesSince(user.uid, from, limit).map(voteDoc);
    return { documents, checkpoint: advance(documents, from) };
  }
  if (collection === 'notifications') {
    const documents = store.notifications.changesSince(user.uid, from, limit).map(notificationDoc);
    return { documents, checkpoint: advance(documents, from) };
  }
  // One profile document: sent when it changed after the checkpoint's seq.
  const row = store.users.changedSince(user.uid, from.seq);
  const documents = row ? [profileDoc(row)] : [];
  return { documents, checkpoint: advance(documents, from) };
}
