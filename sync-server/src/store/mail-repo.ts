// The weekly summary's storage: who gets it, what happened to them in a period, and the
// record of every run and every mail sent (migration 004-mail.sql).
import type { Db } from './connection.js';
import type { Synchronous } from './sqlite-transactions.js';

export interface MailRecipient {
  uid: string;
  display_name: string | null;
  email: string;
}

export interface MailReply {
  id: string;
  topic_id: string;
  topic_title: string;
  /** 'topic' when it answers the recipient's topic at root level, 'response' when it answers their response. */
  replied_to: 'topic' | 'response';
  parent_content: string | null;
  type: 'for' | 'against' | 'neutral';
  content: string;
  author_name: string | null;
  created_at: string;
}

export interface MailTopTopic {
  id: string;
  title: string;
  category: string;
  score: number;
  responses_count: number;
}

export interface MailRun {
  id: string;
  kind: 'scheduled' | 'manual';
  period_start: string;
  period_end: string;
  status: 'running' | 'done';
  created_at: string;
  finished_at: string | null;
  sent: number;
  failed: number;
  skipped: number;
}

export interface MailSend {
  run_id: string;
  uid: string;
  email: string;
  status: 'sent' | 'failed';
  attempts: number;
  message_id: string | null;
  error: string | null;
  at: string;
}

export interface PointsSnapshot {
  points: number;
  rank: number;
}

export interface MailRepo {
  /** Users with the weekly summary on and an e-mail address, by uid. */
  recipients(): Promise<MailRecipient[]>;
  /** Others' live replies to the user's topics (root level) and responses, created in [start, end), newest first. */
  repliesTo(uid: string, start: string, end: string, limit: number): Promise<{ total: number; items: MailReply[] }>;
  /** Live upvotes by others on the user's items, cast in [start, end). */
  pointsEarned(uid: string, start: string, end: string): Promise<number>;
  /** Live topics created in [start, end), best score first, then most responses. */
  topTopics(start: string, end: string, limit: number): Promise<MailTopTopic[]>;
  getRun(id: string): Promise<MailRun | undefined>;
  /** Creates the run with its points snapshot; false when a run with this id exists already. */
  createRun(
    run: Pick<MailRun, 'id' | 'kind' | 'period_start' | 'period_end' | 'created_at'>,
    snapshot: Array<{ uid: string } & PointsSnapshot>,
  ): Promise<boolean>;
  /** Runs not finished (a crash or a stop in the middle), oldest first. */
  unfinishedRuns(): Promise<MailRun[]>;
  /** The latest period end of any run, or undefined before the first. */
  lastPeriodEnd(): Promise<string | undefined>;
  finishRun(id: string, at: string, counts: { sent: number; failed: number; skipped: number }): Promise<void>;
  sendsOf(runId: string): Promise<MailSend[]>;
  recordSend(row: MailSend): Promise<void>;
  snapshot(runId: string, uid: string): Promise<PointsSnapshot | undefined>;
  /** The user's snapshot of the latest run whose period ended before `end`. */
  previousSnapshot(uid: string, end: string): Promise<PointsSnapshot | undefined>;
  getState(key: string): Promise<string | undefined>;
  /** Sets the value unless the key exists; returns the stored value. */
  initState(key: string, value: string): Promise<string>;
  /**
   * Compare-and-set: when the key holds `expected` (null: the key is absent), it becomes `value`
   * (null: removed) and true is answered; otherwise nothing changes and false (the run lease, mail/lease.ts).
   */
  swapState(key: string, expected: string | null, value: string | null): Promise<boolean>;
}

