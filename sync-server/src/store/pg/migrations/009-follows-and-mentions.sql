-- 009 (SQLite's 013): following topics and @mentions. See
-- sync-server/src/store/sqlite/migrations/013-follows-and-mentions.sql for what each part is for.

CREATE TABLE IF NOT EXISTS topic_follows (
  uid        text COLLATE "C" NOT NULL REFERENCES users (uid),
  topic_id   text COLLATE "C" NOT NULL,
  following  integer NOT NULL,
  updated_at text COLLATE "C" NOT NULL,
  seq        bigint NOT NULL,
  PRIMARY KEY (uid, topic_id)
);
CREATE INDEX IF NOT EXISTS topic_follows_topic ON topic_follows (topic_id) WHERE following = 1;
CREATE INDEX IF NOT EXISTS topic_follows_uid_seq ON topic_follows (uid, seq, topic_id);

ALTER TABLE notifications DROP CONSTRAINT notifications_type_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_type_check
  CHECK (type IN ('reply_to_topic', 'reply_to_comment', 'moderation_removed', 'moderation_restored', 'mention', 'reply_in_followed_topic'));
CREATE INDEX IF NOT EXISTS notifications_recipient_topic ON notifications (recipient_uid, target_id, type, created_at) WHERE deleted = 0;

CREATE INDEX IF NOT EXISTS users_display_name_lower ON users (lower(display_name));
