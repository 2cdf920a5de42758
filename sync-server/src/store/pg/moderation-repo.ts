// Moderators' writes on PostgreSQL: the SQLite repository's queries (store/sqlite/moderation-repo.ts).
// The search tables are the repositories' to keep (SQLite's FTS5 triggers do it there): a title or
// content written here is indexed again, so a removed text is no longer found.
import type { ModeratedOriginalRow, ModerationLogListRow, ModerationRepo } from '../rows.js';
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
import type { PgQueries } from './queries.js';
import { indexWords, tsvectorOf } from './search.js';

export function createPgModerationRepo(q: PgQueries): ModerationRepo {
  return {
    async saveOriginal(row) {
      await q.run(SAVE_ORIGINAL.pg, [row.target_type, row.target_id, row.text, row.quoted_response_id, row.sources]);
    },
    original: (targetType, targetId) => q.row<ModeratedOriginalRow>(GET_ORIGINAL.pg, [targetType, targetId]),
    async dropOriginal(targetType, targetId) {
      await q.run(DROP_ORIGINAL.pg, [targetType, targetId]);
    },
    async setTopicModeration(id, title, moderation, reason, seq) {
      const row = await q.row<{ pk: number }>(
        'UPDATE topics SET title = $2, moderation = $3, moderation_reason = $4, seq = $5 WHERE id = $1 RETURNING pk',
        [id, title, moderation, reason, seq],
      );
      if (row) await indexWords(q, 'topics_fts', row.pk, tsvectorOf(title));
    },
    async setResponseModeration(id, content, quotedResponseId, moderation, reason, seq) {
      const row = await q.row<{ pk: number }>(
        `UPDATE responses SET content = $2, quoted_response_id = $3, moderation = $4, moderation_reason = $5, seq = $6
         WHERE id = $1 RETURNING pk`,
        [id, content, quotedResponseId, moderation, reason, seq],
      );
      if (row) await indexWords(q, 'responses_fts', row.pk, tsvectorOf(content));
    },
    async setTopicLocked(id, locked, seq) {
      await q.run(SET_TOPIC_LOCKED.pg, [locked ? 1 : 0, seq, id]);
    },
    async setSuspension(uid, until, reason, seq) {
      await q.run(SET_SUSPENSION.pg, [until, reason, seq, uid]);
    },
    async setRole(uid, role, seq) {
      await q.run(SET_ROLE.pg, [role, seq, uid]);
    },
    async log(row) {
      await q.run(INSERT_MODERATION_LOG.pg, [
        row.id,
        row.moderator_uid,
        row.action,
        row.target_type,
        row.target_id,
        row.reason,
        row.days,
        row.created_at,
      ]);
    },
    logPage: (limit, offset) => q.rows<ModerationLogListRow>(MODERATION_LOG_PAGE.pg, [limit, offset]),
    logTotal: async () => (await q.row<{ n: number }>(MODERATION_LOG_TOTAL.pg))!.n,
  };
}
