// What a notification says and where it leads, the same in the bell's list (NotificationsPage) and in
// a Web Push (sync-server/src/push/payload.ts), so a push reads exactly like the item it stands for.
import type { Notification } from '../types.js';
import { removalNotice, restoreNotice } from '../messages.js';

/**
 * 'replied to your topic: "{summary}"' or, for any other reply type, 'replied to your comment: "{summary}"'
 * (the notifications page's wording); a moderator's notice: removalNotice / restoreNotice (the item is the topic when
 * `response_id` is '').
 */
export function notificationText(n: Pick<Notification, 'type' | 'target_summary'> & { response_id?: string }): string {
  const kind = n.response_id ? 'response' : 'topic';
  if (n.type === 'moderation_removed') return removalNotice(kind, n.target_summary);
  if (n.type === 'moderation_restored') return restoreNotice(kind);
  if (n.type === 'mention') return `mentioned you: "${n.target_summary}"`;
  if (n.type === 'reply_in_followed_topic') return `replied in a topic you follow: "${n.target_summary}"`;
  const what = n.type === 'reply_to_topic' ? 'topic' : 'comment';
  return `replied to your ${what}: "${n.target_summary}"`;
}

/** Where a notification leads: the topic, scrolled to the reply while it exists. */
export function notificationHref(n: Pick<Notification, 'target_id'> & { response_id?: string; response_deleted?: boolean }): string {
  const topic = `/topics/${encodeURIComponent(n.target_id)}`;
  return n.response_id && !n.response_deleted ? `${topic}#response-${encodeURIComponent(n.response_id)}` : topic;
}

/** A moderator's removal or restoration of the user's item: read without an actor's name. */
export const isModerationNotice = (n: Pick<Notification, 'type'>) => n.type === 'moderation_removed' || n.type === 'moderation_restored';
