// The payload of one notification's push: the bell's own words (shared/rules/notification-text.ts),
// who acted, the topic, and where a click leads.
import { notificationHref, notificationText } from '../../../shared/rules/notification-text.js';
import { pushTag, type PushPayload } from '../../../shared/push.js';
import { toNotification } from '../store/rows.js';
import type { Store } from '../store/types.js';

/** The payload, or null when there is nothing left to push (the notification or its topic is gone, or it was read). */
export async function pushPayload(store: Store, notificationId: string): Promise<PushPayload | null> {
  const row = await store.notifications.get(notificationId);
  if (!row || row.deleted || row.is_read) return null;
  const topic = await store.topics.get(row.target_id, null);
  if (!topic || topic.deleted) return null;
  const notification = toNotification(row);
  const link = { target_id: row.target_id, response_id: row.response_id, response_deleted: row.response_deleted === 1 };
  return {
    notification_id: row.id,
    type: row.type,
    topic_id: row.target_id,
    topic_title: topic.title,
    response_id: row.response_id,
    actor: notification.actor_display_name,
    text: notificationText({ type: row.type, target_summary: row.target_summary, response_id: row.response_id }),
    url: notificationHref(link),
    tag: pushTag(row.target_id),
    created_at: row.created_at,
  };
}
