-- 011 (the write budgets of docs/BENCHMARKS.md; SQLite's 015-fewer-response-indexes.sql says why).
-- responses_topic (topic_id) WHERE deleted = 0 is served by responses_topic_seq (topic_id, seq, id),
-- responses_creator (creator_uid) by responses_creator_time (creator_uid, created_at), and
-- responses_seq (seq, id) by nothing (no statement reads responses by seq across topics): fewer index
-- entries written per create, vote and reply.
DROP INDEX IF EXISTS responses_topic;
DROP INDEX IF EXISTS responses_creator;
DROP INDEX IF EXISTS responses_seq;
