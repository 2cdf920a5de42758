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
import { stringifyInTurns } from '../domain/turns.js';
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

/** A pull's page as the route sends it: its documents as the bytes of a JSON array, how many, where it ends. */
export interface PullText<K> {
  documents: Uint8Array;
  count: number;
  checkpoint: K;
}

const UTF8 = new TextEncoder();

/**
 * pull, as the bytes JSON.stringify of its documents gives. Topics and a topic's responses come as
 * SQLite writes them (store/sqlite/json-changes.ts: no object per document, about half the time); any
 * other page is read as documents and stringified a few hundred at a time with a turn between (domain/turns.ts).
 */
export async function pullText<C extends SyncCollection>(
  ctx: DomainContext,
  collection: C,
  scope: PullScope,
  from: SyncCheckpoint,
  limit: number,
): Promise<PullText<SyncCheckpoint>> {
  const wanted = Math.min(limit, PULL_ANSWER_MAX);
  const made =
    collection === 'responses' && scope.topicId
      ? await ctx.store.responses.changesSinceJson(scope.topicId, from, wanted)
      : collection === 'topics'
        ? await ctx.store.topics.changesSinceJson(from, wanted)
        : null;
  if (made) return { documents: made.json, count: made.documents, checkpoint: made.checkpoint ?? from };
  const page = await pull(ctx, collection, scope, from, limit);
  return { documents: UTF8.encode(await stringifyInTurns(page.documents)), count: page.documents.length, checkpoint: page.checkpoint };
}

/**
 * Several followed topics in one request: topics in id order, each from its own position, together at
 * most `limit` (and PULL_ANSWER_MAX) documents, each topic's part as pullText answers it.
 */
export async function pullResponsesOfTopicsText(
  ctx: DomainContext,
  from: ResponsesCheckpoint,
  limit: number,
): Promise<PullText<ResponsesCheckpoint>> {
  const parts: Uint8Array[] = [];
  let count = 0;
  const topics: Record<string, SyncCheckpoint> = {};
  const wanted = Math.min(limit, PULL_ANSWER_MAX);
  for (const topicId of Object.keys(from.topics).sort()) {
    const position = from.topics[topicId]!;
    const remaining = wanted - count;
    if (remaining > 0) {
      const page = await pullText(ctx, 'responses', { user: null, topicId }, position, remaining);
      // Each part is `[…]`: its items, without the brackets, go into the one array.
      if (page.count > 0) parts.push(page.documents.subarray(1, page.documents.length - 1));
      count += page.count;
      topics[topicId] = page.checkpoint;
    } else {
      topics[topicId] = position;
    }
  }
  const comma = UTF8.encode(',');
  const joined = parts.flatMap((part, i) => (i === 0 ? [part] : [comma, part]));
  return { documents: Buffer.concat([UTF8.encode('['), ...joined, UTF8.encode(']')]), count, checkpoint: { topics } };
}
