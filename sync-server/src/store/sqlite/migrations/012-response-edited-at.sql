-- 012: when a response's author last changed what it says (content, quote or sources).
-- updated_at cannot tell: votes, counters and moderation restamp it too. NULL: never edited, which is
-- what every existing row reads (no past edit can be told apart from a vote now).
-- PostgreSQL: store/pg/migrations/008-response-edited-at.sql.

ALTER TABLE responses ADD COLUMN edited_at TEXT;
