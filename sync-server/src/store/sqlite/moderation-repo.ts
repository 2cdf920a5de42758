// Moderators' writes: an item's text moved to moderated_originals and back, locks,
// suspensions, roles and the moderation log. The FTS5 triggers follow the title and content.
import type { ModerationState, Role } from '../../../../shared/constants.js';
import type { Db } from './connection.js';
import type { ModeratedOriginalRow, ModerationLogListRow, ModerationLogRow } from '../rows.js';
import {
  DROP_ORIGINAL,
  GET_ORIGINAL,
  INSERT_MODERATION_LOG,
  MODERATION_LOG_PAGE,
  MODERATION_LOG_TOTAL,
  SAVE_ORIGINAL,
  SET_ROLE,
  SET_SUSPENSION,
  SET_TOPIC_LOCKED,
} from '../sql.js';

export function createModerationRepo(db: Db) {
  const saveOriginal = db.prepare<[string, string, string, string | null, string]>(SAVE_ORIGINAL.sqlite);
  const original = db.prepare<[string, string], ModeratedOriginalRow>(GET_ORIGINAL.sqlite);
  const dropOriginal = db.prepare<[string, string]>(DROP_ORIGINAL.sqlite);
  const topicModeration = db.prepare<[string, string | null, string | null, number, string]>(
    'UPDATE topics SET title = ?, moderation = ?, moderation_reason = ?, seq = ? WHERE id = ?',
  );
  const responseModeration = db.prepare<[string, string | null, string | null, string | null, number, string]>(
    'UPDATE responses SET content = ?, quoted_response_id = ?, moderation = ?, moderation_reason = ?, seq = ? WHERE id = ?',
  );
  const lock = db.prepare<[number, number, string]>(SET_TOPIC_LOCKED.sqlite);
  const suspend = db.prepare<[string | null, string | null, number, string]>(SET_SUSPENSION.sqlite);
  const role = db.prepare<[string, number, string]>(SET_ROLE.sqlite);
  const log = db.prepare<[string, string | null, string, string, string, string, number | null, string]>(INSERT_MODERATION_LOG.sqlite);
  const logPage = db.prepare<[number, number], ModerationLogListRow>(MODERATION_LOG_PAGE.sqlite);
  const logTotal = db.prepare<[], { n: number }>(MODERATION_LOG_TOTAL.sqlite);

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
