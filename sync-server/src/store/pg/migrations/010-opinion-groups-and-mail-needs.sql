-- 010 (SQLite's 014).
-- topics.opinion_groups (the opinion groups summary as JSON) and mail_common_ground (each weekly
-- run's count of common-ground responses of a recipient's side per topic). See
-- sync-server/src/store/sqlite/migrations/014-opinion-groups-and-mail-needs.sql.

ALTER TABLE topics ADD COLUMN IF NOT EXISTS opinion_groups text COLLATE "C";

CREATE TABLE IF NOT EXISTS mail_common_ground (
  run_id   text COLLATE "C" NOT NULL REFERENCES mail_runs (id),
  uid      text COLLATE "C" NOT NULL,
  topic_id text COLLATE "C" NOT NULL,
  common   integer NOT NULL,
  PRIMARY KEY (run_id, uid, topic_id)
);
CREATE INDEX IF NOT EXISTS mail_common_ground_uid ON mail_common_ground (uid, topic_id);
