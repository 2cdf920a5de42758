// The weekly summary's storage on PostgreSQL: the SQLite repository's queries (store/sqlite/mail-repo.ts).
import type { PgQueries } from './queries.js';
import type {
  CommonGroundCount,
  MailChallenged,
  MailRebuttal,
  MailRecipient,
  MailReply,
  MailRepo,
  MailRun,
  MailSend,
  MailSideTally,
  MailTopTopic,
  PointsSnapshot,
} from '../rows.js';
import { CHALLENGED_UNSOURCED, PREVIOUS_COMMON_GROUND, REBUTTALS_COUNT, REBUTTALS_PAGE, SIDE_TALLIES } from '../needs-sql.js';
import {
  COMMON_GROUND_OF_RUN,
  FINISH_MAIL_RUN,
  GET_MAIL_RUN,
  GET_MAIL_STATE,
  LAST_MAIL_PERIOD_END,
  MAIL_POINTS_SNAPSHOT,
  MAIL_RECIPIENTS,
  MAIL_SENDS_OF_RUN,
  POINTS_EARNED,
  PREVIOUS_SNAPSHOT,
  RECORD_SEND,
  REMOVE_MAIL_STATE,
  REPLACE_MAIL_STATE,
  TOP_TOPICS,
  UNFINISHED_MAIL_RUNS,
} from '../sql.js';

// Two indexed halves (root answers to the user's topics, answers to the user's responses), none by a user they block; $1 uid, $2 start, $3 end.
const REPLIES = `
  SELECT r.id, r.topic_id, t.title AS topic_title, 'topic'::text COLLATE "C" AS replied_to, NULL::text AS parent_content, r.type, r.content,
         u.display_name AS author_name, r.created_at
  FROM topics t
  JOIN responses r ON r.topic_id = t.id AND r.parent_response_id IS NULL
  LEFT JOIN users u ON u.uid = r.creator_uid
  WHERE t.creator_uid = $1 AND t.deleted = 0 AND r.deleted = 0 AND r.creator_uid <> $1
    AND t.moderation IS NULL AND r.moderation IS NULL
    AND r.created_at >= $2 AND r.created_at < $3
    AND NOT EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_uid = $1 AND b.blocked_uid = r.creator_uid AND b.blocked = 1)
  UNION ALL
  SELECT r.id, r.topic_id, t.title, 'response', p.content, r.type, r.content, u.display_name, r.created_at
  FROM responses p
  JOIN responses r ON r.parent_response_id = p.id
  JOIN topics t ON t.id = r.topic_id
  LEFT JOIN users u ON u.uid = r.creator_uid
  WHERE p.creator_uid = $1 AND p.deleted = 0 AND r.deleted = 0 AND t.deleted = 0 AND r.creator_uid <> $1
    AND p.moderation IS NULL AND r.moderation IS NULL AND t.moderation IS NULL
    AND r.created_at >= $2 AND r.created_at < $3
    AND NOT EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_uid = $1 AND b.blocked_uid = r.creator_uid AND b.blocked = 1)`;

