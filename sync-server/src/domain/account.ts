// Deleting one's own account (DELETE /api/me), allowed to a suspended account too. One transaction
// on either engine: the votes the user cast are taken back (every score, side count and author's
// point they moved moves back), their stances and Δ credits go (topic counts and others'
// persuasion points recounted), and so do their follows, blocks, reports, push devices,
// notifications and mail records. Their topics and responses are either erased in place or kept
// under the fixed name "deleted user"; either way each row gets a new seq, so every device's next
// pull rewrites its copy. The users row stays as a stub (other rows point at it as their author)
// with no e-mail and no name. Then the sign-in account is deleted from Firebase.
import type { AuthUser } from '../auth/verifier.js';
import type { RoleAdmin } from '../auth/roles.js';
import { VOTE_VALUES } from '../../../shared/constants.js';
import { MSG } from '../../../shared/messages.js';
import type { AccountContentChoice } from '../../../shared/schemas/account.js';
import type { Change } from './change-feed.js';
import { nowIso, publish, type DomainContext } from './context.js';
import { rewriteNotificationCopies } from './notification-copies.js';
import { recountCredits } from './stances.js';

/** Takes back every live vote the user cast, moving back what each agree counted (domain/votes.ts moveAgreeCounts). */
async function takeBackVotes(ctx: DomainContext, uid: string): Promise<Change[]> {
  const { store } = ctx;
  const changes: Change[] = [];
  for (const vote of await store.accounts.liveVotesBy(uid)) {
    if (vote.target_type === 'response') {
      const agree = vote.value === VOTE_VALUES.agree;
      const disagree = vote.value === VOTE_VALUES.disagree;
      // The side a vote was counted on (none for the author's own vote, as votes.ts counts them).
      const side = vote.target_creator_uid !== uid ? vote.stance : null;
      await store.responses.addToCounts(
        vote.target_id,
        {
          score: agree ? -1 : 0,
          upvotesAgree: agree && side === 'agree' ? -1 : 0,
          upvotesDisagree: agree && side === 'disagree' ? -1 : 0,
          downvotesAgree: disagree && side === 'agree' ? -1 : 0,
          downvotesDisagree: disagree && side === 'disagree' ? -1 : 0,
        },
        await store.nextSeq(),
      );
      changes.push({ collection: 'responses', topicId: vote.topic_id });
    } else if (vote.value === VOTE_VALUES.agree) {
      await store.topics.addToCounts(vote.target_id, { score: -1 }, await store.nextSeq());
      changes.push({ collection: 'topics' });
    }
    if (vote.value === VOTE_VALUES.agree && vote.target_creator_uid !== uid) {
      if (await store.users.addPoints(vote.target_creator_uid, -1, store.nextSeq)) {
        changes.push({ collection: 'profile', uid: vote.target_creator_uid });
      }
    }
  }
  return changes;
}

/** The user's topics and responses, erased in place: the row keeps its place (replies and quotes of it stay) but no word of theirs. */
async function eraseContent(ctx: DomainContext, uid: string): Promise<Change[]> {
  const { store } = ctx;
  const changes: Change[] = [];
  // The moderators' copies of their removed texts go first (they are found through the rows' author).
  await store.accounts.dropOriginalsOf(uid);
  for (const response of await store.accounts.liveResponsesBy(uid)) {
    // Before the text goes: notifications to others quote it.
    changes.push(...(await rewriteNotificationCopies(ctx, 'response', response.id, MSG.deletedWithAccount)));
    await store.sources.setForResponse(response.id, []);
    await store.moderation.setResponseModeration(response.id, MSG.deletedWithAccount, null, null, null, await store.nextSeq());
    changes.push({ collection: 'responses', topicId: response.topic_id });
  }
  for (const topicId of await store.accounts.liveTopicsBy(uid)) {
    changes.push(...(await rewriteNotificationCopies(ctx, 'topic', topicId, MSG.deletedWithAccount)));
    await store.moderation.setTopicModeration(topicId, MSG.deletedWithAccount, null, null, await store.nextSeq());
    changes.push({ collection: 'topics' });
  }
  return changes;
}

/** The user's topics, responses, the blocks naming them and the notifications they caused, restamped: devices pull them again with the author's new name. */
async function restampAuthor(ctx: DomainContext, uid: string): Promise<Change[]> {
  const { store } = ctx;
  const changes: Change[] = [];
  if ((await store.topics.restampCreator(uid, await store.nextSeq())) > 0) changes.push({ collection: 'topics' });
  for (const topicId of await store.responses.restampCreator(uid, await store.nextSeq())) {
    changes.push({ collection: 'responses', topicId });
  }
  for (const blocker of await store.blocks.restampBlocked(uid, await store.nextSeq())) changes.push({ collection: 'blocks', uid: blocker });
  for (const recipient of await store.accounts.restampNotificationsBy(uid, await store.nextSeq())) {
    changes.push({ collection: 'notifications', uid: recipient });
  }
  return changes;
}

/** Deletes the caller's data (one transaction), then their sign-in account. Repeating it after a failed Firebase call finishes the job. */
export async function deleteAccount(
  ctx: DomainContext,
  accounts: RoleAdmin,
  actor: AuthUser,
  content: AccountContentChoice,
): Promise<void> {
  const { store } = ctx;
  const uid = actor.uid;
  const changes = await store.transaction(async (): Promise<Change[]> => {
    const user = await store.users.get(uid);
    // No row: nothing was ever stored for them. A stub: done before (only Firebase is left).
    if (!user || user.deleted_at !== null) return [];
    const changes: Change[] = [{ collection: 'profile', uid }];
    changes.push(...(await takeBackVotes(ctx, uid)));
    const stanceTopics = await store.accounts.stanceTopicsBy(uid);
    const credits = await store.accounts.creditsGivenBy(uid);
    if (content === 'delete') changes.push(...(await eraseContent(ctx, uid)));
    await store.accounts.deleteOwnRows(uid);
    for (const topicId of stanceTopics) {
      if (await store.topics.refreshStanceCounts(topicId, store.nextSeq)) changes.push({ collection: 'topics' });
    }
    const creditedByTopic = new Map<string, Map<string, string>>();
    for (const credit of credits) {
      const responses = creditedByTopic.get(credit.topic_id) ?? new Map<string, string>();
      responses.set(credit.response_id, credit.author_uid);
      creditedByTopic.set(credit.topic_id, responses);
    }
    for (const [topicId, responses] of creditedByTopic) changes.push(...(await recountCredits(ctx, topicId, responses)));
    await store.accounts.stub(uid, MSG.deletedUser, nowIso(ctx), await store.nextSeq());
    // The author's name changed to "deleted user" in both cases: every row showing it is pulled again.
    changes.push(...(await restampAuthor(ctx, uid)));
    return changes;
  });
  publish(ctx, changes);
  await accounts.deleteUser(uid);
}
