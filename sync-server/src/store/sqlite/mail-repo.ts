// The weekly summary's storage: who gets it, what happened to them in a period, and the
// record of every run and every mail sent (migration 004-mail.sql).
import type { Db } from './connection.js';
import type { Synchronous } from './transactions.js';
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

export function createMailRepo(db: Db): Synchronous<MailRepo> {
  const recipients = db.prepare<[], MailRecipient>(MAIL_RECIPIENTS.sqlite);
  // Two indexed halves (root answers to the user's topics, answers to the user's responses); none by a user they block.
  const replies = `
    SELECT r.id, r.topic_id, t.title AS topic_title, 'topic' AS replied_to, NULL AS parent_content, r.type, r.content,
           u.display_name AS author_name, r.created_at
    FROM topics t
    JOIN responses r ON r.topic_id = t.id AND r.parent_response_id IS NULL
    LEFT JOIN users u ON u.uid = r.creator_uid
    WHERE t.creator_uid = @uid AND t.deleted = 0 AND r.deleted = 0 AND r.creator_uid <> @uid
      AND t.moderation IS NULL AND r.moderation IS NULL
      AND r.created_at >= @start AND r.created_at < @end
      AND NOT EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_uid = @uid AND b.blocked_uid = r.creator_uid AND b.blocked = 1)
    UNION ALL
    SELECT r.id, r.topic_id, t.title, 'response', p.content, r.type, r.content, u.display_name, r.created_at
    FROM responses p
    JOIN responses r ON r.parent_response_id = p.id
    JOIN topics t ON t.id = r.topic_id
    LEFT JOIN users u ON u.uid = r.creator_uid
    WHERE p.creator_uid = @uid AND p.deleted = 0 AND r.deleted = 0 AND t.deleted = 0 AND r.creator_uid <> @uid
      AND p.moderation IS NULL AND r.moderation IS NULL AND t.moderation IS NULL
      AND r.created_at >= @start AND r.created_at < @end
      AND NOT EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_uid = @uid AND b.blocked_uid = r.creator_uid AND b.blocked = 1)
  `;
  type Period = { uid: string; start: string; end: string };
  const repliesPage = db.prepare<Period & { limit: number }, MailReply>(
    `SELECT * FROM (${replies}) ORDER BY created_at DESC, id DESC LIMIT @limit`,
  );
  const repliesCount = db.prepare<Period, { n: number }>(`SELECT count(*) AS n FROM (${replies})`);
  const pointsEarned = db.prepare<Period, { n: number }>(POINTS_EARNED.sqlite);
  const topTopics = db.prepare<{ start: string; end: string; limit: number }, MailTopTopic>(TOP_TOPICS.sqlite);
  const getRun = db.prepare<[string], MailRun>(GET_MAIL_RUN.sqlite);
  const insertRun = db.prepare(`
    INSERT OR IGNORE INTO mail_runs (id, kind, period_start, period_end, status, created_at)
    VALUES (@id, @kind, @period_start, @period_end, 'running', @created_at)
  `);
  const insertSnapshot = db.prepare('INSERT INTO mail_points (run_id, uid, points, rank) VALUES (?, ?, ?, ?)');
  const unfinished = db.prepare<[], MailRun>(UNFINISHED_MAIL_RUNS.sqlite);
  const lastEnd = db.prepare<[], { end: string | null }>(LAST_MAIL_PERIOD_END.sqlite);
  const finish = db.prepare(FINISH_MAIL_RUN.sqlite);
  const sendsOf = db.prepare<[string], MailSend>(MAIL_SENDS_OF_RUN.sqlite);
  const recordSend = db.prepare(RECORD_SEND.sqlite);
  const snapshot = db.prepare<[string, string], PointsSnapshot>(MAIL_POINTS_SNAPSHOT.sqlite);
  const previous = db.prepare<[string, string], PointsSnapshot>(PREVIOUS_SNAPSHOT.sqlite);
  // Needs (store/needs-sql.ts).
  type Since = { uid: string; since: string; end: string };
  const rebuttalsPage = db.prepare<Since & { limit: number }, MailRebuttal>(REBUTTALS_PAGE.sqlite);
  const rebuttalsCount = db.prepare<Since, { n: number }>(REBUTTALS_COUNT.sqlite);
  const challenged = db.prepare<Period & { limit: number }, MailChallenged>(CHALLENGED_UNSOURCED.sqlite);
  const sideTallies = db.prepare<[string], MailSideTally>(SIDE_TALLIES.sqlite);
  const insertCommon = db.prepare('INSERT OR REPLACE INTO mail_common_ground (run_id, uid, topic_id, common) VALUES (?, ?, ?, ?)');
  const commonOf = db.prepare<[string, string], CommonGroundCount>(COMMON_GROUND_OF_RUN.sqlite);
  const previousCommon = db.prepare<{ uid: string; end: string }, CommonGroundCount>(PREVIOUS_COMMON_GROUND.sqlite);
  const getState = db.prepare<[string], { value: string }>(GET_MAIL_STATE.sqlite);
  const initState = db.prepare('INSERT OR IGNORE INTO mail_state (key, value) VALUES (?, ?)');
  const replaceState = db.prepare<[string, string, string]>(REPLACE_MAIL_STATE.sqlite);
  const removeState = db.prepare<[string, string]>(REMOVE_MAIL_STATE.sqlite);

  return {
    recipients: () => recipients.all(),
    repliesTo: (uid, start, end, limit) => ({
      total: repliesCount.get({ uid, start, end })!.n,
      items: repliesPage.all({ uid, start, end, limit }),
    }),
    pointsEarned: (uid, start, end) => pointsEarned.get({ uid, start, end })!.n,
    topTopics: (start, end, limit) => topTopics.all({ start, end, limit }),
    getRun: (id) => getRun.get(id),
    createRun: (run, rows) =>
      db
        .transaction(() => {
          if (insertRun.run(run).changes === 0) return false;
          for (const row of rows) insertSnapshot.run(run.id, row.uid, row.points, row.rank);
          return true;
        })
        .immediate(),
    unfinishedRuns: () => unfinished.all(),
    lastPeriodEnd: () => lastEnd.get()?.end ?? undefined,
    finishRun: (id, at, counts) => finish.run({ id, at, ...counts }),
    sendsOf: (runId) => sendsOf.all(runId),
    recordSend: (row) => recordSend.run(row),
    snapshot: (runId, uid) => snapshot.get(runId, uid),
    previousSnapshot: (uid, end) => previous.get(uid, end),
    rebuttalsAwaiting: (uid, since, end, limit) => ({
      total: rebuttalsCount.get({ uid, since, end })!.n,
      items: rebuttalsPage.all({ uid, since, end, limit }),
    }),
    challengedUnsourced: (uid, start, end, limit) => challenged.all({ uid, start, end, limit }),
    sideTallies: (uid) => sideTallies.all(uid),
    saveCommonGround: (runId, rows) =>
      db.transaction(() => {
        for (const row of rows) insertCommon.run(runId, row.uid, row.topic_id, row.common);
      })(),
    commonGroundOf: (runId, uid) => commonOf.all(runId, uid),
    previousCommonGround: (uid, end) => previousCommon.all({ uid, end }),
    getState: (key) => getState.get(key)?.value,
    initState: (key, value) => {
      initState.run(key, value);
      return getState.get(key)!.value;
    },
    swapState: (key, expected, value) => {
      if (expected === null) return value !== null && initState.run(key, value).changes > 0;
      if (value === null) return removeState.run(key, expected).changes > 0;
      return replaceState.run(value, key, expected).changes > 0;
    },
  };
}
