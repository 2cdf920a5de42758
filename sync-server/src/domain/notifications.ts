// The caller's reply notifications and marking them read.
import type { AuthUser } from '../auth/verifier.js';
import { MSG } from '../../../shared/messages.js';
import type { Notification } from '../../../shared/types.js';
import { forbidden, notFound } from '../../../shared/errors.js';
import { publish, type DomainContext } from './context.js';
import { toNotification } from '../store/rows.js';

export async function listNotifications(
  ctx: DomainContext,
  actor: AuthUser,
  uid: string,
  limit: number,
  offset: number,
): Promise<Notification[]> {
  if (uid !== actor.uid) throw forbidden(MSG.notYourNotifications);
  return (await ctx.store.notifications.forUser(uid, limit, offset)).map(toNotification);
}

export async function markNotificationRead(ctx: DomainContext, actor: AuthUser, id: string): Promise<Notification> {
  const { store } = ctx;
  const row = await store.transaction(async () => {
    const row = await store.notifications.get(id);
    if (!row || row.deleted) throw notFound(MSG.notificationNotFound);
    if (row.recipient_uid !== actor.uid) throw forbidden(MSG.notYourNotification);
    if (!row.is_read) await store.notifications.markRead(id, await store.nextSeq());
    return row;
  });
  if (!row.is_read) publish(ctx, [{ collection: 'notifications', uid: actor.uid }]);
  return toNotification((await store.notifications.get(id))!);
}
