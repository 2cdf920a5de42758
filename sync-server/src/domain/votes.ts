// Upvotes (docs/RULES.md): a toggle per user and target. The target's
// creator comes from the server's own rows, never from what the client sent.
import type { AuthUser } from '../auth/verifier.js';
import type { TargetType } from '../../../shared/constants.js';
import { MSG } from '../../../shared/messages.js';
import type { UpvoteResult } from '../../../shared/types.js';
import { notFound } from '../../../shared/errors.js';
import { nowIso, publish, type DomainContext } from './context.js';
import type { Change } from './change-feed.js';
import { assertNotSuspended } from './moderation-rules.js';

interface Target {
  creator_uid: string;
  topic_id: string;
  topic_created_at: string;
}

async function liveTarget(ctx: DomainContext, type: TargetType, id: string): Promise<Target> {
  if (type === 'topic') {
    const topic = await ctx.store.topics.get(id, null);
    if (!topic || topic.deleted) throw notFound(MSG.targetNotFound);
    return { creator_uid: topic.creator_uid, topic_id: topic.id, topic_created_at: topic.created_at };
  }
  const response = await ctx.store.responses.get(id, null);
  if (!response || response.deleted) throw notFound(MSG.targetNotFound);
  const topic = (await ctx.store.topics.get(response.topic_id, null))!;
  return { creator_uid: response.creator_uid, topic_id: topic.id, topic_created_at: topic.created_at };
}

/**
 * Sets the caller's vote on a target. Returns whether anything changed, so a
 * repeated POST (or a replayed push) is harmless.
 */
export async function setVote(
  ctx: DomainContext,
  actor: AuthUser,
  type: TargetType,
  targetId: string,
  upvoted: boolean,
): Promise<{ result: UpvoteResult; changed: boolean }> {
  const { store } = ctx;
  const changes: Change[] = [];
  const changed = await store.transaction(async () => {
    const target = await liveTarget(ctx, type, targetId);
    const current = await store.votes.get(actor.uid, type, targetId);
    const isUpvoted = current !== undefined && current.deleted === 0;
    if (isUpvoted === upvoted) return false;
    if (!upvoted && current === undefined) return false;
    await assertNotSuspended(ctx, actor.uid);
    // Common ground: the vote keeps the voter's stance at the time it is cast; taking
    // it back removes it from the side it was counted on, whatever the voter thinks now.
    const side = upvoted ? ((await store.stances.get(actor.uid, target.topic_id))?.stance ?? null) : (current?.stance ?? null);
    await store.votes.set({
      voter_uid: actor.uid,
      target_type: type,
      target_id: targetId,
      target_creator_uid: target.creator_uid,
      topic_id: target.topic_id,
      stance: side,
      now: nowIso(ctx),
      deleted: !upvoted,
      seq: await store.nextSeq(),
    });
    // Maintained counters: one vote more or less (O(1), equal to a recount). A self-upvote counts
    // in the score but on no side: the public counts by side would tell the author's stance.
    const delta = upvoted ? 1 : -1;
    const counted = target.creator_uid === actor.uid ? null : side;
    if (type === 'topic') await store.topics.addToCounts(targetId, { score: delta }, await store.nextSeq());
    else {
      await store.responses.addToCounts(
        targetId,
        { score: delta, upvotesAgree: counted === 'agree' ? delta : 0, upvotesDisagree: counted === 'disagree' ? delta : 0 },
        await store.nextSeq(),
      );
    }
    // The author's points changed: their profile row gets a new seq, so their devices pull it live.
    if (target.creator_uid !== actor.uid && (await store.users.addPoints(target.creator_uid, delta, store.nextSeq))) {
      changes.push({ collection: 'profile', uid: target.creator_uid });
    }
    changes.push(
      { collection: 'votes', uid: actor.uid },
      type === 'topic' ? { collection: 'topics' } : { collection: 'responses', topicId: target.topic_id },
    );
    return true;
  });
  publish(ctx, changes);
  return { result: await voteState(ctx, actor.uid, type, targetId), changed };
}

async function voteState(ctx: DomainContext, uid: string, type: TargetType, targetId: string): Promise<UpvoteResult> {
  const row = type === 'topic' ? await ctx.store.topics.get(targetId, uid) : await ctx.store.responses.get(targetId, uid);
  return {
    target_type: type,
    target_id: targetId,
    score: row?.score ?? 0,
    user_has_upvoted: row?.user_has_upvoted === 1,
  };
}
