// Every statement both engines run as written: SQLite's text, and the same text with its parameters
// numbered $1, $2, … for PostgreSQL, so a fix or an index hint is made once. The statements left in
// the repositories differ (casts, FTS5 against tsquery, INSERT OR IGNORE, json_each against unnest,
// a SQL function, PostgreSQL's ORDER BY pk and RETURNING pk).
import { DEFAULT_PUSH_SETTINGS, normalizePushSettings } from '../../../shared/push.js';
import { orderBySql, RESPONSE_ORDER } from '../../../shared/rules/sort-order.js';

/**
 * The statement for each engine. PostgreSQL numbers SQLite's parameters: each `?` in order, and
 * each `@name` where it first stands, so its array of values lists the names in that order.
 */
export function both(sqlite: string): { sqlite: string; pg: string } {
  const named = new Map<string, number>();
  let n = 0;
  const pg = sqlite.replace(/@\w+|\?/g, (param) => {
    if (param === '?') return `$${++n}`;
    if (!named.has(param)) named.set(param, ++n);
    return `$${named.get(param)}`;
  });
  return { sqlite, pg };
}

// Users

/**
 * The topic's participants (its creator, or authors of its live responses) among the
 * users of the names an @mention could stand for (a JSON array), compared case-insensitively through
 * the name index (users_display_name_nocase / users_display_name_lower). SQLite walks the named
 * person's own responses (`+topic_id`: not the topic's, which in a big debate are many more).
 */
export const PARTICIPANTS_NAMED = {
  sqlite: `
    SELECT u.uid, u.display_name AS name FROM users u
    WHERE u.display_name COLLATE NOCASE IN (SELECT value FROM json_each(@names))
      AND (u.uid = (SELECT creator_uid FROM topics WHERE id = @topic)
           OR EXISTS (SELECT 1 FROM responses r WHERE r.creator_uid = u.uid AND +r.topic_id = @topic AND r.deleted = 0))`,
  pg: `
    SELECT u.uid, u.display_name AS name FROM users u
    WHERE lower(u.display_name) IN (SELECT lower(name) FROM unnest($1::text[]) AS name)
      AND (u.uid = (SELECT creator_uid FROM topics WHERE id = $2)
           OR EXISTS (SELECT 1 FROM responses r WHERE r.creator_uid = u.uid AND r.topic_id = $2 AND r.deleted = 0))`,
};

// Topics

/** A topic's stance counters, recounted from its stances (an index-only scan). */
export const STANCE_COUNTS = both(`
  SELECT count(*) FILTER (WHERE stance = 'agree') AS stance_agree,
         count(*) FILTER (WHERE stance = 'disagree') AS stance_disagree,
         count(*) FILTER (WHERE stance = 'unsure') AS stance_unsure,
         count(*) FILTER (WHERE stance <> first_stance) AS minds_changed
  FROM stances WHERE topic_id = ?
`);

/** A live topic's stored opinion-groups summary. */
export const STORED_OPINION_GROUPS = both('SELECT opinion_groups FROM topics WHERE id = ? AND deleted = 0');

/** Stores a topic's new opinion-groups summary. */
export const SAVE_OPINION_GROUPS = both('UPDATE topics SET opinion_groups = ?, seq = ? WHERE id = ?');

/** The topics' version: their highest seq. */
export const LAST_TOPIC_SEQ = both('SELECT max(seq) AS v FROM topics');

/** A topic's score and response counts, recounted from their rows. */
export const TOPIC_COUNTS = both(`
  SELECT
    (SELECT count(*) FROM votes WHERE target_type = 'topic' AND target_id = @id AND deleted = 0 AND value = 1) AS score,
    (SELECT count(*) FROM responses WHERE topic_id = @id AND deleted = 0) AS responses_count,
    (SELECT count(*) FROM responses WHERE topic_id = @id AND deleted = 0 AND type = 'for') AS responses_for,
    (SELECT count(*) FROM responses WHERE topic_id = @id AND deleted = 0 AND type = 'against') AS responses_against,
    (SELECT count(*) FROM responses WHERE topic_id = @id AND deleted = 0 AND type = 'neutral') AS responses_neutral
`);

/** Every topic of a renamed user gets a new seq, so each reader pulls the new name. */
export const RESTAMP_TOPICS_OF = both('UPDATE topics SET seq = ? WHERE creator_uid = ?');

export const TOPIC_STANCE_COUNTERS = both('SELECT stance_agree, stance_disagree, stance_unsure, minds_changed FROM topics WHERE id = ?');

export const SET_STANCE_COUNTERS = both(`
  UPDATE topics SET stance_agree = @stance_agree, stance_disagree = @stance_disagree, stance_unsure = @stance_unsure,
         minds_changed = @minds_changed, seq = @seq WHERE id = @id
`);

/** How many topics a user created since a time (deleted ones count). */
export const TOPICS_CREATED_SINCE = both('SELECT count(*) AS n FROM topics WHERE creator_uid = ? AND created_at >= ?');

/** The user's live topics since a time, newest first: what the spam check compares. */
export const RECENT_TOPIC_TITLES = both(
  'SELECT title FROM topics WHERE creator_uid = ? AND created_at >= ? AND deleted = 0 ORDER BY created_at DESC LIMIT ?',
);

// Responses

/**
 * Recounts a response's score, direct replies, upvotes and disagrees by side and Δ count, and stamps
 * its seq. The score counts agree votes only (value 1, the upvotes); the disagrees by side (value -1)
 * feed common ground and the strongest case. The author's own vote counts on no side (it would tell
 * their stance).
 */
