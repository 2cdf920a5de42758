-- 006 (SQLite's 010): moderation. The same columns, tables and indexes as SQLite's, in
-- the same order; see sync-server/src/store/sqlite/migrations/010-moderation.sql for what each holds.

ALTER TABLE users ADD COLUMN role text COLLATE "C" NOT NULL DEFAULT 'member' CHECK (role IN ('member', 'moderator', 'admin'));
ALTER TABLE users ADD COLUMN suspended_until text COLLATE "C";
ALTER TABLE users ADD COLUMN suspension_reason text COLLATE "C";

ALTER TABLE topics ADD COLUMN locked integer NOT NULL DEFAULT 0;
ALTER TABLE topics ADD COLUMN moderation text COLLATE "C" CHECK (moderation IN ('removed', 'hidden'));
ALTER TABLE topics ADD COLUMN moderation_reason text COLLATE "C";
ALTER TABLE responses ADD COLUMN moderation text COLLATE "C" CHECK (moderation IN ('removed', 'hidden'));
ALTER TABLE responses ADD COLUMN moderation_reason text COLLATE "C";

CREATE INDEX topics_creator_time ON topics (creator_uid, created_at);
CREATE INDEX responses_creator_time ON responses (creator_uid, created_at);

CREATE TABLE moderated_originals (
  target_type        text COLLATE "C" NOT NULL CHECK (target_type IN ('topic', 'response')),
  target_id          text COLLATE "C" NOT NULL,
  text               text COLLATE "C" NOT NULL,
  quoted_response_id text COLLATE "C",
  sources            text COLLATE "C" NOT NULL DEFAULT '[]',
  PRIMARY KEY (target_type, target_id)
);

CREATE TABLE reports (
  reporter_uid      text COLLATE "C" NOT NULL REFERENCES users (uid),
  target_type       text COLLATE "C" NOT NULL CHECK (target_type IN ('topic', 'response', 'user')),
  target_id         text COLLATE "C" NOT NULL,
  target_author_uid text COLLATE "C" NOT NULL,
  reason            text COLLATE "C" NOT NULL CHECK (reason IN ('spam', 'harassment', 'hate', 'misinformation', 'off-topic', 'other')),
  note              text COLLATE "C",
  status            text COLLATE "C" NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'handled')),
  created_at        text COLLATE "C" NOT NULL,
  updated_at        text COLLATE "C" NOT NULL,
  seq               bigint NOT NULL,
  PRIMARY KEY (reporter_uid, target_type, target_id)
);
CREATE INDEX reports_reporter_seq ON reports (reporter_uid, seq, target_type, target_id);
CREATE INDEX reports_target ON reports (target_type, target_id, status);
CREATE INDEX reports_status ON reports (status, target_type, target_id);

CREATE TABLE blocks (
  blocker_uid text COLLATE "C" NOT NULL REFERENCES users (uid),
  blocked_uid text COLLATE "C" NOT NULL,
  blocked     integer NOT NULL DEFAULT 1,
  updated_at  text COLLATE "C" NOT NULL,
  seq         bigint NOT NULL,
  PRIMARY KEY (blocker_uid, blocked_uid)
);
CREATE INDEX blocks_blocker_seq ON blocks (blocker_uid, seq, blocked_uid);

CREATE TABLE moderation_log (
  pk            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id            text COLLATE "C" NOT NULL UNIQUE,
  moderator_uid text COLLATE "C",
  action        text COLLATE "C" NOT NULL,
  target_type   text COLLATE "C" NOT NULL,
  target_id     text COLLATE "C" NOT NULL,
  reason        text COLLATE "C" NOT NULL,
  days          integer,
  created_at    text COLLATE "C" NOT NULL
);
CREATE INDEX moderation_log_time ON moderation_log (created_at DESC, pk DESC);

ALTER TABLE notifications DROP CONSTRAINT notifications_type_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_type_check
  CHECK (type IN ('reply_to_topic', 'reply_to_comment', 'moderation_removed', 'moderation_restored'));
