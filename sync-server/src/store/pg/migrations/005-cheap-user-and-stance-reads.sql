-- 005: a user's page and a topic's stance totals in O(1) of the user's or topic's size:
-- SQLite's store/sqlite/migrations/009-cheap-user-and-stance-reads.sql, which says what each column
-- and index is for. Idempotent: every statement recomputes from the rows.

ALTER TABLE topics ADD COLUMN IF NOT EXISTS responses_for integer NOT NULL DEFAULT 0;
ALTER TABLE topics ADD COLUMN IF NOT EXISTS responses_against integer NOT NULL DEFAULT 0;
ALTER TABLE topics ADD COLUMN IF NOT EXISTS responses_neutral integer NOT NULL DEFAULT 0;

UPDATE topics SET
  responses_for = (SELECT count(*) FROM responses r WHERE r.topic_id = topics.id AND r.deleted = 0 AND r.type = 'for'),
  responses_against = (SELECT count(*) FROM responses r WHERE r.topic_id = topics.id AND r.deleted = 0 AND r.type = 'against'),
  responses_neutral = (SELECT count(*) FROM responses r WHERE r.topic_id = topics.id AND r.deleted = 0 AND r.type = 'neutral');

CREATE INDEX IF NOT EXISTS responses_creator_new ON responses (creator_uid, created_at DESC, id DESC) WHERE deleted = 0;
CREATE INDEX IF NOT EXISTS topics_creator_new ON topics (creator_uid, created_at DESC, id DESC) WHERE deleted = 0;