export const RECOUNT_RESPONSE = both(`
  UPDATE responses SET
    score = (SELECT count(*) FROM votes WHERE target_type = 'response' AND target_id = @id AND deleted = 0 AND value = 1),
    comment_count = (SELECT count(*) FROM responses c WHERE c.parent_response_id = @id AND c.deleted = 0),
    upvotes_agree = (SELECT count(*) FROM votes WHERE target_type = 'response' AND target_id = @id AND deleted = 0 AND value = 1 AND stance = 'agree' AND voter_uid <> target_creator_uid),
    upvotes_disagree = (SELECT count(*) FROM votes WHERE target_type = 'response' AND target_id = @id AND deleted = 0 AND value = 1 AND stance = 'disagree' AND voter_uid <> target_creator_uid),
    downvotes_agree = (SELECT count(*) FROM votes WHERE target_type = 'response' AND target_id = @id AND deleted = 0 AND value = -1 AND stance = 'agree' AND voter_uid <> target_creator_uid),
    downvotes_disagree = (SELECT count(*) FROM votes WHERE target_type = 'response' AND target_id = @id AND deleted = 0 AND value = -1 AND stance = 'disagree' AND voter_uid <> target_creator_uid),
    delta_count = (SELECT count(DISTINCT uid) FROM deltas WHERE response_id = @id),
    seq = @seq
  WHERE id = @id
`);

/** A topic's responses' version: their highest seq (one descent of responses_topic_seq). */
export const LAST_RESPONSE_SEQ_OF_TOPIC = both('SELECT max(seq) AS v FROM responses WHERE topic_id = ?');

/** The author's live responses since a time, newest first: what the spam check compares. */
/** An author's responses written or edited since a time (bound: uid, since, since, limit): the spam check's counts. */
export const RECENT_RESPONSE_CONTENTS = both(
  'SELECT content FROM responses WHERE creator_uid = ? AND (created_at >= ? OR edited_at >= ?) AND deleted = 0 ORDER BY created_at DESC LIMIT ?',
);

/** The topics a user has responses in (live or not). */
export const TOPICS_ANSWERED_BY = both('SELECT DISTINCT topic_id FROM responses WHERE creator_uid = ?');

/** Every response of a renamed user gets a new seq, so each reader pulls the new name. */
export const RESTAMP_RESPONSES_OF = both('UPDATE responses SET seq = ? WHERE creator_uid = ?');

/** Moves a response's counters by the given differences and stamps its seq. */
export const ADD_RESPONSE_COUNTS = both(`
  UPDATE responses SET score = score + @score, comment_count = comment_count + @comments,
         upvotes_agree = upvotes_agree + @agree, upvotes_disagree = upvotes_disagree + @disagree,
         downvotes_agree = downvotes_agree + @down_agree, downvotes_disagree = downvotes_disagree + @down_disagree, seq = @seq
  WHERE id = @id
`);

/** The people who credited a response with a Δ (people, not credits). */
export const DELTA_GIVERS_COUNT = both('SELECT count(DISTINCT uid) AS n FROM deltas WHERE response_id = ?');

export const RESPONSE_DELTA_COUNT = both('SELECT delta_count FROM responses WHERE id = ?');

export const SET_DELTA_COUNT = both('UPDATE responses SET delta_count = ?, seq = ? WHERE id = ?');

/** A topic's live responses with their upvotes and disagrees by side and Δ count, in the responses' order. */
export const STANCE_TALLIES = both(`
  SELECT id, created_at, upvotes_agree, upvotes_disagree, downvotes_agree, downvotes_disagree, delta_count FROM responses
  WHERE topic_id = ? AND deleted = 0 ORDER BY ${orderBySql(RESPONSE_ORDER, 'responses')}
`);

// Sources

/** The live responses in live topics citing a source, newest first. */
export const CITING = both(`
  SELECT r.id, r.topic_id, t.title AS topic_title, r.created_at FROM response_sources rs
  JOIN responses r ON r.id = rs.response_id JOIN topics t ON t.id = r.topic_id
  WHERE rs.source_id = @sourceId AND r.deleted = 0 AND t.deleted = 0
  ORDER BY r.created_at DESC, r.id DESC LIMIT @limit OFFSET @offset
`);

/**
 * The catalogue's suggested name and description of one source (bound: its id): the one given by
 * the most distinct authors among live citations, ties to the earliest; unchanged when no live
 * citation names it.
 */
export const SUGGEST_SOURCE_NAME = both(`
  UPDATE sources SET
    name = coalesce((
      SELECT rs.name FROM response_sources rs JOIN responses r ON r.id = rs.response_id
      WHERE rs.source_id = sources.id AND rs.name IS NOT NULL AND r.deleted = 0 AND r.moderation IS NULL
      GROUP BY rs.name ORDER BY count(DISTINCT r.creator_uid) DESC, min(r.created_at), rs.name LIMIT 1), name),
    description = coalesce((
      SELECT rs.description FROM response_sources rs JOIN responses r ON r.id = rs.response_id
      WHERE rs.source_id = sources.id AND rs.description IS NOT NULL AND r.deleted = 0 AND r.moderation IS NULL
      GROUP BY rs.description ORDER BY count(DISTINCT r.creator_uid) DESC, min(r.created_at), rs.description LIMIT 1), description)
  WHERE id = ?
`);

/**
 * A catalogue row (aliased `s`) is listed only while a live, unmoderated response in a live topic
 * cites it: a removed, hidden or deleted response's link, name and description leave the
 * catalogue with it, and come back with a restore.
 */
export const CITED_LIVE = `EXISTS (
  SELECT 1 FROM response_sources rs JOIN responses r ON r.id = rs.response_id JOIN topics t ON t.id = r.topic_id
  WHERE rs.source_id = s.id AND r.deleted = 0 AND r.moderation IS NULL AND t.deleted = 0)`;

/** How many live responses in live topics cite the source. */
export const CITING_COUNT = both(`
  SELECT count(*) AS n FROM response_sources rs
  JOIN responses r ON r.id = rs.response_id JOIN topics t ON t.id = r.topic_id
  WHERE rs.source_id = ? AND r.deleted = 0 AND t.deleted = 0
`);

/** The response's citations as its author gave them: the catalogue row only lends the URL and id. */
export const CITATIONS_OF_RESPONSE = both(`
  SELECT s.id, s.url, rs.name, rs.description FROM response_sources rs JOIN sources s ON s.id = rs.source_id
  WHERE rs.response_id = ? ORDER BY rs.position
`);

