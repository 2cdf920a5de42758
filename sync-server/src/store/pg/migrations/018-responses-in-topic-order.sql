-- 018 (SQLite's 022-responses-in-topic-order.sql says why): a topic's responses in their order with the
-- parent, for a page of mappings read from the index without sorting the topic; it takes the place of
-- responses_topic_root, whose roots-only order a roots page now walks in this one.
CREATE INDEX IF NOT EXISTS responses_topic_order ON responses (topic_id, created_at, id, parent_response_id) WHERE deleted = 0;
DROP INDEX IF EXISTS responses_topic_root;
