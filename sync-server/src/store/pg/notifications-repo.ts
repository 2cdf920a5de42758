// Reply notifications on PostgreSQL: the SQLite repository's queries (store/sqlite/notifications-repo.ts).
import { NOTIFICATION_ORDER, orderBySql } from '../../../../shared/rules/sort-order.js';
import type { NotificationRow, NotificationsRepo } from '../rows.js';
import type { PgQueries } from './queries.js';
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

/** The row as SQLite's `n.*` answers it, with the actor's name. */
const SELECT = `
  SELECT n.id, n.recipient_uid, n.type, n.actor_uid, n.target_summary, n.target_id, n.response_id, n.created_at,
         n.is_read, n.deleted, n.seq, n.response_deleted, u.display_name AS actor_display_name
  FROM notifications n LEFT JOIN users u ON u.uid = n.actor_uid`;

export function createPgNotificationsRepo(q: PgQueries): NotificationsRepo {
  /** Stamps each listed notification in the order SQLite's rowid gives (pk), and says whose lists changed. */
  const stampEach = async (rows: { id: string; recipient_uid: string }[], sql: string, seq: () => Promise<number>) => {
    const recipients = new Set<string>();
    for (const { id, recipient_uid } of rows) {
      await q.run(sql, [await seq(), id]);
      recipients.add(recipient_uid);
    }
    return recipients;
  };
  return {
    async insert(row) {
      await q.run(INSERT_NOTIFICATION.pg, [
        row.id,
        row.recipient_uid,
        row.type,
        row.actor_uid,
        row.target_summary,
        row.target_id,
        row.response_id,
        row.created_at,
        row.seq,
      ]);
    },
    get: (id) => q.row<NotificationRow>(`${SELECT} WHERE n.id = $1`, [id]),
    forUser: (uid, limit, offset) =>
      q.rows<NotificationRow>(
        `${SELECT} WHERE n.recipient_uid = $1 AND n.deleted = 0 ORDER BY ${orderBySql(NOTIFICATION_ORDER, 'n')} LIMIT $2 OFFSET $3`,
        [uid, limit, offset],
      ),
    async markRead(id, seq) {
      await q.run(MARK_NOTIFICATION_READ.pg, [seq, id]);
    },
    countFrom: async (actorUid, recipientUid, sinceIso) =>
      (await q.row<{ n: number }>(NOTIFICATIONS_FROM.pg, [recipientUid, actorUid, sinceIso]))!.n,
    removeForTopic: async (topicId, seq) =>
      stampEach(
        await q.rows('SELECT id, recipient_uid FROM notifications WHERE target_id = $1 AND deleted = 0 ORDER BY pk', [topicId]),
        DELETE_NOTIFICATION.pg,
        seq,
      ),
    markResponseDeleted: async (responseId, seq) =>
      stampEach(
        await q.rows(
          'SELECT id, recipient_uid FROM notifications WHERE response_id = $1 AND deleted = 0 AND response_deleted = 0 ORDER BY pk',
          [responseId],
        ),
        MARK_NOTIFICATION_RESPONSE_DELETED.pg,
        seq,
      ),
    aboutResponse: (responseId) =>
      q.rows<{ recipient_uid: string; type: NotificationRow['type'] }>(NOTIFIED_ABOUT_RESPONSE.pg, [responseId]),
    copying: (type, id) =>
      type === 'topic' ? q.rows(NOTIFICATIONS_COPYING_TOPIC.pg, [id]) : q.rows(NOTIFICATIONS_COPYING_RESPONSE.pg, [id, id]),
    async setSummary(id, summary, seq) {
      await q.run(SET_NOTIFICATION_SUMMARY.pg, [summary, seq, id]);
    },
    changesSince: (uid, checkpoint, limit) =>
      q.rows<NotificationRow>(
        `${SELECT} WHERE n.recipient_uid = $1 AND (n.seq > $2 OR (n.seq = $2 AND n.id > $3)) ORDER BY n.seq, n.id LIMIT $4`,
        [uid, checkpoint.seq, checkpoint.id, limit],
      ),
  };
}
