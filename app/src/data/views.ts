// Local documents → what the screens show. Pure functions: the local truth is
// the server's state plus the user's changes not yet confirmed (optimistic
// score, responses_count and comment_count; hidden pending deletes).
import { comparatorFor, RESPONSE_ORDER } from '../../../shared/rules/sort-order.js';
import { voteDocId } from '../../../shared/rules/vote-id.js';
import type { ResponseView, TopicView } from './api.js';
import type { ResponseDocType } from './collections/response.schema.js';
import type { TopicDocType } from './collections/topic.schema.js';
import type { VoteDocType } from './collections/vote.schema.js';

export type VoteMap = ReadonlyMap<string, VoteDocType>;

/**
 * How much the user's vote adds to the target's stored score. The server
 * recounts a target's score in the same transaction as the vote and stamps it
 * with a later seq, so target.seq >= vote.seq means the stored score already
 * counts the vote's confirmed state; otherwise it counts the state before it.
 */
export function voteDelta(vote: VoteDocType | undefined, targetSeq: number): number {
  if (!vote) return 0;
  let counted = false;
  if (vote.seq > 0) counted = targetSeq >= vote.seq ? vote.confirmed_upvoted : !vote.confirmed_upvoted;
  return (vote.upvoted ? 1 : 0) - (counted ? 1 : 0);
}

/** Ids hidden by a pending delete: the deleted responses and everything under them. */
export function hiddenByPendingDeletes(docs: readonly ResponseDocType[]): Set<string> {
  const children = new Map<string, string[]>();
  for (const doc of docs) {
    if (!doc.parent_response_id) continue;
    const list = children.get(doc.parent_response_id) ?? [];
    list.push(doc.id);
    children.set(doc.parent_response_id, list);
  }
  const hidden = new Set<string>();
  const stack = docs.filter((doc) => doc.pending_delete).map((doc) => doc.id);
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (hidden.has(id)) continue;
    hidden.add(id);
    stack.push(...(children.get(id) ?? []));
  }
  return hidden;
}

/**
 * responses_count change per topic from unconfirmed local work: +1 per response
 * made here, minus each pending-deleted response with its local subtree (only
 * responses the server had count, so made-here-then-deleted ones cancel out).
 */
export function responsesCountDelta(pendingDocs: readonly ResponseDocType[], topicDocs: (topicId: string) => readonly ResponseDocType[]) {
  const delta = new Map<string, number>();
  const add = (topicId: string, n: number) => delta.set(topicId, (delta.get(topicId) ?? 0) + n);
  for (const doc of pendingDocs) if (doc.seq === 0 && !doc.pending_delete) add(doc.topic_id, 1);
  const topicsWithDeletes = new Set(pendingDocs.filter((doc) => doc.pending_delete).map((doc) => doc.topic_id));
  for (const topicId of topicsWithDeletes) {
    const docs = topicDocs(topicId);
    for (const id of hiddenByPendingDeletes(docs)) {
      const doc = docs.find((d) => d.id === id);
      if (doc && doc.seq > 0) add(topicId, -1);
      else if (doc && !doc.pending_delete) add(topicId, -1); // made here, counted above, hidden now
    }
  }
  return delta;
}

export function topicView(
  doc: TopicDocType,
  votes: VoteMap,
  countDelta: number,
  saved: ReadonlySet<string>,
  onDevice: ReadonlySet<string> = new Set(),
): TopicView {
  const vote = votes.get(voteDocId('topic', doc.id));
  return {
    id: doc.id,
    title: doc.title,
    categories: [doc.category],
    created_at: doc.created_at,
    username: doc.username ?? null,
    creator_uid: doc.creator_uid,
    score: doc.score + voteDelta(vote, doc.seq),
    user_has_upvoted: vote?.upvoted ?? false,
    user_has_downvoted: false,
    responses_count: Math.max(0, doc.responses_count + countDelta),
    isPending: doc.pending,
    isSavedOffline: saved.has(doc.id),
    responsesOnDevice: onDevice.has(doc.id),
  };
}

/** A topic's visible responses as views, oldest first, with quotes joined locally. */
export function responseViews(docs: readonly ResponseDocType[], votes: VoteMap): ResponseView[] {
  const hidden = hiddenByPendingDeletes(docs);
  const byId = new Map(docs.map((doc) => [doc.id, doc]));
  const childDelta = new Map<string, number>();
  for (const doc of docs) {
    if (!doc.parent_response_id) continue;
    const made = doc.seq === 0 && !hidden.has(doc.id) ? 1 : 0;
    const removed = doc.pending_delete && doc.seq > 0 ? -1 : 0;
    if (made || removed) childDelta.set(doc.parent_response_id, (childDelta.get(doc.parent_response_id) ?? 0) + made + removed);
  }
  return docs
    .filter((doc) => !hidden.has(doc.id))
    .sort(comparatorFor(RESPONSE_ORDER))
    .map((doc) => {
      const vote = votes.get(voteDocId('response', doc.id));
      const quoted = doc.quoted_response_id ? byId.get(doc.quoted_response_id) : undefined;
      const quoteLive = quoted && !hidden.has(quoted.id);
      return {
        id: doc.id,
        content: doc.content,
        type: doc.type,
        topic_id: doc.topic_id,
        parent_response_id: doc.parent_response_id ?? null,
        quoted_response: quoteLive ? { id: quoted.id, content: quoted.content, username: quoted.username ?? null } : null,
        quoted_response_id: quoteLive ? quoted.id : null,
        sources: doc.sources.map((source, index) => ({
          id: `${doc.id}-${index}`,
          url: source.url,
          name: source.name ?? null,
          description: source.description ?? null,
        })),
        created_at: doc.created_at,
        username: doc.username ?? null,
        creator_uid: doc.creator_uid,
        score: doc.score + voteDelta(vote, doc.seq),
        user_has_upvoted: vote?.upvoted ?? false,
        user_has_downvoted: false,
        comment_count: Math.max(0, doc.comment_count + (childDelta.get(doc.id) ?? 0)),
        isPending: doc.pending,
      };
    });
}
