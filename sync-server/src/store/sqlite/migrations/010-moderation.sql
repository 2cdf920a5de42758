-- 010: moderation. Forward-only; PostgreSQL: store/pg/migrations/006-moderation.sql.
-- users.role: the crux_role claim of the user's last verified token ('member' until one carries it).
-- users.suspended_until / suspension_reason: a moderator's suspension (SUSPENDED_FOR_GOOD: for good).
-- topics.locked: no new responses. topics/responses.moderation: 'removed' by a moderator or 'hidden'
--   pending review (null: neither); while set, the row's title / content holds the text everyone reads,
--   the response's sources and quote are cleared, and the author's own text waits in
--   moderated_originals, so no read of topics or responses (REST, pull, first page, search, mail) can
--   serve it. A restore puts it back.
-- reports: one per reporter and target; reporting again updates it (and reopens a handled one).
-- blocks: one row per blocker and blocked user; unblocking sets blocked = 0 (never deleted).
-- moderation_log: every action (moderator_uid null: the automatic hide).

ALTER TABLE users ADD COLUMN role TEXT NOT NULL DEFAULT 'member' CHECK (role IN ('member', 'moderator', 'admin'));
ALTER TABLE users ADD COLUMN suspended_until TEXT;
ALTER TABLE users ADD COLUMN suspension_reason TEXT;

ALTER TABLE topics ADD COLUMN locked INTEGER NOT NULL DEFAULT 0;
ALTER TABLE topics ADD COLUMN moderation TEXT CHECK (moderation IN ('removed', 'hidden'));
ALTER TABLE topics ADD COLUMN moderation_reason TEXT;
ALTER TABLE responses ADD COLUMN moderation TEXT CHECK (moderation IN ('removed', 'hidden'));
ALTER TABLE responses ADD COLUMN moderation_reason TEXT;

-- New-account limits and the spam repeat check count an author's recent items.
CREATE INDEX topics_creator_time ON topics (creator_uid, created_at);
CREATE INDEX responses_creator_time ON responses (creator_uid, created_at);

CREATE TABLE moderated_originals (
  target_type        TEXT NOT NULL CHECK (target_type IN ('topic', 'response')),
  target_id          TEXT NOT NULL,
  text               TEXT NOT NULL,
  quoted_response_id TEXT,
  -- JSON [{source_id, name, description}]: the response's citations as they were.
  sources            TEXT NOT NULL DEFAULT '[]',
  PRIMARY KEY (target_type, target_id)
);

CREATE TABLE reports (
  reporter_uid      TEXT NOT NULL REFERENCES users (uid),
  target_type       TEXT NOT NULL CHECK (target_type IN ('topic', 'response', 'user')),
  target_id         TEXT NOT NULL,
  target_author_uid TEXT NOT NULL,
  reason            TEXT NOT NULL CHECK (reason IN ('spam', 'harassment', 'hate', 'misinformation', 'off-topic', 'other')),
  note              TEXT,
  status            TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'handled')),
  created_at        TEXT NOT NULL,
  updated_at        TEXT NOT NULL,
  seq               INTEGER NOT NULL,
  PRIMARY KEY (reporter_uid, target_type, target_id)
);
CREATE INDEX reports_reporter_seq ON reports (reporter_uid, seq, target_type, target_id);
CREATE INDEX reports_target ON reports (target_type, target_id, status);
CREATE INDEX reports_status ON reports (status, target_type, target_id);

CREATE TABLE blocks (
  blocker_uid TEXT NOT NULL REFERENCES users (uid),
  blocked_uid TEXT NOT NULL,
  blocked     INTEGER NOT NULL DEFAULT 1,
  updated_at  TEXT NOT NULL,
  seq         INTEGER NOT NULL,
  PRIMARY KEY (blocker_uid, blocked_uid)
);
CREATE INDEX blocks_blocker_seq ON blocks (blocker_uid, seq, blocked_uid);

CREATE TABLE moderation_log (
  pk            INTEGER PRIMARY KEY,
  id            TEXT NOT NULL UNIQUE,
  moderator_uid TEXT,
  action        TEXT NOT NULL,
  target_type   TEXT NOT NULL,
  target_id     TEXT NOT NULL,
  reason        TEXT NOT NULL,
  days          INTEGER,
  created_at    TEXT NOT NULL
);
CREATE INDEX moderation_log_time ON moderation_log (created_at DESC, pk DESC);

-- notifications.type gains the moderation notices; SQLite cannot change a CHECK, so the table is
-- rebuilt with the same rows (nothing references it).
CREATE TABLE notifications_new (
  id               TEXT PRIMARY KEY,
  recipient_uid    TEXT NOT NULL REFERENCES users (uid),
  type             TEXT NOT NULL CHECK (type IN ('reply_to_topic', 'reply_to_comment', 'moderation_removed', 'moderation_restored')),
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
