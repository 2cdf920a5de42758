// Moderators' writes (issue 23): an item's text moved to moderated_originals and back, locks,
// suspensions, roles and the moderation log. The FTS5 triggers follow the title and content.
import type { ModerationState, Role } from '../../../../shared/constants.js';
import type { Db } from './connection.js';
import type { ModeratedOriginalRow, ModerationLogListRow, ModerationLogRow } from '../rows.js';
import { INSERT_MODERATION_LOG, MODERATION_LOG_PAGE, SAVE_ORIGINAL } from '../sql.js';

export function createModerationRepo(db: Db) {
  const saveOriginal = db.prepare<[string, string, string, string | null, string]>(SAVE_ORIGINAL.sqlite);
  const original = db.prepare<[string, string], ModeratedOriginalRow>(
    'SELECT target_type, target_id, text, quoted_response_id, sources FROM moderated_originals WHERE target_type = ? AND target_id = ?',
  );
  const dropOriginal = db.prepare<[string, string]>('DELETE FROM moderated_originals WHERE target_type = ? AND target_id = ?');
  const topicModeration = db.prepare<[string, string | null, string | null, number, string]>(
    'UPDATE topics SET title = ?, moderation = ?, moderation_reason = ?, seq = ? WHERE id = ?',
  );
  const responseModeration = db.prepare<[string, string | null, string | null, string | null, number, string]>(
    'UPDATE responses SET content = ?, quoted_response_id = ?, moderation = ?, moderation_reason = ?, seq = ? WHERE id = ?',
  );
  const lock = db.prepare<[number, number, string]>('UPDATE topics SET locked = ?, seq = ? WHERE id = ?');
  const suspend = db.prepare<[string | null, string | null, number, string]>(
    'UPDATE users SET suspended_until = ?, suspension_reason = ?, seq = ? WHERE uid = ?',
  );
  const role = db.prepare<[string, number, string]>('UPDATE users SET role = ?, seq = ? WHERE uid = ?');
  const log = db.prepare<[string, string | null, string, string, string, string, number | null, string]>(INSERT_MODERATION_LOG.sqlite);
  const logPage = db.prepare<[number, number], ModerationLogListRow>(MODERATION_LOG_PAGE.sqlite);
  const logTotal = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM moderation_log');

  return {
    saveOriginal: (row: ModeratedOriginalRow) =>
      void saveOriginal.run(row.target_type, row.target_id, row.text, row.quoted_response_id, row.sources),
    original: (targetType: 'topic' | 'response', targetId: string) => original.get(targetType, targetId),
    dropOriginal: (targetType: 'topic' | 'response', targetId: string) => void dropOriginal.run(targetType, targetId),
    setTopicModeration: (id: string, title: string, moderation: ModerationState | null, reason: string | null, seq: number) =>
      void topicModeration.run(title, moderation, reason, seq, id),
    setResponseModeration: (
      id: string,
      content: string,
      quotedResponseId: string | null,
      moderation: ModerationState | null,
      reason: string | null,
      seq: number,
    ) => void responseModeration.run(content, quotedResponseId, moderation, reason, seq, id),
    setTopicLocked: (id: string, locked: boolean, seq: number) => void lock.run(locked ? 1 : 0, seq, id),
    setSuspension: (uid: string, until: string | null, reason: string | null, seq: number) => void suspend.run(until, reason, seq, uid),
    setRole: (uid: string, value: Role, seq: number) => void role.run(value, seq, uid),
    log: (row: ModerationLogRow) =>
      void log.run(row.id, row.moderator_uid, row.action, row.target_type, row.target_id, row.reason, row.days, row.created_at),
    logPage: (limit: number, offset: number) => logPage.all(limit, offset),
    logTotal: () => logTotal.get()!.n,
  };
}