/** The sources a response cites. */
export const CITED_SOURCE_IDS = both('SELECT source_id FROM response_sources WHERE response_id = ?');

/** A response's citations, before they are written again. */
export const DROP_CITATIONS = both('DELETE FROM response_sources WHERE response_id = ?');

export const SOURCE_BY_URL = both('SELECT id, url, name, description FROM sources WHERE url = ?');

export const INSERT_SOURCE = both('INSERT INTO sources (id, url, name, description, created_at) VALUES (?, ?, ?, ?, ?)');

/** Gives a catalogue row the name and description it lacks. */
export const FILL_SOURCE_NAME = both(`
  UPDATE sources SET name = coalesce(name, ?), description = coalesce(description, ?) WHERE id = ?
`);

export const SOURCE_EXISTS = both('SELECT id FROM sources WHERE id = ?');

export const INSERT_CITATION = both(
  'INSERT INTO response_sources (response_id, position, source_id, name, description) VALUES (?, ?, ?, ?, ?)',
);

export const SOURCE_NAME = both('SELECT name, description FROM sources WHERE id = ?');

// Upvotes

/**
 * Casts a vote (value 1 agree, -1 disagree, 0 pass), changes it, or takes it back (deleted = 1): one
 * row per voter and target, so the removal replicates.
 */
export const SET_VOTE = both(`
  INSERT INTO votes (voter_uid, target_type, target_id, target_creator_uid, topic_id, stance, value, created_at, updated_at, deleted, seq)
  VALUES (@voter_uid, @target_type, @target_id, @target_creator_uid, @topic_id, @stance, @value, @now, @now, @deleted, @seq)
  ON CONFLICT (voter_uid, target_type, target_id) DO UPDATE SET
    deleted = excluded.deleted, value = excluded.value, updated_at = excluded.updated_at, seq = excluded.seq,
    -- Taking a vote back keeps the stance it was cast with; casting it again records the stance then.
    stance = CASE WHEN excluded.deleted = 1 THEN votes.stance ELSE excluded.stance END
`);

/** Takes back one voter's vote (the row stays, so the removal replicates). */
export const REMOVE_VOTE = both('UPDATE votes SET deleted = 1, seq = ? WHERE voter_uid = ? AND target_type = ? AND target_id = ?');

// Users

/** Records the caller as the verified token describes them (the e-mail with its email_verified claim). */
export const REMEMBER_USER = both(`
  INSERT INTO users (uid, display_name, email, email_verified, role, created_at, seq)
  VALUES (@uid, @display_name, @email, @email_verified, @role, @created_at, @seq)
  ON CONFLICT (uid) DO UPDATE SET display_name = excluded.display_name, email = excluded.email,
    email_verified = excluded.email_verified, role = excluded.role, seq = excluded.seq
`);

/**
 * The Δ credits that earn an author (bound: their uid) persuasion points: on their live responses,
 * counted ones only, at most one per creditor and topic (docs/COMMON-GROUND.md "Persuasion points").
 */
export const COUNTED_DELTAS = both(`
  SELECT count(*) AS n FROM (
    SELECT DISTINCT d.uid, d.topic_id FROM deltas d JOIN responses r ON r.id = d.response_id
    WHERE d.author_uid = ? AND d.uid <> d.author_uid AND d.counts = 1 AND r.deleted = 0
  ) AS counted
`);

/** Points: live upvotes (agree votes) by others on the user's items, plus the persuasion points. */
export const RECOUNT_POINTS = both(`
  UPDATE users SET points = (
    SELECT count(*) FROM votes
    WHERE target_creator_uid = users.uid AND voter_uid <> users.uid AND deleted = 0 AND value = 1
  ) + persuasion_points WHERE uid = ?
`);

/** Users with points, most first (ties by uid). */
export const LEADERBOARD = both(
  'SELECT uid, display_name, points, persuasion_points FROM users WHERE points > 0 ORDER BY points DESC, uid LIMIT ?',
);

/** The user's live topics, newest first. */
export const TOPICS_BY = both(
  'SELECT id, title, created_at, score, responses_count FROM topics WHERE creator_uid = ? AND deleted = 0 ORDER BY created_at DESC, id DESC LIMIT ?',
);

/** The user's live responses in live topics, newest first. */
export const RESPONSES_BY = both(`
  SELECT r.id, r.topic_id, t.title AS topic_title, r.type, r.content, r.created_at, r.score
  FROM responses r JOIN topics t ON t.id = r.topic_id
  WHERE r.creator_uid = ? AND r.deleted = 0 AND t.deleted = 0
  ORDER BY r.created_at DESC, r.id DESC LIMIT ?
`);

export const GET_USER = both('SELECT * FROM users WHERE uid = ?');

export const RESTAMP_USER = both('UPDATE users SET seq = ? WHERE uid = ?');

/** A deleted account's stub earns nothing (it would come back on the leaderboard as "deleted user"). */
export const ADD_POINTS = both('UPDATE users SET points = points + ?, seq = ? WHERE uid = ? AND deleted_at IS NULL');

/** The rank of a number of points: one more than the users with more. */
export const RANK_OF_POINTS = both('SELECT count(*) + 1 AS rank FROM users WHERE points > ?');

/** Replaces the user's persuasion points in their total. */
export const SET_PERSUASION_POINTS = both(`
  UPDATE users SET points = points - persuasion_points + @persuasion, persuasion_points = @persuasion, seq = @seq WHERE uid = @uid AND deleted_at IS NULL
`);

/** Sets the weekly summary on or off; turning it on from off notes when (the unsubscribe links mailed before die). */
export const SET_WEEKLY_SUMMARY = both(`
  UPDATE users SET
    weekly_summary_since = CASE WHEN @on = 1 AND receive_weekly_summary = 0 THEN @now ELSE weekly_summary_since END,
    receive_weekly_summary = @on, seq = @seq
  WHERE uid = @uid
`);

