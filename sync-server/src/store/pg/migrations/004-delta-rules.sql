-- 004: Δ worth what it claims: SQLite's store/sqlite/migrations/008-delta-rules.sql, which
-- says what each column means and how existing rows are decided. Idempotent: every statement
-- recomputes from the rows.

ALTER TABLE stances ADD COLUMN IF NOT EXISTS credit_from integer NOT NULL DEFAULT 1;
ALTER TABLE deltas ADD COLUMN IF NOT EXISTS counts integer NOT NULL DEFAULT 1;

UPDATE stances SET credit_from = CASE
  WHEN jsonb_array_length(history::jsonb) >= 2 AND (history::jsonb -> 0 ->> 'at') = (history::jsonb -> 1 ->> 'at') THEN 2
  ELSE 1 END;

UPDATE deltas SET counts = CASE WHEN
  deltas.change_no >= (SELECT s.credit_from FROM stances s WHERE s.uid = deltas.uid AND s.topic_id = deltas.topic_id)
  AND (SELECT r.created_at FROM responses r WHERE r.id = deltas.response_id)
      <= (SELECT s.history::jsonb -> deltas.change_no ->> 'at' FROM stances s WHERE s.uid = deltas.uid AND s.topic_id = deltas.topic_id)
  AND EXISTS (
    SELECT 1 FROM users u WHERE u.uid = deltas.uid AND u.points >= 5
      AND to_char((u.created_at::timestamptz + interval '3 days') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') <= deltas.created_at
  )
  THEN 1 ELSE 0 END;

WITH counted AS (
  SELECT u.uid, 5 * (
    SELECT count(*) FROM (
      SELECT DISTINCT d.uid, d.topic_id FROM deltas d JOIN responses r ON r.id = d.response_id
      WHERE d.author_uid = u.uid AND d.uid <> d.author_uid AND d.counts = 1 AND r.deleted = 0
    ) AS received
  )::integer AS persuasion
  FROM users u
), moved AS (
  SELECT counted.uid, counted.persuasion FROM counted JOIN users u ON u.uid = counted.uid WHERE u.persuasion_points <> counted.persuasion
)
UPDATE users SET
  points = users.points - users.persuasion_points + moved.persuasion,
  persuasion_points = moved.persuasion,
  seq = crux_next_seq()
FROM moved WHERE users.uid = moved.uid;