export function createPgMailRepo(q: PgQueries): MailRepo {
  const getState = async (key: string) => (await q.row<{ value: string }>(GET_MAIL_STATE.pg, [key]))?.value;
  return {
    recipients: () => q.rows<MailRecipient>(MAIL_RECIPIENTS.pg),
    async repliesTo(uid, start, end, limit) {
      const total = (await q.row<{ n: number }>(`SELECT count(*) AS n FROM (${REPLIES}) AS replies`, [uid, start, end]))!.n;
      const items = await q.rows<MailReply>(`SELECT * FROM (${REPLIES}) AS replies ORDER BY created_at DESC, id DESC LIMIT $4`, [
        uid,
        start,
        end,
        limit,
      ]);
      return { total, items };
    },
    pointsEarned: async (uid, start, end) => (await q.row<{ n: number }>(POINTS_EARNED.pg, [uid, start, end]))!.n,
    topTopics: (start, end, limit) => q.rows<MailTopTopic>(TOP_TOPICS.pg, [start, end, limit]),
    getRun: (id) => q.row<MailRun>(GET_MAIL_RUN.pg, [id]),
    // The run and its points snapshot in one statement: both or neither, and false when the run exists.
    createRun: async (run, snapshot) =>
      (await q.row<{ n: number }>(
        `WITH run AS (
           INSERT INTO mail_runs (id, kind, period_start, period_end, status, created_at)
           VALUES ($1, $2, $3, $4, 'running', $5) ON CONFLICT (id) DO NOTHING RETURNING id
         ), points AS (
           INSERT INTO mail_points (run_id, uid, points, rank)
           SELECT run.id, s.uid, s.points, s.rank FROM run, unnest($6::text[], $7::int[], $8::int[]) AS s (uid, points, rank)
         )
         SELECT count(*) AS n FROM run`,
        [
          run.id,
          run.kind,
          run.period_start,
          run.period_end,
          run.created_at,
          snapshot.map((row) => row.uid),
          snapshot.map((row) => row.points),
          snapshot.map((row) => row.rank),
        ],
      ))!.n > 0,
    unfinishedRuns: () => q.rows<MailRun>(UNFINISHED_MAIL_RUNS.pg),
    lastPeriodEnd: async () => (await q.row<{ end: string | null }>(LAST_MAIL_PERIOD_END.pg))?.end ?? undefined,
    async finishRun(id, at, counts) {
      await q.run(FINISH_MAIL_RUN.pg, [at, counts.sent, counts.failed, counts.skipped, id]);
    },
    sendsOf: (runId) => q.rows<MailSend>(MAIL_SENDS_OF_RUN.pg, [runId]),
    async recordSend(row) {
      await q.run(RECORD_SEND.pg, [row.run_id, row.uid, row.email, row.status, row.attempts, row.message_id, row.error, row.at]);
    },
    snapshot: (runId, uid) => q.row<PointsSnapshot>(MAIL_POINTS_SNAPSHOT.pg, [runId, uid]),
    previousSnapshot: (uid, end) => q.row<PointsSnapshot>(PREVIOUS_SNAPSHOT.pg, [uid, end]),
    // Needs (store/needs-sql.ts).
    async rebuttalsAwaiting(uid, since, end, limit) {
      const [total, items] = await Promise.all([
        q.row<{ n: number }>(REBUTTALS_COUNT.pg, [uid, since, end]),
        q.rows<MailRebuttal>(REBUTTALS_PAGE.pg, [uid, since, end, limit]),
      ]);
      return { total: total!.n, items };
    },
    challengedUnsourced: (uid, start, end, limit) => q.rows<MailChallenged>(CHALLENGED_UNSOURCED.pg, [uid, start, end, limit]),
    sideTallies: (uid) => q.rows<MailSideTally>(SIDE_TALLIES.pg, [uid]),
    async saveCommonGround(runId, rows) {
      if (rows.length === 0) return;
      await q.run(
        `INSERT INTO mail_common_ground (run_id, uid, topic_id, common)
         SELECT $1, s.uid, s.topic_id, s.common FROM unnest($2::text[], $3::text[], $4::int[]) AS s (uid, topic_id, common)
         ON CONFLICT (run_id, uid, topic_id) DO UPDATE SET common = excluded.common`,
        [runId, rows.map((r) => r.uid), rows.map((r) => r.topic_id), rows.map((r) => r.common)],
      );
    },
    commonGroundOf: (runId, uid) => q.rows<CommonGroundCount>(COMMON_GROUND_OF_RUN.pg, [runId, uid]),
    previousCommonGround: (uid, end) => q.rows<CommonGroundCount>(PREVIOUS_COMMON_GROUND.pg, [uid, end]),
    getState,
    async initState(key, value) {
      await q.run('INSERT INTO mail_state (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [key, value]);
      return (await getState(key))!;
    },
    async swapState(key, expected, value) {
      if (expected === null) {
        return (
          value !== null &&
          (await q.run('INSERT INTO mail_state (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [key, value])) > 0
        );
      }
      if (value === null) return (await q.run(REMOVE_MAIL_STATE.pg, [key, expected])) > 0;
      return (await q.run(REPLACE_MAIL_STATE.pg, [value, key, expected])) > 0;
    },
  };
}