export const WEEKLY_SUMMARY_SINCE = both('SELECT weekly_summary_since FROM users WHERE uid = ?');

export const SET_PUSH_SETTINGS = both('UPDATE users SET push_settings = ?, seq = ? WHERE uid = ?');

/** The user's row if it changed after a seq. */
export const USER_IF_CHANGED = both('SELECT * FROM users WHERE uid = ? AND seq > ?');

// Notifications

/** A reply notification. */
export const INSERT_NOTIFICATION = both(`
  INSERT INTO notifications (id, recipient_uid, type, actor_uid, target_summary, target_id, response_id, created_at, seq)
  VALUES (@id, @recipient_uid, @type, @actor_uid, @target_summary, @target_id, @response_id, @created_at, @seq)
`);

/** The flood cap: live notifications one actor gave one recipient since a time. */
export const NOTIFICATIONS_FROM = both(
  'SELECT count(*) AS n FROM notifications WHERE recipient_uid = ? AND actor_uid = ? AND created_at >= ? AND deleted = 0',
);

export const MARK_NOTIFICATION_READ = both('UPDATE notifications SET is_read = 1, seq = ? WHERE id = ?');

/** Tombstones a notification (its topic was deleted). */
export const DELETE_NOTIFICATION = both('UPDATE notifications SET deleted = 1, seq = ? WHERE id = ?');

/** Who was notified about a response, and how. */
export const NOTIFIED_ABOUT_RESPONSE = both('SELECT recipient_uid, type FROM notifications WHERE response_id = ? AND deleted = 0');

export const MARK_NOTIFICATION_RESPONSE_DELETED = both('UPDATE notifications SET response_deleted = 1, seq = ? WHERE id = ?');

/**
 * The live notifications whose excerpt copies a topic's title (bound: the topic id): the replies to
 * it and the followers' notices (the author's own moderation notices are theirs to keep).
 */
export const NOTIFICATIONS_COPYING_TOPIC = both(`
  SELECT id, recipient_uid FROM notifications
  WHERE target_id = ? AND type IN ('reply_to_topic', 'reply_in_followed_topic') AND deleted = 0 ORDER BY id
`);

/**
 * The live notifications whose excerpt copies a response's content (bound: the response id, twice):
 * the mentions it made and the replies to it.
 */
export const NOTIFICATIONS_COPYING_RESPONSE = both(`
  SELECT id, recipient_uid FROM notifications
  WHERE deleted = 0 AND ((type = 'mention' AND response_id = ?)
    OR (type = 'reply_to_comment' AND response_id IN (SELECT id FROM responses WHERE parent_response_id = ? AND deleted = 0)))
  ORDER BY id
`);

export const SET_NOTIFICATION_SUMMARY = both('UPDATE notifications SET target_summary = ?, seq = ? WHERE id = ?');

// Stances

/** Inserts or replaces the user's stance on the topic; an existing row keeps its first_stance and credit_from. */
export const SAVE_STANCE = both(`
  INSERT INTO stances (uid, topic_id, stance, first_stance, history, credits, updated_at, seq, credit_from)
  VALUES (@uid, @topic_id, @stance, @first_stance, @history, @credits, @updated_at, @seq, @credit_from)
  ON CONFLICT (uid, topic_id) DO UPDATE SET
    stance = excluded.stance, history = excluded.history, credits = excluded.credits,
    updated_at = excluded.updated_at, seq = excluded.seq
`);

export const GET_STANCE = both('SELECT * FROM stances WHERE uid = ? AND topic_id = ?');

/** The user's stances after a (seq, topic_id) checkpoint. */
export const STANCES_SINCE = both(`
  SELECT * FROM stances WHERE uid = @uid AND (seq > @seq OR (seq = @seq AND topic_id > @id))
  ORDER BY seq, topic_id LIMIT @limit
`);

/** The Δ credits one change of mind gave, before they are given again. */
export const DROP_DELTAS_OF_CHANGE = both('DELETE FROM deltas WHERE uid = ? AND topic_id = ? AND change_no = ?');

export const INSERT_DELTA = both(`
  INSERT INTO deltas (uid, topic_id, change_no, response_id, author_uid, counts, created_at)
  VALUES (@uid, @topic_id, @change_no, @response_id, @author_uid, @counts, @now)
`);

// The weekly summary

/** Records a mail sent (or failed) to a user in a run; a retry adds its attempts. */
export const RECORD_SEND = both(`
  INSERT INTO mail_sends (run_id, uid, email, status, attempts, message_id, error, at)
  VALUES (@run_id, @uid, @email, @status, @attempts, @message_id, @error, @at)
  ON CONFLICT (run_id, uid) DO UPDATE SET email = excluded.email, status = excluded.status,
    attempts = mail_sends.attempts + excluded.attempts, message_id = excluded.message_id, error = excluded.error, at = excluded.at
`);

/** Live upvotes (agree votes) by others on the user's items, cast in [start, end). */
export const POINTS_EARNED = both(`
  SELECT count(*) AS n FROM votes
  WHERE target_creator_uid = @uid AND voter_uid <> @uid AND deleted = 0 AND value = 1 AND created_at >= @start AND created_at < @end
`);

/** Live topics created in [start, end), best score first, then most responses. */
export const TOP_TOPICS = both(`
  SELECT id, title, category, score, responses_count FROM topics
  WHERE deleted = 0 AND moderation IS NULL AND created_at >= @start AND created_at < @end
  ORDER BY score DESC, responses_count DESC, created_at DESC, id LIMIT @limit
`);

/** Users with the weekly summary on and a verified e-mail address, by uid. */
export const MAIL_RECIPIENTS = both(`
  SELECT uid, display_name, email FROM users
  WHERE receive_weekly_summary = 1 AND email_verified = 1 AND email IS NOT NULL AND trim(email) <> '' ORDER BY uid
`);

/** The user's points snapshot of the latest run whose period ended before a time. */
export const PREVIOUS_SNAPSHOT = both(`
  SELECT p.points, p.rank FROM mail_points p JOIN mail_runs r ON r.id = p.run_id
  WHERE p.uid = ? AND r.period_end < ? ORDER BY r.period_end DESC LIMIT 1
`);

