-- 013: following topics and @mentions. Forward-only; PostgreSQL: store/pg/migrations/009-follows-and-mentions.sql.
-- topic_follows: who follows which topic. `following = 0` keeps an explicit "Unfollow", so replying
--   again does not follow the topic behind the user's back (auto-follow only acts where no row exists).
-- notifications.type gains 'mention' and 'reply_in_followed_topic'; SQLite cannot change a CHECK,
--   so the table is rebuilt with the same rows (as 010 did).
-- notifications_recipient_topic: the per-topic, per-hour limit on followed-topic notifications.
-- users_display_name_nocase: an @mention is looked up by the name written after the "@".

CREATE TABLE topic_follows (
  uid        TEXT NOT NULL REFERENCES users (uid),
  topic_id   TEXT NOT NULL,
  following  INTEGER NOT NULL,
  updated_at TEXT NOT NULL,
  seq        INTEGER NOT NULL,
  PRIMARY KEY (uid, topic_id)
);
CREATE INDEX topic_follows_topic ON topic_follows (topic_id) WHERE following = 1;
CREATE INDEX topic_follows_uid_seq ON topic_follows (uid, seq, topic_id);

CREATE TABLE notifications_new (
  id               TEXT PRIMARY KEY,
  recipient_uid    TEXT NOT NULL REFERENCES users (uid),
  type             TEXT NOT NULL CHECK (type IN ('reply_to_topic', 'reply_to_comment', 'moderation_removed', 'moderation_restored', 'mention', 'reply_in_followed_topic')),
  actor_uid        TEXT NOT NULL REFERENCES users (uid),
  target_summary   TEXT NOT NULL,
  target_id        TEXT NOT NULL,
  response_id      TEXT NOT NULL,
  created_at       TEXT NOT NULL,
  is_read          INTEGER NOT NULL DEFAULT 0,
  deleted          INTEGER NOT NULL DEFAULT 0,
  seq              INTEGER NOT NULL,
  response_deleted INTEGER NOT NULL DEFAULT 0
);
INSERT INTO notifications_new (id, recipient_uid, type, actor_uid, target_summary, target_id, response_id, created_at, is_read, deleted, seq, response_deleted)
  SELECT id, recipient_uid, type, actor_uid, target_summary, target_id, response_id, created_at, is_read, deleted, seq, response_deleted FROM notifications;
DROP TABLE notifications;
ALTER TABLE notifications_new RENAME TO notifications;
CREATE INDEX notifications_recipient ON notifications (recipient_uid, created_at DESC) WHERE deleted = 0;
CREATE INDEX notifications_recipient_seq ON notifications (recipient_uid, seq);
CREATE INDEX notifications_topic ON notifications (target_id);
CREATE INDEX notifications_response ON notifications (response_id) WHERE deleted = 0;
CREATE INDEX notifications_recipient_topic ON notifications (recipient_uid, target_id, type, created_at) WHERE deleted = 0;

CREATE INDEX users_display_name_nocase ON users (display_name COLLATE NOCASE);
