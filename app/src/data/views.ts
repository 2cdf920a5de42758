// Local documents → what the screens show. Pure functions: the local truth is
// the server's state plus the user's changes not yet confirmed (optimistic
// score, responses_count and comment_count; hidden pending deletes).
import { comparatorFor, RESPONSE_ORDER } from '../../../shared/rules/sort-order.js';
import { voteDocId } from '../../../shared/rules/vote-id.js';
import type { ResponseBalance, ResponseView, TopicView } from './api.js';
import type { ResponseDocType } from './collections/response.schema.js';
import type { TopicDocType } from './collections/topic.schema.js';
import { storedVoteValue, type VoteDocType } from './collections/vote.schema.js';
import { VOTE_VALUES } from '../../../shared/constants.js';

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
    stance_agree: doc.stance_agree,
    stance_disagree: doc.stance_disagree,
    stance_unsure: doc.stance_unsure,
    minds_changed: doc.minds_changed,
    locked: doc.locked,
    moderation: doc.moderation ?? null,
    moderation_reason: doc.moderation_reason ?? null,
    opinion_groups: doc.opinion_groups ?? null,
    isPending: doc.pending,
    isSavedOffline: saved.has(doc.id),
    responsesOnDevice: onDevice.has(doc.id),
  };
}

/** A topic's visible responses as views, oldest first, with quotes joined locally. */
export function responseViews(docs: readonly ResponseDocType[], votes: VoteMap): ResponseView[] {
  return createTopicTreeBuilder()(docs, votes).all();
}

/**
 * One emission of a topic's tree. Views are built on demand: the page asks for the roots and the
 * threads that are open, so a 10,000-response topic builds a few hundred views, not 10,000.
 */
export interface TopicTreeView {
  /** Every visible response, oldest first. Treat the array as read-only. */
  all(): ResponseView[];
  /** Direct replies of a response (null: the roots), oldest first; [] when none. Treat as read-only. */
  children(parentId: string | null): ResponseView[];
  /** Visible responses by type, counted over the documents (no view is built). */
  countByType(): ResponseBalance;
}

/** What a set of documents shows before the user's votes are applied (rebuilt only when a document changes). */
interface Shape {
  docs: readonly ResponseDocType[];
  visible: ResponseDocType[];
  byParent: Map<string | null, ResponseDocType[]>;
  byId: Map<string, ResponseDocType>;
  hidden: Set<string>;
  childDelta: Map<string, number>;
}

function shapeOf(docs: readonly ResponseDocType[]): Shape {
  const hidden = hiddenByPendingDeletes(docs);
  const byId = new Map<string, ResponseDocType>();
  const childDelta = new Map<string, number>();
  for (const doc of docs) {
    byId.set(doc.id, doc);
    if (!doc.parent_response_id) continue;
    const made = doc.seq === 0 && !hidden.has(doc.id) ? 1 : 0;
    const removed = doc.pending_delete && doc.seq > 0 ? -1 : 0;
    if (made || removed) childDelta.set(doc.parent_response_id, (childDelta.get(doc.parent_response_id) ?? 0) + made + removed);
  }
  const visible = hidden.size > 0 ? docs.filter((doc) => !hidden.has(doc.id)) : [...docs];
  // Queries read in this order already (the topic_id, created_at index): sort only when it is not.
  const order = comparatorFor(RESPONSE_ORDER);
  if (visible.some((doc, i) => i > 0 && order(visible[i - 1]!, doc) > 0)) visible.sort(order);
  const byParent = new Map<string | null, ResponseDocType[]>();
  for (const doc of visible) {
    const parent = doc.parent_response_id ?? null;
    const list = byParent.get(parent);
    if (list) list.push(doc);
    else byParent.set(parent, [doc]);
  }
  return { docs, visible, byParent, byId, hidden, childDelta };
}

const sameQuote = (a: ResponseView['quoted_response'], b: ResponseView['quoted_response']) =>
  a === b ||
  (a !== null && b !== null && a.id === b.id && a.content === b.content && a.username === b.username && a.creator_uid === b.creator_uid);

const sameViews = (a: readonly ResponseView[] | undefined, b: readonly ResponseView[]) =>
  a !== undefined && a.length === b.length && a.every((view, i) => view === b[i]);

const NONE: ResponseView[] = [];

