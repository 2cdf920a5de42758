// What every domain operation needs: the store, the clock, an id maker and the
// change feed that the live stream listens to. REST routes and replication
// pushes call the same operations with it (one code path for both).
import { notFound } from '../../../shared/errors.js';
import { MSG } from '../../../shared/messages.js';
import type { TopicRow } from '../store/rows.js';
import type { Store } from '../store/types.js';
import type { Change, ChangeFeed } from './change-feed.js';

/** The new-account limits and the spam check's numbers (checked by domain/limits.ts). */
export interface ModerationLimits {
  /** false (MODERATION_LIMITS=off): no new-account limit and no spam check. */
  enabled: boolean;
  /** AUTO_HIDE_REPORTS: distinct reporters with standing that hide an item pending review. */
  autoHideReports: number;
  /** NEW_USER_TOPICS_PER_DAY */
  newUserTopicsPerDay: number;
  /** NEW_USER_LINKS */
  newUserLinks: number;
  /** NEW_ACCOUNT_HOURS */
  newAccountHours: number;
  /** SPAM_REPEATS */
  spamRepeats: number;
  /** SPAM_WINDOW_MINUTES */
  spamWindowMinutes: number;
}

export interface DomainContext {
  store: Store;
  clock: () => Date;
  newId: () => string;
  changes: ChangeFeed;
  /** New-account limits and the spam check (domain/limits.ts); absent: nothing limited (the demo seed). */
  moderation?: ModerationLimits;
}

export const nowIso = (ctx: DomainContext) => ctx.clock().toISOString();

/** Tells the change feed about committed changes: now, or when the enclosing transaction commits. */
export const publish = (ctx: DomainContext, changes: Change[]) => ctx.store.afterCommit(() => ctx.changes.publish(changes));

/** The topic's row (its upvote seen by `viewer`); a missing or deleted topic is 404. */
export async function liveTopic(ctx: DomainContext, topicId: string, viewer: string | null = null): Promise<TopicRow> {
  const topic = await ctx.store.topics.get(topicId, viewer);
  if (!topic || topic.deleted) throw notFound(MSG.topicNotFound);
  return topic;
}
