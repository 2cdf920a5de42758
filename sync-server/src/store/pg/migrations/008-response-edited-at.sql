-- 008 (SQLite's 012): responses.edited_at, when the author last changed the content, quote
-- or sources (NULL: never). See sync-server/src/store/sqlite/migrations/012-response-edited-at.sql.

ALTER TABLE responses ADD COLUMN IF NOT EXISTS edited_at text COLLATE "C";
