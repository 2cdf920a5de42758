-- 005: where people stand. Forward-only.
-- `stances`: one row per user and topic, private to its owner (replicated to them alone by seq).
--   history: JSON [{stance, at}] oldest first; credits: JSON list of the response ids credited with Δ
--   for the latest change of stance (the counted rows are in `deltas`).
-- `deltas`: one row per Δ given: who credited which response for which change of their stance
--   (change_no = history length − 1 at the time). Rows of earlier changes stay; a response's
--   delta_count and its author's persuasion points are recounted from them.
-- votes.stance: the voter's stance on the topic when the vote was cast (null: none), so a later
--   change of mind never moves old votes between the sides (common ground).

CREATE TABLE stances (
  uid          TEXT NOT NULL REFERENCES users (uid),
  topic_id     TEXT NOT NULL REFERENCES topics (id),
  stance       TEXT NOT NULL CHECK (stance IN ('agree', 'disagree', 'unsure')),
  first_stance TEXT NOT NULL CHECK (first_stance IN ('agree', 'disagree', 'unsure')),
  history      TEXT NOT NULL,
  credits      TEXT NOT NULL DEFAULT '[]',
  updated_at   TEXT NOT NULL,
  seq          INTEGER NOT NULL,
  PRIMARY KEY (uid, topic_id)
);
-- The owner's pull, by (seq, topic_id).
CREATE INDEX stances_owner_seq ON stances (uid, seq, topic_id);
-- The topic's counters, recounted from the index alone.
CREATE INDEX stances_topic ON stances (topic_id, stance, first_stance);

CREATE TABLE deltas (
  uid         TEXT NOT NULL REFERENCES users (uid),
  topic_id    TEXT NOT NULL,
  change_no   INTEGER NOT NULL,
  response_id TEXT NOT NULL REFERENCES responses (id),
  author_uid  TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  PRIMARY KEY (uid, topic_id, change_no, response_id)
);
CREATE INDEX deltas_response ON deltas (response_id);
CREATE INDEX deltas_author ON deltas (author_uid, response_id);

ALTER TABLE votes ADD COLUMN stance TEXT CHECK (stance IN ('agree', 'disagree', 'unsure'));

ALTER TABLE topics ADD COLUMN stance_agree INTEGER NOT NULL DEFAULT 0;
ALTER TABLE topics ADD COLUMN stance_disagree INTEGER NOT NULL DEFAULT 0;
ALTER TABLE topics ADD COLUMN stance_unsure INTEGER NOT NULL DEFAULT 0;
ALTER TABLE topics ADD COLUMN minds_changed INTEGER NOT NULL DEFAULT 0;

ALTER TABLE responses ADD COLUMN delta_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE responses ADD COLUMN upvotes_agree INTEGER NOT NULL DEFAULT 0;
ALTER TABLE responses ADD COLUMN upvotes_disagree INTEGER NOT NULL DEFAULT 0;

ALTER TABLE users ADD COLUMN persuasion_points INTEGER NOT NULL DEFAULT 0;