export const GET_MAIL_RUN = both('SELECT * FROM mail_runs WHERE id = ?');

/** Runs still marked running (their process stopped before the end), oldest first. */
export const UNFINISHED_MAIL_RUNS = both("SELECT * FROM mail_runs WHERE status = 'running' ORDER BY created_at, id");

export const LAST_MAIL_PERIOD_END = both('SELECT max(period_end) AS end FROM mail_runs');

export const FINISH_MAIL_RUN = both(
  "UPDATE mail_runs SET status = 'done', finished_at = @at, sent = @sent, failed = @failed, skipped = @skipped WHERE id = @id",
);

export const MAIL_SENDS_OF_RUN = both('SELECT * FROM mail_sends WHERE run_id = ? ORDER BY at, uid');

/** The user's points snapshot taken by a run. */
export const MAIL_POINTS_SNAPSHOT = both('SELECT points, rank FROM mail_points WHERE run_id = ? AND uid = ?');

/** The user's common-ground counts recorded by a run, by topic. */
export const COMMON_GROUND_OF_RUN = both('SELECT topic_id, common FROM mail_common_ground WHERE run_id = ? AND uid = ? ORDER BY topic_id');

export const GET_MAIL_STATE = both('SELECT value FROM mail_state WHERE key = ?');

/** Swaps a state value only if it is still the expected one. */
export const REPLACE_MAIL_STATE = both('UPDATE mail_state SET value = ? WHERE key = ? AND value = ?');

/** Removes a state value only if it is still the expected one. */
export const REMOVE_MAIL_STATE = both('DELETE FROM mail_state WHERE key = ? AND value = ?');

// Blocks

/** A block row with the blocked user's current name (users may not know them yet: left join). */
const BLOCK_COLUMNS = `
  SELECT b.blocker_uid, b.blocked_uid, b.blocked, b.updated_at, b.seq, u.display_name
  FROM blocks b LEFT JOIN users u ON u.uid = b.blocked_uid`;

/** Blocks or unblocks (blocked = 0): one row per blocker and blocked user, so the change replicates. */
export const SET_BLOCK = both(`
  INSERT INTO blocks (blocker_uid, blocked_uid, blocked, updated_at, seq) VALUES (?, ?, ?, ?, ?)
  ON CONFLICT (blocker_uid, blocked_uid) DO UPDATE SET blocked = excluded.blocked, updated_at = excluded.updated_at, seq = excluded.seq
`);

export const GET_BLOCK = both(`${BLOCK_COLUMNS} WHERE b.blocker_uid = ? AND b.blocked_uid = ?`);

export const IS_BLOCKED = both('SELECT 1 AS one FROM blocks WHERE blocker_uid = ? AND blocked_uid = ? AND blocked = 1');

export const LIST_BLOCKS = both(`${BLOCK_COLUMNS} WHERE b.blocker_uid = ? AND b.blocked = 1 ORDER BY b.updated_at DESC, b.blocked_uid`);

/** The blocker's rows after a (seq, blocked_uid) checkpoint: the index blocks_blocker_seq answers it. */
export const BLOCK_CHANGES = both(`${BLOCK_COLUMNS}
  WHERE b.blocker_uid = ? AND (b.seq > ? OR (b.seq = ? AND b.blocked_uid > ?)) ORDER BY b.seq, b.blocked_uid LIMIT ?`);

/** The blocked user renamed: every row naming them gets a new seq, so each blocker pulls the new name. */
export const RESTAMP_BLOCKED = both('UPDATE blocks SET seq = ? WHERE blocked_uid = ? RETURNING blocker_uid');
// Reports and moderation

/** A report's replicated id, `{target_type}_{target_id}` (shared/sync-protocol.ts reportDocId). */
const REPORT_ID = `(target_type || '_' || target_id)`;

/** The reporter's reports after a (seq, id) checkpoint; ordering by (seq, target_type, target_id) is the order of (seq, id). */
export const REPORTS_SINCE = both(`
  SELECT * FROM reports
  WHERE reporter_uid = @uid AND (seq > @seq OR (seq = @seq AND ${REPORT_ID} > @id))
  ORDER BY seq, target_type, target_id LIMIT @limit
`);

/** Inserts a report or replaces the reporter's report of the target. */
export const SAVE_REPORT = both(`
  INSERT INTO reports (reporter_uid, target_type, target_id, target_author_uid, reason, note, status, created_at, updated_at, seq)
  VALUES (@reporter_uid, @target_type, @target_id, @target_author_uid, @reason, @note, @status, @created_at, @updated_at, @seq)
  ON CONFLICT (reporter_uid, target_type, target_id) DO UPDATE SET
    target_author_uid = excluded.target_author_uid, reason = excluded.reason, note = excluded.note, status = excluded.status,
    created_at = excluded.created_at, updated_at = excluded.updated_at, seq = excluded.seq
`);

/** Targets with reports of a status ('handled': none open), hidden ones first, then most reporters, then the oldest. */
const QUEUE_TARGETS = `
  FROM reports r
  WHERE r.status = @status
    AND (@status = 'open' OR NOT EXISTS (
      SELECT 1 FROM reports o WHERE o.target_type = r.target_type AND o.target_id = r.target_id AND o.status = 'open'))
  GROUP BY r.target_type, r.target_id`;

export const REPORT_QUEUE = both(`
  SELECT q.* FROM (
    SELECT r.target_type, r.target_id, max(r.target_author_uid) AS target_author_uid, count(*) AS reporters,
           min(r.created_at) AS first_reported_at, max(r.updated_at) AS last_reported_at,
           CASE
             WHEN r.target_type = 'topic' AND EXISTS (SELECT 1 FROM topics t WHERE t.id = r.target_id AND t.moderation = 'hidden') THEN 1
             WHEN r.target_type = 'response' AND EXISTS (SELECT 1 FROM responses p WHERE p.id = r.target_id AND p.moderation = 'hidden') THEN 1
             ELSE 0
           END AS hidden
    ${QUEUE_TARGETS}
  ) q
  ORDER BY q.hidden DESC, q.reporters DESC, q.first_reported_at, q.target_type, q.target_id
  LIMIT @limit OFFSET @offset
`);

