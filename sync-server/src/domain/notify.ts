// One notification to one person (replies, mentions, moderators' notices), the same way whatever
// made it: the row, its pushes to the recipient's devices (push.ts queuePush, in the same
// transaction) and the change to publish. And the rule replies and mentions share before one is made:
// never to yourself, never from someone the recipient blocked, and at most NOTIFY_PER_PAIR from one
// person to another within NOTIFY_WINDOW_MS. (Followers are notified in bulk, follows.ts, by the same
// rule written as SQL.)
import type { NotificationInsert } from '../store/rows.js';
import type { Change } from './change-feed.js';
import type { DomainContext } from './context.js';
import { queuePush } from './push.js';

/**
 * How many reply notifications one person can send another within NOTIFY_WINDOW_MS: the replies
 * past it still land, but do not flood the recipient's list (one push of 200 replies
 * made 200 notifications). Normal back-and-forth stays far below it.
 */
export const NOTIFY_PER_PAIR = 20;
export const NOTIFY_WINDOW_MS = 60 * 60_000;

/** Whether `actorUid` may notify `recipientUid` now (docs/RULES.md: never oneself, never someone who blocked the actor, and the flood cap). */
export async function mayNotify(ctx: DomainContext, actorUid: string, recipientUid: string, now: string): Promise<boolean> {
  if (recipientUid === actorUid) return false;
  // Someone the recipient blocked does not notify them (nothing tells the sender).
  if (await ctx.store.blocks.isBlocked(recipientUid, actorUid)) return false;
  const since = new Date(Date.parse(now) - NOTIFY_WINDOW_MS).toISOString();
  return (await ctx.store.notifications.countFrom(actorUid, recipientUid, since)) < NOTIFY_PER_PAIR;
}

/** Writes the notification and queues its pushes, inside the caller's transaction; returns the change to publish. */
export async function notify(ctx: DomainContext, row: Omit<NotificationInsert, 'id' | 'seq'>): Promise<Change> {
  const id = ctx.newId();
  await ctx.store.notifications.insert({ ...row, id, seq: await ctx.store.nextSeq() });
  const pushes = await queuePush(ctx, id, row.recipient_uid);
  return pushes > 0
    ? { collection: 'notifications', uid: row.recipient_uid, pushes: true }
    : { collection: 'notifications', uid: row.recipient_uid };
}
