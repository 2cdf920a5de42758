// Statements for both engines (sql.ts `both`): the grouping job's input (#2) and what
// the weekly mail names as needs (#4). Kept apart from sql.ts so that file stays one screenful per area.
import { both } from './sql.js';

/**
 * Live votes (1 agree, −1 disagree, 0 pass) on the topic's live, unmoderated responses, as
 * (voter, response, value): the opinion groups' input (domain/opinion-groups.ts); a response a person
 * did not vote on has no row (missing, never "did not agree"). Authors' own votes are left out: they
 * say nothing of how the author reads others. Never served: only the computed summary leaves the server.
 */
export const TOPIC_VOTES = both(`
  SELECT v.voter_uid AS voter, v.target_id AS response, v.value AS value
  FROM votes v JOIN responses r ON r.id = v.target_id
  WHERE v.topic_id = ? AND v.target_type = 'response' AND v.deleted = 0 AND v.value IN (1, -1, 0)
    AND r.deleted = 0 AND r.moderation IS NULL AND v.voter_uid <> r.creator_uid
`);

/**
 * The topic's responses a moderator took out (not deleted by their author): Polis reads every vote on
 * such a response as a pass (it zeroes the column), which weighs each person's other votes down; the
 * grouping does the same (shared/rules/opinion-groups.ts voteMatrix).
 */
export const TOPIC_REMOVED_RESPONSES = both(`
  SELECT id FROM responses WHERE topic_id = ? AND deleted = 0 AND moderation IS NOT NULL
`);

/**
 * The topic of each response vote changed at or after a time (one row per vote: the repositories keep
 * each topic once): what a starting grouping job marks, so a change heard by a process that stopped
 * before its turn is not lost. A range of `votes_response_updated` (SQLite 016, PostgreSQL 012); asked
 * for distinct topics in their order, SQLite walked every vote by `votes_topic` instead (2.8–3.1 s with
 * 2,000,000 votes).
 */
export const TOPICS_VOTED_SINCE = both(`
  SELECT topic_id FROM votes WHERE target_type = 'response' AND updated_at >= ?
`);

/** Each topic of TOPICS_VOTED_SINCE's rows once, in order. */
export const distinctTopics = (rows: { topic_id: string }[]): string[] => [...new Set(rows.map((row) => row.topic_id))].sort();

const NOT_BLOCKED = (author: string) =>
  `NOT EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_uid = @uid AND b.blocked_uid = ${author} AND b.blocked = 1)`;

/**
 * Rebuttals awaiting the reader: others' live "against" replies to the reader's live
 * responses, created in [@since, @end), that the reader has not answered (no live reply of theirs
 * under it). Newest first.
 */
const REBUTTALS = `
  SELECT r.id, r.topic_id, t.title AS topic_title, p.content AS parent_content, r.content,
         u.display_name AS author_name, r.created_at
  FROM responses p
  JOIN responses r ON r.parent_response_id = p.id
  JOIN topics t ON t.id = r.topic_id
  LEFT JOIN users u ON u.uid = r.creator_uid
  WHERE p.creator_uid = @uid AND r.type = 'against' AND r.creator_uid <> @uid
    AND p.deleted = 0 AND r.deleted = 0 AND t.deleted = 0
    AND p.moderation IS NULL AND r.moderation IS NULL AND t.moderation IS NULL
    AND r.created_at >= @since AND r.created_at < @end
    AND NOT EXISTS (SELECT 1 FROM responses a WHERE a.parent_response_id = r.id AND a.creator_uid = @uid AND a.deleted = 0)
    AND ${NOT_BLOCKED('r.creator_uid')}`;
export const REBUTTALS_PAGE = both(`SELECT * FROM (${REBUTTALS}) x ORDER BY created_at DESC, id DESC LIMIT @limit`);
export const REBUTTALS_COUNT = both(`SELECT count(*) AS n FROM (${REBUTTALS}) x`);

/**
 * The reader's live responses that cite no source and were challenged (an "against" reply by
 * someone else) in [@start, @end): how many challenges each, latest challenge first.
 */
export const CHALLENGED_UNSOURCED = both(`
  SELECT p.id, p.topic_id, t.title AS topic_title, p.content, count(*) AS challenges, max(r.created_at) AS last_at
  FROM responses p
  JOIN responses r ON r.parent_response_id = p.id
  JOIN topics t ON t.id = p.topic_id
  WHERE p.creator_uid = @uid AND p.deleted = 0 AND p.moderation IS NULL AND t.deleted = 0 AND t.moderation IS NULL
    AND r.type = 'against' AND r.creator_uid <> @uid AND r.deleted = 0 AND r.moderation IS NULL
    AND r.created_at >= @start AND r.created_at < @end
    AND NOT EXISTS (SELECT 1 FROM response_sources s WHERE s.response_id = p.id)
    AND ${NOT_BLOCKED('r.creator_uid')}
  GROUP BY p.id, p.topic_id, t.title, p.content
  ORDER BY last_at DESC, p.id LIMIT @limit
`);

/**
 * For each live topic where the reader stands agree or disagree: the topic's sides and the upvotes
 * and disagrees by side of each live response of the reader's side (agree: "for", disagree: "against"); one row
 * with null upvotes when the side has no response. The rule (shared/rules/common-ground.ts) counts.
 */
export const SIDE_TALLIES = both(`
  SELECT s.topic_id, t.title AS topic_title, s.stance, t.stance_agree, t.stance_disagree,
         r.upvotes_agree, r.upvotes_disagree, r.downvotes_agree, r.downvotes_disagree
  FROM stances s
  JOIN topics t ON t.id = s.topic_id AND t.deleted = 0 AND t.moderation IS NULL
  LEFT JOIN responses r ON r.topic_id = s.topic_id AND r.deleted = 0 AND r.moderation IS NULL
    AND r.type = CASE s.stance WHEN 'agree' THEN 'for' ELSE 'against' END
  WHERE s.uid = ? AND s.stance IN ('agree', 'disagree')
`);

/** The reader's per-topic common-ground counts of the latest run whose period ended before `end`. */
export const PREVIOUS_COMMON_GROUND = both(`
  SELECT c.topic_id, c.common FROM mail_common_ground c
  WHERE c.uid = @uid AND c.run_id = (
    SELECT r.id FROM mail_runs r WHERE r.period_end < @end
      AND EXISTS (SELECT 1 FROM mail_common_ground x WHERE x.run_id = r.id AND x.uid = @uid)
    ORDER BY r.period_end DESC LIMIT 1)
`);
