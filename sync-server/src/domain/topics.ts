// Topic operations: list, read, create (idempotent by client id), delete with cascade.
import type { AuthUser } from '../auth/verifier.js';
import { MSG } from '../../../shared/messages.js';
import type { CreateTopicInput, ListTopicsQuery } from '../../../shared/schemas/topics.js';
import type { Topic } from '../../../shared/types.js';
import { ftsQuery } from '../../../shared/rules/search-words.js';
import { conflict, notFound } from '../../../shared/errors.js';
import { assertOwner } from '../../../shared/rules/ownership.js';
import { toTopic } from '../store/topics-repo.js';
import { nowIso, type DomainContext } from './context.js';
import type { Change } from './change-feed.js';
import { refreshPersuasion } from './stances.js';

export function listTopics(ctx: DomainContext, query: ListTopicsQuery, viewer: string | null): Topic[] {
  const { store } = ctx;
  if (query.search !== undefined) {
    const match = ftsQuery(query.search);
    if (match === null) return [];
    return store.topics.search({ ...query, match, viewer }).map(toTopic);
  }
  return store.topics.list({ ...query, viewer }).map(toTopic);
}

export function getTopic(ctx: DomainContext, id: string, viewer: string | null): Topic {
  const row = ctx.store.topics.get(id, viewer);
  if (!row || row.deleted) throw notFound(MSG.topicNotFound);
  return toTopic(row);
}

export function createTopic(ctx: DomainContext, actor: AuthUser, input: CreateTopicInput): Topic {
  const { store } = ctx;
  const id = input.id ?? ctx.newId();
  store.transaction(() => {
    const existing = store.topics.get(id, actor.uid);
    if (existing) {
      // A retried create (same author, same id) answers with what landed the first time.
      if (existing.creator_uid === actor.uid && !existing.deleted) return;
      throw conflict(MSG.idTaken);
    }
    store.topics.insert({
      id,
      title: input.title,
      category: input.categories[0]!,
      creator_uid: actor.uid,
      created_at: nowIso(ctx),
      seq: store.nextSeq(),
    });
  });
  ctx.changes.publish([{ collection: 'topics' }]);
  return getTopic(ctx, id, actor.uid);
}

export function deleteTopic(ctx: DomainContext, actor: AuthUser, id: string): void {
  const { store } = ctx;
  const changes: Change[] = [{ collection: 'topics' }, { collection: 'responses', topicId: id }];
  store.transaction(() => {
    const topic = store.topics.get(id, null);
    if (!topic || topic.deleted) throw notFound(MSG.topicNotFound);
    assertOwner(topic, actor.uid, MSG.notYourTopic);
    // Points each author loses: the removed votes by others on their topic and responses.
    const creditedUsers = new Map<string, number>();
    const voters = new Set<string>();
    const removeVotes = (type: 'topic' | 'response', targetId: string) => {
      for (const vote of store.votes.removeAllOn(type, targetId, store.nextSeq)) {
        if (vote.voter_uid !== vote.target_creator_uid) {
          creditedUsers.set(vote.target_creator_uid, (creditedUsers.get(vote.target_creator_uid) ?? 0) - 1);
        }
        voters.add(vote.voter_uid);
      }
    };
    const persuaded = new Set<string>();
    for (const responseId of store.responses.liveIdsOfTopic(id)) {
      removeVotes('response', responseId);
      for (const author of store.stances.authorsCreditedOn(responseId)) persuaded.add(author);
      store.responses.softDelete(responseId, store.nextSeq());
    }
    removeVotes('topic', id);
    for (const uid of store.notifications.removeForTopic(id, store.nextSeq)) {
      changes.push({ collection: 'notifications', uid });
    }
    store.topics.softDelete(id, store.nextSeq());
    for (const [uid, delta] of creditedUsers) {
      if (store.users.addPoints(uid, delta, store.nextSeq)) changes.push({ collection: 'profile', uid });
    }
    // Δ credits on the removed responses no longer count: their authors' persuasion points are recounted.
    for (const uid of persuaded) changes.push(...refreshPersuasion(ctx, uid));
    for (const uid of voters) changes.push({ collection: 'votes', uid });
  });
  ctx.changes.publish(changes);
}
