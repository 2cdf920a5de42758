-- 008: Δ worth what it claims. Forward-only; PostgreSQL: store/pg/migrations/004-delta-rules.sql.
-- stances.credit_from: the first change (history index) that may earn Δ credits: 1, or 2 when the
--   stance was first recorded with a device's offline "before" the server never saw (that change is
--   shown, but opens no credit window). Written once, with the row.
-- deltas.counts: 1 when the credit counts toward its author's persuasion points: given for a change
--   the server recorded, for a response written before that change, by a creditor with standing
--   (shared/rules/standing.ts) at the time; else 0. Every credit still counts in a response's Δ count.
-- Then each author's persuasion points (and points) are recounted once: one per creditor and topic
-- (store/sql.ts COUNTED_DELTAS), and the profiles that moved get a new seq so they replicate.
-- Existing rows, decided from what is stored: a first record with an offline "before" is a history
-- whose first two entries share their time; standing uses the creditor's first-seen time
-- (users.created_at) against the credit's time, and their points now (past points are not kept).
-- The amounts are shared/rules/standing.ts's as of this migration: 3 days, 5 points; 5 points per Δ.
-- Every statement recomputes from the rows, so running it again changes nothing (idempotent).

ALTER TABLE stances ADD COLUMN credit_from INTEGER NOT NULL DEFAULT 1;
ALTER TABLE deltas ADD COLUMN counts INTEGER NOT NULL DEFAULT 1;

UPDATE stances SET credit_from = CASE
  WHEN json_array_length(history) >= 2 AND json_extract(history, '$[0].at') = json_extract(history, '$[1].at') THEN 2
  ELSE 1 END;

UPDATE deltas SET counts = CASE WHEN
  deltas.change_no >= (SELECT s.credit_from FROM stances s WHERE s.uid = deltas.uid AND s.topic_id = deltas.topic_id)
  AND (SELECT r.created_at FROM responses r WHERE r.id = deltas.response_id)
      <= (SELECT json_extract(s.history, '$[' || deltas.change_no || '].at') FROM stances s WHERE s.uid = deltas.uid AND s.topic_id = deltas.topic_id)
  AND EXISTS (
    SELECT 1 FROM users u WHERE u.uid = deltas.uid AND u.points >= 5
      AND strftime('%Y-%m-%dT%H:%M:%fZ', u.created_at, '+3 days') <= deltas.created_at
  )
  THEN 1 ELSE 0 END;

UPDATE users SET
  points = points - persuasion_points + 5 * (
    SELECT count(*) FROM (
      SELECT DISTINCT d.uid, d.topic_id FROM deltas d JOIN responses r ON r.id = d.response_id
      WHERE d.author_uid = users.uid AND d.uid <> d.author_uid AND d.counts = 1 AND r.deleted = 0
    )
  ),
  persuasion_points = 5 * (
    SELECT count(*) FROM (
      SELECT DISTINCT d.uid, d.topic_id FROM deltas d JOIN responses r ON r.id = d.response_id
      WHERE d.author_uid = users.uid AND d.uid <> d.author_uid AND d.counts = 1 AND r.deleted = 0
    )
  ),
  seq = (SELECT value + 1 FROM meta WHERE key = 'seq')
WHERE persuasion_points <> 5 * (
  SELECT count(*) FROM (
    SELECT DISTINCT d.uid, d.topic_id FROM deltas d JOIN responses r ON r.id = d.response_id
    WHERE d.author_uid = users.uid AND d.uid <> d.author_uid AND d.counts = 1 AND r.deleted = 0
  )
);
-- The seq the profiles above were stamped with, when any moved.
UPDATE meta SET value = value + 1 WHERE key = 'seq' AND EXISTS (SELECT 1 FROM users WHERE seq = meta.value + 1);
