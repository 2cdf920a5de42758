-- 009: a user's page and a topic's stance totals in O(1) of the user's or topic's size.
-- Forward-only; PostgreSQL: store/pg/migrations/005-cheap-user-and-stance-reads.sql.
-- topics.responses_for / responses_against / responses_neutral: the topic's live responses of each
--   type, maintained with responses_count in the transaction that creates or deletes a response
--   (store topics.addToCounts), so GET /api/topics/{id}/stances no longer counts the topic's responses.
-- responses_creator_new, topics_creator_new: a user's live responses and topics newest first, so the
--   user page's latest 50 of each are an index range scan instead of a sort of everything they wrote.
-- Existing rows are recounted; running it again changes nothing (idempotent statements).

ALTER TABLE topics ADD COLUMN responses_for INTEGER NOT NULL DEFAULT 0;
ALTER TABLE topics ADD COLUMN responses_against INTEGER NOT NULL DEFAULT 0;
ALTER TABLE topics ADD COLUMN responses_neutral INTEGER NOT NULL DEFAULT 0;

UPDATE topics SET
  responses_for = (SELECT count(*) FROM responses r WHERE r.topic_id = topics.id AND r.deleted = 0 AND r.type = 'for'),
  responses_against = (SELECT count(*) FROM responses r WHERE r.topic_id = topics.id AND r.deleted = 0 AND r.type = 'against'),
  responses_neutral = (SELECT count(*) FROM responses r WHERE r.topic_id = topics.id AND r.deleted = 0 AND r.type = 'neutral');

CREATE INDEX IF NOT EXISTS responses_creator_new ON responses (creator_uid, created_at DESC, id DESC) WHERE deleted = 0;
CREATE INDEX IF NOT EXISTS topics_creator_new ON topics (creator_uid, created_at DESC, id DESC) WHERE deleted = 0;
