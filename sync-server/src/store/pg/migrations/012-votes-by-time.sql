-- 012 (speed as users get it; SQLite's 016-votes-by-time.sql says why).
-- The opinion-groups job's start reads the topics whose response votes changed in the last day: an
-- index of the responses' votes by time, so that read is a range, not every vote.
CREATE INDEX IF NOT EXISTS votes_response_updated ON votes (updated_at) WHERE target_type = 'response';
