-- 016 (speed as users get it; PostgreSQL: store/pg/migrations/012-votes-by-time.sql).
-- At every start the opinion-groups job asks which topics had response votes in the last day
-- (TOPICS_VOTED_SINCE, domain/opinion-groups.ts), so that a change heard by the process before is not
-- lost. No index held the votes' time: the statement read every vote, 2.8-3.1 s of the event loop at
-- the start of a server with 2,000,000 votes, while it answered nobody. This index of the responses'
-- votes by time makes it a range over the last day's.
CREATE INDEX IF NOT EXISTS votes_response_updated ON votes (updated_at) WHERE target_type = 'response';
