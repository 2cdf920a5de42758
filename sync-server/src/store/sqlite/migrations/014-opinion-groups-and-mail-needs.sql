-- 014 (PostgreSQL: store/pg/migrations/010-opinion-groups-and-mail-needs.sql).
-- topics.opinion_groups: the topic's opinion groups summary as JSON (shared/rules/opinion-groups.ts
--   OpinionGroupsSummary): group sizes and the shares of each group that upvoted a response, never
--   who is in a group. NULL until the grouping job (domain/opinion-groups.ts) first looks at it.
-- mail_common_ground: for each weekly run, how many responses of each recipient's side were common
--   ground on each topic where they took a side, so the next week's mail can name the topics where
--   their side lost common ground (mail/needs.ts).
-- PostgreSQL: store/pg/migrations/010-opinion-groups-and-mail-needs.sql.

ALTER TABLE topics ADD COLUMN opinion_groups TEXT;

CREATE TABLE mail_common_ground (
  run_id   TEXT NOT NULL REFERENCES mail_runs (id),
  uid      TEXT NOT NULL,
  topic_id TEXT NOT NULL,
  common   INTEGER NOT NULL,
  PRIMARY KEY (run_id, uid, topic_id)
);
CREATE INDEX mail_common_ground_uid ON mail_common_ground (uid, topic_id);