export const REPORT_QUEUE_TOTAL = both(`SELECT count(*) AS n FROM (SELECT r.target_type ${QUEUE_TARGETS}) q`);

export const REPORTS_OF_TARGET = both(`
  SELECT r.*, u.display_name AS reporter_name FROM reports r LEFT JOIN users u ON u.uid = r.reporter_uid
  WHERE r.target_type = ? AND r.target_id = ? AND r.status = ?
  ORDER BY r.created_at, r.reporter_uid
`);

export const REPORTERS_WITH_STANDING = both(`
  SELECT count(*) AS n FROM reports r JOIN users u ON u.uid = r.reporter_uid
  WHERE r.target_type = ? AND r.target_id = ? AND r.status = 'open' AND u.created_at <= ? AND u.points >= ?
`);

/**
 * Each open reporter of a target, for auto-hide: when their account was first seen; the points given
 * them by accounts with standing (@createdBefore, @minPoints) that are not among the target's open
 * reporters (upvotes on their items, and @perDelta for each counted Δ credit); and how many automatic
 * hides since @since their report came before.
 */
export const AUTO_HIDE_REPORTERS = both(`
  SELECT r.reporter_uid AS uid, u.created_at,
    (SELECT count(*) FROM votes v JOIN users g ON g.uid = v.voter_uid
      WHERE v.target_creator_uid = r.reporter_uid AND v.deleted = 0 AND v.voter_uid <> r.reporter_uid
        AND g.created_at <= @createdBefore AND g.points >= @minPoints
        AND NOT EXISTS (SELECT 1 FROM reports o WHERE o.target_type = r.target_type AND o.target_id = r.target_id
                          AND o.status = 'open' AND o.reporter_uid = v.voter_uid))
    + @perDelta * (SELECT count(DISTINCT d.uid || ' ' || d.topic_id)
      FROM deltas d JOIN responses x ON x.id = d.response_id JOIN users g ON g.uid = d.uid
      WHERE d.author_uid = r.reporter_uid AND d.uid <> d.author_uid AND d.counts = 1 AND x.deleted = 0
        AND g.created_at <= @createdBefore AND g.points >= @minPoints
        AND NOT EXISTS (SELECT 1 FROM reports o WHERE o.target_type = r.target_type AND o.target_id = r.target_id
                          AND o.status = 'open' AND o.reporter_uid = d.uid)) AS vouched_points,
    (SELECT count(*) FROM moderation_log l JOIN reports h
        ON h.target_type = l.target_type AND h.target_id = l.target_id AND h.reporter_uid = r.reporter_uid
      WHERE l.action = 'hide' AND l.moderator_uid IS NULL AND l.created_at > @since AND h.created_at <= l.created_at) AS recent_hides
  FROM reports r JOIN users u ON u.uid = r.reporter_uid
  WHERE r.target_type = @type AND r.target_id = @id AND r.status = 'open'
`);

/**
 * The log, newest first, with what each action was about: the topic's title, the response's text
 * (the author's own, kept aside when moderated) and its topic, the user's name.
 */
export const MODERATION_LOG_PAGE = both(`
  SELECT l.id, l.moderator_uid, l.action, l.target_type, l.target_id, l.reason, l.days, l.created_at,
         u.display_name AS moderator_name,
         substr(COALESCE(o.text, t.title, r.content, tu.display_name), 1, 200) AS target_name,
         r.topic_id AS target_topic_id
  FROM moderation_log l
  LEFT JOIN users u ON u.uid = l.moderator_uid
  LEFT JOIN topics t ON l.target_type = 'topic' AND t.id = l.target_id
  LEFT JOIN responses r ON l.target_type = 'response' AND r.id = l.target_id
  LEFT JOIN users tu ON l.target_type = 'user' AND tu.uid = l.target_id
  LEFT JOIN moderated_originals o ON o.target_type = l.target_type AND o.target_id = l.target_id
  ORDER BY l.created_at DESC, l.pk DESC LIMIT ? OFFSET ?
`);

export const SAVE_ORIGINAL = both(`
  INSERT INTO moderated_originals (target_type, target_id, text, quoted_response_id, sources)
  VALUES (?, ?, ?, ?, ?)
  ON CONFLICT (target_type, target_id) DO UPDATE SET
    text = excluded.text, quoted_response_id = excluded.quoted_response_id, sources = excluded.sources
`);

export const INSERT_MODERATION_LOG = both(`
  INSERT INTO moderation_log (id, moderator_uid, action, target_type, target_id, reason, days, created_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?)
`);

/** The text a moderator's removal kept aside. */
export const GET_ORIGINAL = both(
  'SELECT target_type, target_id, text, quoted_response_id, sources FROM moderated_originals WHERE target_type = ? AND target_id = ?',
);

export const DROP_ORIGINAL = both('DELETE FROM moderated_originals WHERE target_type = ? AND target_id = ?');

// Edit history (migrations 019 / 015)

/** The replaced text as the response's next version: one more than its last (1 for the first). */
export const KEEP_RESPONSE_VERSION = both(`
  INSERT INTO response_versions (response_id, version, content, created_at)
  SELECT CAST(@id AS TEXT), COALESCE(MAX(version), 0) + 1, CAST(@content AS TEXT), CAST(@created_at AS TEXT)
  FROM response_versions WHERE response_id = @id`);

export const DROP_RESPONSE_VERSIONS = both('DELETE FROM response_versions WHERE response_id = ?');

export const SET_TOPIC_LOCKED = both('UPDATE topics SET locked = ?, seq = ? WHERE id = ?');

export const SET_SUSPENSION = both('UPDATE users SET suspended_until = ?, suspension_reason = ?, seq = ? WHERE uid = ?');

