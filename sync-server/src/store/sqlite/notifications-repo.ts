// Reply notifications, newest first.
import type { Db } from './connection.js';
import { NOTIFICATION_ORDER, orderBySql } from '../../../../shared/rules/sort-order.js';
import type { NotificationInsert, NotificationRow } from '../rows.js';
import {
  DELETE_NOTIFICATION,
  INSERT_NOTIFICATION,
  MARK_NOTIFICATION_READ,
  MARK_NOTIFICATION_RESPONSE_DELETED,
  NOTIFICATIONS_FROM,
  NOTIFICATIONS_COPYING_RESPONSE,
  NOTIFICATIONS_COPYING_TOPIC,
  NOTIFIED_ABOUT_RESPONSE,
  SET_NOTIFICATION_SUMMARY,
} from '../sql.js';

const SELECT = `
  SELECT n.*, u.display_name AS actor_display_name
  FROM notifications n LEFT JOIN users u ON u.uid = n.actor_uid`;

export function createNotificationsRepo(db: Db) {
  const insert = db.prepare(INSERT_NOTIFICATION.sqlite);
  const get = db.prepare<[string], NotificationRow>(`${SELECT} WHERE n.id = ?`);
  const forUser = db.prepare<[string, number, number], NotificationRow>(`
    ${SELECT} WHERE n.recipient_uid = ? AND n.deleted = 0 ORDER BY ${orderBySql(NOTIFICATION_ORDER, 'n')} LIMIT ? OFFSET ?
  `);
  const markRead = db.prepare<[number, string]>(MARK_NOTIFICATION_READ.sqlite);
  const ofTopic = db.prepare<[string], { id: string; recipient_uid: string }>(
    'SELECT id, recipient_uid FROM notifications WHERE target_id = ? AND deleted = 0',
  );
  const countFrom = db.prepare<[string, string, string], { n: number }>(NOTIFICATIONS_FROM.sqlite);
  const softDelete = db.prepare<[number, string]>(DELETE_NOTIFICATION.sqlite);
  const aboutResponse = db.prepare<[string], { id: string; recipient_uid: string }>(
    'SELECT id, recipient_uid FROM notifications WHERE response_id = ? AND deleted = 0 AND response_deleted = 0',
  );
  const recipientsOf = db.prepare<[string], { recipient_uid: string; type: NotificationRow['type'] }>(NOTIFIED_ABOUT_RESPONSE.sqlite);
  const markResponseDeleted = db.prepare<[number, string]>(MARK_NOTIFICATION_RESPONSE_DELETED.sqlite);
  const copyingTopic = db.prepare<[string], { id: string; recipient_uid: string }>(NOTIFICATIONS_COPYING_TOPIC.sqlite);
  const copyingResponse = db.prepare<[string, string], { id: string; recipient_uid: string }>(NOTIFICATIONS_COPYING_RESPONSE.sqlite);
  const setSummary = db.prepare<[string, number, string]>(SET_NOTIFICATION_SUMMARY.sqlite);
  const changes = db.prepare<{ uid: string; seq: number; id: string; limit: number }, NotificationRow>(`
    ${SELECT} WHERE n.recipient_uid = @uid AND (n.seq > @seq OR (n.seq = @seq AND n.id > @id))
    ORDER BY n.seq, n.id LIMIT @limit
  `);

  return {
    insert: (row: NotificationInsert) => insert.run(row),
    get: (id: string) => get.get(id),
    forUser: (uid: string, limit: number, offset: number) => forUser.all(uid, limit, offset),
    markRead: (id: string, seq: number) => markRead.run(seq, id),
    countFrom: (actorUid: string, recipientUid: string, sinceIso: string) => countFrom.get(recipientUid, actorUid, sinceIso)!.n,
    /** Tombstones the topic's notifications and returns whose lists changed. */
    async removeForTopic(topicId: string, seq: () => Promise<number>): Promise<Set<string>> {
      const recipients = new Set<string>();
      for (const { id, recipient_uid } of ofTopic.all(topicId)) {
        softDelete.run(await seq(), id);
        recipients.add(recipient_uid);
      }
      return recipients;
    },
    /** Marks the notifications about a deleted reply as such and returns whose lists changed. */
    async markResponseDeleted(responseId: string, seq: () => Promise<number>): Promise<Set<string>> {
      const recipients = new Set<string>();
      for (const { id, recipient_uid } of aboutResponse.all(responseId)) {
        markResponseDeleted.run(await seq(), id);
        recipients.add(recipient_uid);
      }
      return recipients;
    },
    aboutResponse: (responseId: string) => recipientsOf.all(responseId),
    copying: (type: 'topic' | 'response', id: string) => (type === 'topic' ? copyingTopic.all(id) : copyingResponse.all(id, id)),
    setSummary: (id: string, summary: string, seq: number) => setSummary.run(summary, seq, id),
    changesSince: (uid: string, checkpoint: { seq: number; id: string }, limit: number) => changes.all({ uid, ...checkpoint, limit }),
  };
}
