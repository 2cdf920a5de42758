// The moderation rules every write obeys, in one place: the domain operations call
// them, so REST and sync push refuse alike. A suspended user may still read, delete their own
// content, mark notifications read, change preferences, unfollow and block; nothing else. A suspended
// moderator is a member for moderation: no queue, no log, no originals, no actions.
import { forbidden } from '../../../shared/errors.js';
import { MSG, suspendedMessage } from '../../../shared/messages.js';
import type { UserRow } from '../store/rows.js';
import { nowIso, type DomainContext } from './context.js';

/** Whether the user's suspension runs at `now` (ISO). */
export const isSuspended = (user: Pick<UserRow, 'suspended_until'> | undefined, now: string): boolean =>
  user?.suspended_until != null && user.suspended_until > now;

/**
 * 403 with the suspension's message when the user is suspended now (creating, editing, voting, stances, reports).
 * Answers the user's row it read (undefined: not stored), for the caller's other rules (a create's follow).
 */
export async function assertNotSuspended(ctx: DomainContext, uid: string): Promise<UserRow | undefined> {
  const user = await ctx.store.users.get(uid);
  if (user && isSuspended(user, nowIso(ctx))) throw forbidden(suspendedMessage(user.suspended_until!, user.suspension_reason ?? ''));
  return user;
}

/** A locked topic takes no new responses. */
export function assertNotLocked(topic: { locked: number }): void {
  if (topic.locked === 1) throw forbidden(MSG.topicLocked);
}

/** A removed or hidden item cannot be edited by its author (its text is not in the row). */
export function assertNotModerated(item: { moderation: string | null }): void {
  if (item.moderation !== null) throw forbidden(MSG.removedItemReadOnly);
}