export const SET_ROLE = both('UPDATE users SET role = ?, seq = ? WHERE uid = ?');

export const MODERATION_LOG_TOTAL = both('SELECT count(*) AS n FROM moderation_log');

export const GET_REPORT = both('SELECT * FROM reports WHERE reporter_uid = ? AND target_type = ? AND target_id = ?');

/** The reporters of a target whose reports are open, by uid. */
export const OPEN_REPORTERS = both(
  "SELECT reporter_uid FROM reports WHERE target_type = ? AND target_id = ? AND status = 'open' ORDER BY reporter_uid",
);

export const MARK_REPORT_HANDLED = both(
  "UPDATE reports SET status = 'handled', seq = ? WHERE reporter_uid = ? AND target_type = ? AND target_id = ?",
);

// Web Push

/** Saves a device's subscription; a device signed in as someone else moves to them (its endpoint is the key). */
export const SAVE_PUSH_SUBSCRIPTION = both(`
  INSERT INTO push_subscriptions (endpoint, uid, p256dh, auth, created_at) VALUES (?, ?, ?, ?, ?)
  ON CONFLICT (endpoint) DO UPDATE SET uid = excluded.uid, p256dh = excluded.p256dh, auth = excluded.auth,
    created_at = CASE WHEN push_subscriptions.uid = excluded.uid THEN push_subscriptions.created_at ELSE excluded.created_at END
`);

export const GET_PUSH_SUBSCRIPTION = both('SELECT * FROM push_subscriptions WHERE endpoint = ?');

export const PUSH_SUBSCRIPTIONS_OF = both('SELECT * FROM push_subscriptions WHERE uid = ? ORDER BY created_at, endpoint');

export const DELETE_PUSH_SUBSCRIPTION = both('DELETE FROM push_subscriptions WHERE endpoint = ?');

/** A device's queued pushes go with it (removed, or moved to another user). */
export const DELETE_PUSH_QUEUE_OF_ENDPOINT = both('DELETE FROM push_queue WHERE endpoint = ?');

/** One queued push per device of the recipient; a notification queued twice stays one row per device. */
export const ENQUEUE_PUSH = both(`
  INSERT INTO push_queue (notification_id, endpoint, uid, attempts, due_at)
  SELECT @id, endpoint, uid, 0, @due FROM push_subscriptions WHERE uid = @uid
  ON CONFLICT (notification_id, endpoint) DO NOTHING
`);

/**
 * Claims due rows nobody holds (or whose holder's claim ran out) until @until. The outer condition is
 * checked again on the claimed row itself, so two processes racing for one row never both get it.
 */
export const CLAIM_PUSHES = both(`
  UPDATE push_queue SET claimed_until = @until
  WHERE (notification_id, endpoint) IN (
    SELECT notification_id, endpoint FROM push_queue
    WHERE due_at <= @now AND (claimed_until IS NULL OR claimed_until < @now)
    ORDER BY due_at, notification_id, endpoint LIMIT @limit
  ) AND (claimed_until IS NULL OR claimed_until < @now)
  RETURNING notification_id, endpoint, uid, attempts, due_at, claimed_until
`);

export const DELETE_PUSH = both('DELETE FROM push_queue WHERE notification_id = ? AND endpoint = ?');

export const PUSH_DELIVERED = both('UPDATE push_subscriptions SET last_success_at = ? WHERE endpoint = ?');

export const RETRY_PUSH = both(
  'UPDATE push_queue SET attempts = ?, due_at = ?, claimed_until = NULL WHERE notification_id = ? AND endpoint = ?',
);

/** When the sender should look again: the earliest due row nobody holds, or the earliest claim to run out. */
export const NEXT_PUSH_DUE = both(`
  SELECT min(CASE WHEN claimed_until IS NULL OR claimed_until < due_at THEN due_at ELSE claimed_until END) AS at FROM push_queue
`);

export const PUSH_QUEUE_DEPTH = both('SELECT count(*) AS n FROM push_queue');

// Follows

const FOLLOW_COLUMNS = `
  SELECT f.uid, f.topic_id, f.following, f.updated_at, f.seq, CASE WHEN t.deleted = 0 THEN t.title END AS title
  FROM topic_follows f LEFT JOIN topics t ON t.id = f.topic_id`;

/** Follows or unfollows (following = 0): one row per user and topic, so the change replicates. */
export const SET_FOLLOW = both(`
  INSERT INTO topic_follows (uid, topic_id, following, updated_at, seq) VALUES (?, ?, ?, ?, ?)
  ON CONFLICT (uid, topic_id) DO UPDATE SET following = excluded.following, updated_at = excluded.updated_at, seq = excluded.seq
`);

/** Auto-follow: only where the user never said either way (an explicit unfollow stays). */
export const FOLLOW_IF_NEW = both(`
  INSERT INTO topic_follows (uid, topic_id, following, updated_at, seq) VALUES (?, ?, 1, ?, ?)
  ON CONFLICT (uid, topic_id) DO NOTHING
`);

export const GET_FOLLOW = both(`${FOLLOW_COLUMNS} WHERE f.uid = ? AND f.topic_id = ?`);

export const LIST_FOLLOWS = both(`${FOLLOW_COLUMNS}
  WHERE f.uid = ? AND f.following = 1 AND t.deleted = 0 ORDER BY f.updated_at DESC, f.topic_id`);

/** The user's rows after a (seq, topic_id) checkpoint: the index topic_follows_uid_seq answers it. */
export const FOLLOW_CHANGES = both(`${FOLLOW_COLUMNS}
  WHERE f.uid = ? AND (f.seq > ? OR (f.seq = ? AND f.topic_id > ?)) ORDER BY f.seq, f.topic_id LIMIT ?`);

/**
 * The followers a new root response notifies, by uid: not the author, not the topic's author (a root
 * response notifies them as such, under that notification's own limits), not someone the response
 * already notified (a mention), not someone who blocked the author, and not past @per_hour of these
 * for that follower and topic since @since. One statement whatever their number.
 */
