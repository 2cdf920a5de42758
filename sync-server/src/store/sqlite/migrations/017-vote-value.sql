-- 017 (agree, disagree and pass on every response; PostgreSQL: store/pg/migrations/013-vote-value.sql).
-- A vote now says which way: 1 agree (the upvote every row so far was), -1 disagree, 0 pass (read,
-- no opinion). One row per voter and target as before; deleted = 1 still means "no vote". Score,
-- points, the upvotes by side and user_has_upvoted count agree votes only (value = 1), so existing
-- rows, all migrated to agree, keep every count they had.
ALTER TABLE votes ADD COLUMN value INTEGER NOT NULL DEFAULT 1 CHECK (value IN (1, -1, 0));
