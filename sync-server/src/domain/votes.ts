// Votes (docs/RULES.md): one per user and target, agree (the upvote), disagree (the downvote) or
// pass (read, no opinion), changeable and taken back. Only an agree moves a score, the upvotes by
// side and its author's points: a disagree never costs anyone a point. The target's creator comes
// from the server's own rows, never from what the client sent.
import type { AuthUser } from '../auth/verifier.js';
import { VOTE_VALUES, type TargetType, type VoteValue } from '../../../shared/constants.js';
import { MSG } from '../../../shared/messages.js';
import type { UpvoteResult, VoteResult } from '../../../shared/types.js';
import { badRequest, notFound } from '../../../shared/errors.js';
import { nowIso, publish, type DomainContext } from './context.js';
import type { Change } from './change-feed.js';
import type { ResponseCountsDelta } from '../store/rows.js';
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
 * Sets the caller's vote on a target: a value, or null to take it back. With `onlyIf`, taking back
 * removes only a vote of that value (DELETE /api/upvotes leaves a disagree alone). Returns whether
 * anything changed, so a repeated call (or a replayed push) is harmless.
 */
export async function castVote(
  ctx: DomainContext,
  actor: AuthUser,
  type: TargetType,
  targetId: string,
  value: VoteValue | null,
  onlyIf?: VoteValue,
): Promise<{ result: VoteResult; changed: boolean }> {
  const { store } = ctx;
  if (type === 'topic' && value !== null && value !== VOTE_VALUES.agree) throw badRequest(MSG.onlyResponsesTakeOpinionVotes);
  const changes: Change[] = [];
  const changed = await store.transaction(async () => {
    const target = await liveTarget(ctx, type, targetId);
    const current = await store.votes.get(actor.uid, type, targetId);
    const was = current !== undefined && current.deleted === 0 ? current.value : null;
    if (was === value) return false;
    if (value === null && (was === null || (onlyIf !== undefined && was !== onlyIf))) return false;
    await assertNotSuspended(ctx, actor.uid);
    // Common ground: a vote keeps the voter's stance at the time it is cast; taking it back (or
    // changing it) removes it from the side it was counted on, whatever the voter thinks now.
    const side = value !== null ? ((await store.stances.get(actor.uid, target.topic_id))?.stance ?? null) : (current?.stance ?? null);
    await store.votes.set({
      voter_uid: actor.uid,
      target_type: type,
      target_id: targetId,
      target_creator_uid: target.creator_uid,
      topic_id: target.topic_id,
      stance: side,
      value: value ?? was!,
      now: nowIso(ctx),
      deleted: value === null,
      seq: await store.nextSeq(),
    });
    changes.push({ collection: 'votes', uid: actor.uid });
    const agreed = was === VOTE_VALUES.agree;
    const agrees = value === VOTE_VALUES.agree;
    const disagrees = disagreeCounts(
      actor,
      target,
      was === VOTE_VALUES.disagree ? (current?.stance ?? null) : null,
      value === VOTE_VALUES.disagree ? side : null,
    );
    if (agreed !== agrees) {
      changes.push(...(await moveAgreeCounts(ctx, actor, type, targetId, target, agrees, agreed ? current!.stance : side, disagrees)));
    } else if (type === 'response') {
      // Between disagree, pass and none only the disagrees by side move, but the response is stamped after the vote
      // all the same: the app reads "its seq is past the vote's" as "its score counts the vote" (views.ts voteDelta).
      await store.responses.addToCounts(targetId, disagrees, await store.nextSeq());
      changes.push({ collection: 'responses', topicId: target.topic_id });
    }
    return true;
  });
  publish(ctx, changes);
  return { result: await voteState(ctx, actor.uid, type, targetId), changed };
}

/**
 * How a response's disagrees by side move: minus one on the side a disagree taken back was counted on,
 * plus one on the voter's side for a disagree cast. The author's own vote counts on no side, as their upvotes.
 */
function disagreeCounts(actor: AuthUser, target: Target, takenBackOn: string | null, castOn: string | null): ResponseCountsDelta {
  if (target.creator_uid === actor.uid) return {};
  const on = (stance: string) => (takenBackOn === stance ? -1 : 0) + (castOn === stance ? 1 : 0);
  return { downvotesAgree: on('agree'), downvotesDisagree: on('disagree') };
}

/**
 * An agree vote added or taken away: the maintained counters move by one (O(1), equal to a
 * recount). A self-upvote counts in the score but on no side (the public counts by side would tell
 * the author's stance) and earns no point. `disagrees`: a disagree replaced or cast at once.
 */
async function moveAgreeCounts(
  ctx: DomainContext,
  actor: AuthUser,
  type: TargetType,
  targetId: string,
  target: Target,
  added: boolean,
  side: string | null,
  disagrees: ResponseCountsDelta = {},
): Promise<Change[]> {
  const { store } = ctx;
  const delta = added ? 1 : -1;
  const counted = target.creator_uid === actor.uid ? null : side;
  if (type === 'topic') await store.topics.addToCounts(targetId, { score: delta }, await store.nextSeq());
  else {
    await store.responses.addToCounts(
      targetId,
      { score: delta, upvotesAgree: counted === 'agree' ? delta : 0, upvotesDisagree: counted === 'disagree' ? delta : 0, ...disagrees },
      await store.nextSeq(),
    );
  }
  const changes: Change[] = [type === 'topic' ? { collection: 'topics' } : { collection: 'responses', topicId: target.topic_id }];
  // The author's points changed: their profile row gets a new seq, so their devices pull it live.
  if (target.creator_uid !== actor.uid && (await store.users.addPoints(target.creator_uid, delta, store.nextSeq))) {
    changes.push({ collection: 'profile', uid: target.creator_uid });
  }
  return changes;
}

/**
 * The upvote toggle (POST and DELETE /api/upvotes): true casts an agree (replacing a disagree or a
 * pass), false takes back an agree and nothing else.
 */
export async function setVote(
  ctx: DomainContext,
  actor: AuthUser,
  type: TargetType,
  targetId: string,
  upvoted: boolean,
): Promise<{ result: UpvoteResult; changed: boolean }> {
  const { result, changed } = await castVote(ctx, actor, type, targetId, upvoted ? VOTE_VALUES.agree : null, VOTE_VALUES.agree);
  const { target_type, target_id, score, user_has_upvoted } = result;
  return { result: { target_type, target_id, score, user_has_upvoted }, changed };
}

async function voteState(ctx: DomainContext, uid: string, type: TargetType, targetId: string): Promise<VoteResult> {
  const row = type === 'topic' ? await ctx.store.topics.get(targetId, uid) : await ctx.store.responses.get(targetId, uid);
  const vote = row?.user_vote ?? null;
  return {
    target_type: type,
    target_id: targetId,
    score: row?.score ?? 0,
    user_has_upvoted: vote === VOTE_VALUES.agree,
    user_has_downvoted: vote === VOTE_VALUES.disagree,
    user_has_passed: vote === VOTE_VALUES.pass,
  };
}
