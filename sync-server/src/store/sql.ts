// Statements both engines run as written (issue 22): SQLite's text with `?` parameters in order,
// and the same text with them numbered $1, $2, … for PostgreSQL. The rest differ (named parameters,
// casts, FTS5 against tsquery, upserts) or are one line, clearer beside their call.

/** The statement for each engine. */
function both(sqlite: string): { sqlite: string; pg: string } {
  let n = 0;
  return { sqlite, pg: sqlite.replace(/\?/g, () => `$${++n}`) };
}

// Sources

/**
 * The catalogue's suggested name and description of one source (bound: its id): the one given by
 * the most distinct authors among live citations, ties to the earliest; unchanged when no live
 * citation names it.
 */
export const SUGGEST_SOURCE_NAME = both(`
  UPDATE sources SET
    name = coalesce((
      SELECT rs.name FROM response_sources rs JOIN responses r ON r.id = rs.response_id
      WHERE rs.source_id = sources.id AND rs.name IS NOT NULL AND r.deleted = 0
      GROUP BY rs.name ORDER BY count(DISTINCT r.creator_uid) DESC, min(r.created_at), rs.name LIMIT 1), name),
    description = coalesce((
      SELECT rs.description FROM response_sources rs JOIN responses r ON r.id = rs.response_id
      WHERE rs.source_id = sources.id AND rs.description IS NOT NULL AND r.deleted = 0
      GROUP BY rs.description ORDER BY count(DISTINCT r.creator_uid) DESC, min(r.created_at), rs.description LIMIT 1), description)
  WHERE id = ?
`);

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

// Topics

/** A topic's stance counters (issue 13), recounted from its stances (an index-only scan). */
export const STANCE_COUNTS = both(`
  SELECT count(*) FILTER (WHERE stance = 'agree') AS stance_agree,
         count(*) FILTER (WHERE stance = 'disagree') AS stance_disagree,
         count(*) FILTER (WHERE stance = 'unsure') AS stance_unsure,
         count(*) FILTER (WHERE stance <> first_stance) AS minds_changed
  FROM stances WHERE topic_id = ?
`);

// Users

/** Points: live upvotes by others on the user's items, plus the persuasion points. */
export const RECOUNT_POINTS = both(`
  UPDATE users SET points = (
    SELECT count(*) FROM votes
    WHERE target_creator_uid = users.uid AND voter_uid <> users.uid AND deleted = 0
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

// Notifications

/** The flood cap: live notifications one actor gave one recipient since a time. */
export const NOTIFICATIONS_FROM = both(
  'SELECT count(*) AS n FROM notifications WHERE recipient_uid = ? AND actor_uid = ? AND created_at >= ? AND deleted = 0',
);

// The weekly summary

/** Users with the weekly summary on and an e-mail address, by uid. */
export const MAIL_RECIPIENTS = both(
  "SELECT uid, display_name, email FROM users WHERE receive_weekly_summary = 1 AND email IS NOT NULL AND trim(email) <> '' ORDER BY uid",
);

/** The user's points snapshot of the latest run whose period ended before a time. */
export const PREVIOUS_SNAPSHOT = both(`
  SELECT p.points, p.rank FROM mail_points p JOIN mail_runs r ON r.id = p.run_id
  WHERE p.uid = ? AND r.period_end < ? ORDER BY r.period_end DESC LIMIT 1
`);
