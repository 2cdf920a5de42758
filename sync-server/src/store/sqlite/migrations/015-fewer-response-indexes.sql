-- 015 (the write budgets of docs/BENCHMARKS.md; PostgreSQL: store/pg/migrations/011-fewer-response-indexes.sql).
-- Three indexes on responses that every create wrote (and every vote or reply that restamps a
-- response's seq rewrote) and no query needs.
-- responses_topic (topic_id) WHERE deleted = 0: responses_topic_seq (topic_id, seq, id) begins with
--   topic_id. A create on a random topic wrote a leaf of each, so one less random page per COMMIT.
-- responses_creator (creator_uid): responses_creator_time (creator_uid, created_at) begins with it.
-- responses_seq (seq, id): no statement reads responses by seq across topics (a pull is per topic,
--   by responses_topic_seq).
-- Every statement that used one of the first two now uses the longer index (tests/sync-server/query-plans.test.ts
-- "migration 015" compares the plans of every statement the store prepares before and after).
DROP INDEX IF EXISTS responses_topic;
DROP INDEX IF EXISTS responses_creator;
DROP INDEX IF EXISTS responses_seq;