/**
 * A builder for one topic's tree, called on every emission of its documents or of the user's votes.
 * It keeps the previous emissions' view objects (and lists) wherever nothing they show changed, so a
 * vote gives a new object to the voted response only and memoised rows skip rendering. Documents are
 * compared by identity: the caller passes the same object for an unchanged revision.
 */
export function createTopicTreeBuilder() {
  let shape: Shape | null = null;
  let generation = 0;
  const views = new Map<string, { doc: ResponseDocType; view: ResponseView }>();
  const lists = new Map<string | null, ResponseView[]>();
  let everything: ResponseView[] = NONE;

  return (docs: readonly ResponseDocType[], votes: VoteMap): TopicTreeView => {
    if (shape?.docs !== docs) {
      shape = shapeOf(docs);
      for (const id of views.keys()) if (!shape.byId.has(id)) views.delete(id);
    }
    const { byId, hidden, childDelta, byParent, visible } = shape;
    const current = ++generation;
    // Only the newest emission updates what later ones compare against.
    const latest = () => current === generation;

    const viewOf = (doc: ResponseDocType): ResponseView => {
      const vote = votes.get(voteDocId('response', doc.id));
      const quoted = doc.quoted_response_id ? byId.get(doc.quoted_response_id) : undefined;
      const quote =
        quoted && !hidden.has(quoted.id)
          ? { id: quoted.id, content: quoted.content, username: quoted.username ?? null, creator_uid: quoted.creator_uid }
          : null;
      const score = doc.score + voteDelta(vote, doc.seq);
      const upvoted = vote?.upvoted ?? false;
      const userVote = storedVoteValue(vote);
      const commentCount = Math.max(0, doc.comment_count + (childDelta.get(doc.id) ?? 0));
      const before = views.get(doc.id);
      if (
        before &&
        before.doc === doc &&
        before.view.score === score &&
        before.view.user_has_upvoted === upvoted &&
        before.view.user_vote === userVote &&
        before.view.comment_count === commentCount &&
        sameQuote(before.view.quoted_response, quote)
      )
        return before.view;
      const view: ResponseView = {
        id: doc.id,
        content: doc.content,
        type: doc.type,
        topic_id: doc.topic_id,
        parent_response_id: doc.parent_response_id ?? null,
        quoted_response: quote,
        quoted_response_id: quote ? quote.id : null,
        sources:
          before?.doc === doc
            ? before.view.sources
            : doc.sources.map((source, index) => ({
                id: `${doc.id}-${index}`,
                url: source.url,
                name: source.name ?? null,
                description: source.description ?? null,
              })),
        created_at: doc.created_at,
        edited_at: doc.edited_at ?? null,
        versions: doc.versions,
        username: doc.username ?? null,
        creator_uid: doc.creator_uid,
        score,
        user_has_upvoted: upvoted,
        user_has_downvoted: userVote === VOTE_VALUES.disagree,
        user_vote: userVote,
        comment_count: commentCount,
        delta_count: doc.delta_count,
        upvotes_agree: doc.upvotes_agree,
        upvotes_disagree: doc.upvotes_disagree,
        downvotes_agree: doc.downvotes_agree ?? 0,
        downvotes_disagree: doc.downvotes_disagree ?? 0,
        moderation: doc.moderation ?? null,
        moderation_reason: doc.moderation_reason ?? null,
        isPending: doc.pending,
      };
      if (latest()) views.set(doc.id, { doc, view });
      return view;
    };

    const built = new Map<string | null, ResponseView[]>();
    let all: ResponseView[] | null = null;
    return {
      children(parentId) {
        let list = built.get(parentId);
        if (list) return list;
        const docsHere = byParent.get(parentId);
        list = docsHere ? docsHere.map(viewOf) : NONE;
        const before = lists.get(parentId);
        if (sameViews(before, list)) list = before!;
        else if (latest()) lists.set(parentId, list);
        built.set(parentId, list);
        return list;
      },
      countByType() {
        const balance: ResponseBalance = { for: 0, against: 0, neutral: 0 };
        for (const doc of visible) balance[doc.type] += 1;
        return balance;
      },
      all() {
        if (all) return all;
        all = visible.map(viewOf);
        if (sameViews(everything, all)) all = everything;
        else if (latest()) everything = all;
        return all;
      },
    };
  };
}
