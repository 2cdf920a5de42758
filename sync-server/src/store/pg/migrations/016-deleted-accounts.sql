-- 016: an account its owner deleted (SQLite's 020-deleted-accounts.sql says why).
ALTER TABLE users ADD COLUMN IF NOT EXISTS deleted_at text COLLATE "C";
