// Following a topic: a follower hears of each new root response in it
// (`reply_in_followed_topic`), at most FOLLOW_NOTIFY_PER_HOUR per topic and hour; a nested reply
// notifies only whom it answers (responses.ts notifyReply). A user follows what they create or reply
// to unless their settings say otherwise (PushSettings.follow_on_reply); an explicit unfollow is kept
// (following = 0), so replying again does not follow the topic behind their back. Private: only the
// user reads their follows (REST /api/follows, their own pull and stream). REST and the sync push of
// `follows` both call setFollow.
import type { AuthUser } from '../auth/verifier.js';
import { FOLLOW_NOTIFY_PER_HOUR, NOTIFICATION_SUMMARY_CHARS } from '../../../shared/constants.js';
import { MSG } from '../../../shared/messages.js';
import { notFound } from '../../../shared/errors.js';
import { prefix } from '../../../shared/rules/truncate.js';
import type { FollowedTopic } from '../../../shared/types.js';
import type { FollowRow, UserRow } from '../store/rows.js';
import { storedPushSettings } from '../push/settings.js';
import type { Change } from './change-feed.js';
import { nowIso, publish, type DomainContext } from './context.js';
import { assertNotSuspended } from './moderation-rules.js';

/** FOLLOW_NOTIFY_PER_HOUR's hour. */
const FOLLOW_NOTIFY_WINDOW_MS = 60 * 60_000;

export const toFollowedTopic = (row: FollowRow): FollowedTopic => ({
  topic_id: row.topic_id,
  title: row.title,
  following: row.following === 1,
  updated_at: row.updated_at,
});

/**
 * Follows or unfollows a topic. Following one that does not exist (or was deleted): 404; following
 * while suspended: 403. Unfollowing stays possible whatever became of the topic or the user. Returns the row now and whether anything changed, so a
 * repeated call or a replayed push is harmless.
 */
export async function setFollow(
  ctx: DomainContext,
  actor: AuthUser,
  topicId: string,
  following: boolean,
): Promise<{ row: FollowRow | undefined; changed: boolean }> {
  const { store } = ctx;
  const changed = await store.transaction(async () => {
    const current = await store.follows.get(actor.uid, topicId);
    if ((current?.following === 1) === following && current) return false;
    if (following) {
      // Following is a write like any other; unfollowing only narrows what the user is told, as preferences do.
      await assertNotSuspended(ctx, actor.uid);
      const topic = await store.topics.get(topicId, null);
      if (!topic || topic.deleted) throw notFound(MSG.topicNotFound);
    }
    await store.follows.set(actor.uid, topicId, following, nowIso(ctx), await store.nextSeq());
    return true;
  });
  if (changed) publish(ctx, [{ collection: 'follows', uid: actor.uid }]);
  return { row: await store.follows.get(actor.uid, topicId), changed };
}

/** The live topics the caller follows, most recently followed first. */
export async function listFollows(ctx: DomainContext, actor: AuthUser): Promise<FollowedTopic[]> {
  return (await ctx.store.follows.list(actor.uid)).map(toFollowedTopic);
}

/**
 * The author of a new topic or response follows its topic, unless they turned that off or already
 * said either way; inside the create's transaction. Returns the change to publish, if any.
 */
export async function followOnJoin(
  ctx: DomainContext,
  uid: string,
  topicId: string,
  /** The author's row as the create already read it in this transaction (one read of it per create, not two). */
  known?: { user: Pick<UserRow, 'push_settings'> | undefined },
): Promise<Change[]> {
  const { store } = ctx;
  const user = known ? known.user : await store.users.get(uid);
  if (!storedPushSettings(user?.push_settings).follow_on_reply) return [];
  const made = await store.follows.followIfNew(uid, topicId, nowIso(ctx), await store.nextSeq());
  return made ? [{ collection: 'follows', uid }] : [];
}

/**
 * A new root response tells the topic's followers, in the create's transaction and in one statement
 * whatever their number (the fan-out the follow bench measures), then queues their pushes the same way.
 * Call it after the response's other notifications: whoever those reached is not told twice.
 */
export async function notifyFollowers(
  ctx: DomainContext,
  actor: AuthUser,
  responseId: string,
  topic: { id: string; title: string; creator_uid: string },
  now: string,
): Promise<Change[]> {
  const { store } = ctx;
  const recipients = await store.follows.notifyFollowers(
    {
      actor_uid: actor.uid,
      creator_uid: topic.creator_uid,
      topic_id: topic.id,
      response_id: responseId,
      summary: prefix(topic.title, NOTIFICATION_SUMMARY_CHARS),
      now,
      seq: await store.nextSeq(),
      since: new Date(Date.parse(now) - FOLLOW_NOTIFY_WINDOW_MS).toISOString(),
      per_hour: FOLLOW_NOTIFY_PER_HOUR,
    },
    ctx.newId,
  );
  if (recipients.length === 0) return [];
  const pushes = (await store.follows.enqueuePushes(responseId, now)) > 0;
  // One change saying pushes were queued is enough to wake the sender.
  return recipients.map((uid, i): Change =>
    pushes && i === 0 ? { collection: 'notifications', uid, pushes } : { collection: 'notifications', uid },
  );
}
