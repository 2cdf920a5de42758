// Notifications: the caller's own; the only change a push may carry is "read".
import { z } from 'zod';
import { id, replicated, notificationSchema } from '../../../../shared/schemas/answers.js';
import { NOTIFICATION_TYPES } from '../../../../shared/constants.js';
import { badRequest } from '../../../../shared/errors.js';
import type { NotificationDoc, NotificationTombstone } from '../../../../shared/sync-protocol.js';
import { markNotificationRead } from '../../domain/notifications.js';
import { caller, ownerOnly, type CollectionDescriptor } from './descriptor.js';
import { docBase } from './push-schema.js';
import { type NotificationRow, toNotification } from '../../store/rows.js';

/** A live notification in full; a deleted one as a slim tombstone (no reply summary, no actor's name). */
export function notificationDoc(row: NotificationRow): NotificationDoc | NotificationTombstone {
  if (row.deleted === 1) return { id: row.id, seq: row.seq, _deleted: true };
  return {
    ...toNotification(row),
    response_id: row.response_id,
    response_deleted: row.response_deleted === 1,
    seq: row.seq,
    _deleted: false,
  };
}

/** The document as a pull answers it (the OpenAPI document describes it; the descriptor type checks it against the wire type). */
const documentSchema = notificationSchema
  .extend({ response_id: id, response_deleted: z.boolean(), ...replicated })
  .meta({ id: 'NotificationDoc', description: 'A notification as the `notifications` collection syncs it.' });

export const notifications: CollectionDescriptor<'notifications'> = {
  documentSchema,
  privacy: 'private',
  // The kind is the server's (never read from a push), but must be one it knows.
  pushSchema: z.looseObject({ ...docBase, type: z.enum(NOTIFICATION_TYPES).optional(), is_read: z.boolean() }),
  pull: async (ctx, scope, from, limit) =>
    (await ctx.store.notifications.changesSince(caller(scope).uid, from, limit)).map(notificationDoc),
  async load(ctx, user, id) {
    const row = await ctx.store.notifications.get(id);
    // Someone else's notification does not exist for the caller.
    return row && row.recipient_uid === user.uid ? notificationDoc(row) : null;
  },
  async apply(ctx, user, master, next) {
    // Without a master, the REST call's answer: 404 when missing, 403 when not the caller's.
    // (pushSchema requires is_read on every pushed document, slim or not.)
    if (master && !('is_read' in next && next.is_read)) throw badRequest('A notification cannot be marked unread.');
    await markNotificationRead(ctx, user, next.id);
  },
  streamEvent: ownerOnly('notifications'),
};