export function createMailRepo(db: Db): Synchronous<MailRepo> {
  const recipients = db.prepare<[], MailRecipient>(
    "SELECT uid, display_name, email FROM users WHERE receive_weekly_summary = 1 AND email IS NOT NULL AND trim(email) <> '' ORDER BY uid",
  );
  // Two indexed halves (root answers to the user's topics, answers to the user's responses).
  const replies = `
    SELECT r.id, r.topic_id, t.title AS topic_title, 'topic' AS replied_to, NULL AS parent_content, r.type, r.content,
           u.display_name AS author_name, r.created_at
    FROM topics t
    JOIN responses r ON r.topic_id = t.id AND r.parent_response_id IS NULL
    LEFT JOIN users u ON u.uid = r.creator_uid
    WHERE t.creator_uid = @uid AND t.deleted = 0 AND r.deleted = 0 AND r.creator_uid <> @uid
      AND r.created_at >= @start AND r.created_at < @end
    UNION ALL
    SELECT r.id, r.topic_id, t.title, 'response', p.content, r.type, r.content, u.display_name, r.created_at
    FROM responses p
    JOIN responses r ON r.parent_response_id = p.id
    JOIN topics t ON t.id = r.topic_id
    LEFT JOIN users u ON u.uid = r.creator_uid
    WHERE p.creator_uid = @uid AND p.deleted = 0 AND r.deleted = 0 AND t.deleted = 0 AND r.creator_uid <> @uid
      AND r.created_at >= @start AND r.created_at < @end
  `;
  type Period = { uid: string; start: string; end: string };
  const repliesPage = db.prepare<Period & { limit: number }, MailReply>(
    `SELECT * FROM (${replies}) ORDER BY created_at DESC, id DESC LIMIT @limit`,
  );
  const repliesCount = db.prepare<Period, { n: number }>(`SELECT count(*) AS n FROM (${replies})`);
  const pointsEarned = db.prepare<Period, { n: number }>(`
    SELECT count(*) AS n FROM votes
    WHERE target_creator_uid = @uid AND voter_uid <> @uid AND deleted = 0 AND created_at >= @start AND created_at < @end
  `);
  const topTopics = db.prepare<{ start: string; end: string; limit: number }, MailTopTopic>(`
    SELECT id, title, category, score, responses_count FROM topics
    WHERE deleted = 0 AND created_at >= @start AND created_at < @end
    ORDER BY score DESC, responses_count DESC, created_at DESC, id LIMIT @limit
  `);
  const getRun = db.prepare<[string], MailRun>('SELECT * FROM mail_runs WHERE id = ?');
  const insertRun = db.prepare(`
    INSERT OR IGNORE INTO mail_runs (id, kind, period_start, period_end, status, created_at)
    VALUES (@id, @kind, @period_start, @period_end, 'running', @created_at)
  `);
  const insertSnapshot = db.prepare('INSERT INTO mail_points (run_id, uid, points, rank) VALUES (?, ?, ?, ?)');
  const unfinished = db.prepare<[], MailRun>("SELECT * FROM mail_runs WHERE status = 'running' ORDER BY created_at, id");
  const lastEnd = db.prepare<[], { end: string | null }>('SELECT max(period_end) AS end FROM mail_runs');
  const finish = db.prepare(
    "UPDATE mail_runs SET status = 'done', finished_at = @at, sent = @sent, failed = @failed, skipped = @skipped WHERE id = @id",
  );
  const sendsOf = db.prepare<[string], MailSend>('SELECT * FROM mail_sends WHERE run_id = ? ORDER BY at, uid');
  const recordSend = db.prepare(`
    INSERT INTO mail_sends (run_id, uid, email, status, attempts, message_id, error, at)
    VALUES (@run_id, @uid, @email, @status, @attempts, @message_id, @error, @at)
    ON CONFLICT (run_id, uid) DO UPDATE SET email = excluded.email, status = excluded.status,
      attempts = mail_sends.attempts + excluded.attempts, message_id = excluded.message_id, error = excluded.error, at = excluded.at
  `);
  const snapshot = db.prepare<[string, string], PointsSnapshot>('SELECT points, rank FROM mail_points WHERE run_id = ? AND uid = ?');
  const previous = db.prepare<[string, string], PointsSnapshot>(`
    SELECT p.points, p.rank FROM mail_points p JOIN mail_runs r ON r.id = p.run_id
    WHERE p.uid = ? AND r.period_end < ? ORDER BY r.period_end DESC LIMIT 1
  `);
  const getState = db.prepare<[string], { value: string }>('SELECT value FROM mail_state WHERE key = ?');
  const initState = db.prepare('INSERT OR IGNORE INTO mail_state (key, value) VALUES (?, ?)');
  const replaceState = db.prepare<[string, string, string]>('UPDATE mail_state SET value = ? WHERE key = ? AND value = ?');
  const removeState = db.prepare<[string, string]>('DELETE FROM mail_state WHERE key = ? AND value = ?');

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