export const FOLLOWERS_TO_NOTIFY = both(`
  SELECT f.uid FROM topic_follows f
  WHERE f.topic_id = @topic AND f.following = 1 AND f.uid <> @actor AND f.uid <> @creator
    AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.response_id = @response AND n.recipient_uid = f.uid AND n.deleted = 0)
    AND NOT EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_uid = f.uid AND b.blocked_uid = @actor AND b.blocked = 1)
    AND (SELECT count(*) FROM notifications n
         WHERE n.recipient_uid = f.uid AND n.target_id = @topic AND n.type = 'reply_in_followed_topic'
           AND n.created_at > @since AND n.deleted = 0) < @per_hour
  ORDER BY f.uid
`);

/**
 * Their notifications in one statement: the ids and uids travel as one JSON array of [id, uid] pairs
 * (SQLite's json_each) or two arrays (PostgreSQL's unnest), so 1,000 followers are one round trip.
 */
const FOLLOWER_NOTIFICATION_COLUMNS = `INSERT INTO notifications (id, recipient_uid, type, actor_uid, target_summary, target_id, response_id, created_at, seq)`;
export const INSERT_FOLLOWER_NOTIFICATIONS = {
  sqlite: `${FOLLOWER_NOTIFICATION_COLUMNS}
    SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), 'reply_in_followed_topic', @actor, @summary, @topic, @response, @now, @seq
    FROM json_each(@pairs)`,
  pg: `${FOLLOWER_NOTIFICATION_COLUMNS}
    SELECT pair.id, pair.uid, 'reply_in_followed_topic', $3, $4, $5, $6, $7, $8
    FROM unnest($1::text[], $2::text[]) AS pair (id, uid)`,
};

/** Queues the push of each followed-topic notification about the response to each device of its recipient. */
export const ENQUEUE_FOLLOWER_PUSHES = both(`
  INSERT INTO push_queue (notification_id, endpoint, uid, attempts, due_at)
  SELECT n.id, s.endpoint, s.uid, 0, @due
  FROM notifications n JOIN push_subscriptions s ON s.uid = n.recipient_uid
  WHERE n.response_id = @response AND n.type = 'reply_in_followed_topic' AND n.deleted = 0
  ON CONFLICT (notification_id, endpoint) DO NOTHING
`);

// Deleted accounts (domain/account.ts)

/** The live votes a user cast: taken back one by one so every count they moved moves back. */
export const LIVE_VOTES_BY = both('SELECT * FROM votes WHERE voter_uid = ? AND deleted = 0');
/** The topics a user took a stance on, and the Δ credits they gave: recounted once the rows go. */
export const STANCE_TOPICS_BY = both('SELECT topic_id FROM stances WHERE uid = ?');
export const CREDITS_GIVEN_BY = both('SELECT DISTINCT response_id, topic_id, author_uid FROM deltas WHERE uid = ?');
/** The user's live topics and responses, as the deletion blanks or restamps them. */
export const LIVE_TOPICS_BY = both('SELECT id FROM topics WHERE creator_uid = ? AND deleted = 0');
export const LIVE_RESPONSES_BY = both('SELECT id, topic_id FROM responses WHERE creator_uid = ? AND deleted = 0');
/** Notifications the user caused carry their name (joined at read time): a new seq, so recipients pull the new one. */
export const RESTAMP_NOTIFICATIONS_BY = both('UPDATE notifications SET seq = ? WHERE actor_uid = ? RETURNING recipient_uid');
/** The moderators' copies of the user's removed or hidden texts: erased with the texts. */
export const DROP_ORIGINALS_OF = both(`
  DELETE FROM moderated_originals
  WHERE (target_type = 'topic' AND target_id IN (SELECT id FROM topics WHERE creator_uid = ?))
     OR (target_type = 'response' AND target_id IN (SELECT id FROM responses WHERE creator_uid = ?))`);
/** The earlier versions of the user's responses (edit history): erased with the texts. */
export const DROP_VERSIONS_OF = both('DELETE FROM response_versions WHERE response_id IN (SELECT id FROM responses WHERE creator_uid = ?)');
/**
 * Everything that is the user's own and nobody else reads: their votes (after LIVE_VOTES_BY moved
 * the counts back), stances and Δ credits given, follows, blocks, reports, devices for push, the
 * notifications to them and the weekly mail's records of them. Each takes the uid once.
 */
export const DELETE_OWN_ROWS = [
  'DELETE FROM votes WHERE voter_uid = ?',
  'DELETE FROM deltas WHERE uid = ?',
  'DELETE FROM stances WHERE uid = ?',
  'DELETE FROM topic_follows WHERE uid = ?',
  'DELETE FROM blocks WHERE blocker_uid = ?',
  'DELETE FROM reports WHERE reporter_uid = ?',
  'DELETE FROM push_queue WHERE uid = ?',
  'DELETE FROM push_subscriptions WHERE uid = ?',
  'DELETE FROM notifications WHERE recipient_uid = ?',
  'DELETE FROM mail_sends WHERE uid = ?',
  'DELETE FROM mail_points WHERE uid = ?',
  'DELETE FROM mail_common_ground WHERE uid = ?',
].map(both);
/** The push settings of an account that never changed them, as setPushSettings stores settings (canonical JSON). */
export const DEFAULT_PUSH_SETTINGS_JSON = JSON.stringify(normalizePushSettings(DEFAULT_PUSH_SETTINGS));
/**
 * The stub a deleted account leaves: no e-mail, no own name (the fixed label every read joins as
 * the author's name), no points, no mail, no role, no suspension or its reason, and the push
 * preferences back to the defaults (quiet hours name the person's time zone); deleted_at set.
 */
export const STUB_USER = both(`
  UPDATE users SET display_name = ?, email = NULL, email_verified = 0, receive_weekly_summary = 0,
    weekly_summary_since = NULL, points = 0, persuasion_points = 0, role = 'member',
    suspended_until = NULL, suspension_reason = NULL, push_settings = ?, deleted_at = ?, seq = ?
  WHERE uid = ?`);
