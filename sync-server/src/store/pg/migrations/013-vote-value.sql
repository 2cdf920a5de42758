-- 013 (agree, disagree and pass; SQLite's 017-vote-value.sql says why).
-- votes.value: 1 agree (every existing row, an upvote), -1 disagree, 0 pass; deleted = 1 is still "no vote".
ALTER TABLE votes ADD COLUMN value integer NOT NULL DEFAULT 1 CHECK (value IN (1, -1, 0));
