-- 011: Web Push. Forward-only; PostgreSQL: store/pg/migrations/007-push.sql.
-- push_subscriptions: one per device (its push service endpoint), owned by the user who turned push
--   on there last; removed at sign-out, by the user, or when the push service answers 404/410.
-- push_queue: one row per notification and device still to be pushed, written in the notification's
--   own transaction, so a push is never lost to a restart and never made twice for one device; the
--   sender claims due rows (claimed_until) so several processes never send the same row, and deletes
--   a row once the push service took it (or refused it for good).
-- users.push_settings: what the user wants pushed (shared/push.ts PushSettings, as JSON), synced in
--   the profile: replies and moderation notices on or off, and quiet hours in the user's time zone.

ALTER TABLE users ADD COLUMN push_settings TEXT NOT NULL DEFAULT '{"replies":true,"moderation":true,"quiet_hours":null}';

CREATE TABLE push_subscriptions (
  endpoint        TEXT PRIMARY KEY,
  uid             TEXT NOT NULL REFERENCES users (uid),
  p256dh          TEXT NOT NULL,
  auth            TEXT NOT NULL,
  created_at      TEXT NOT NULL,
  last_success_at TEXT
);
CREATE INDEX push_subscriptions_uid ON push_subscriptions (uid);

CREATE TABLE push_queue (
  notification_id TEXT NOT NULL,
  endpoint        TEXT NOT NULL,
  uid             TEXT NOT NULL,
  attempts        INTEGER NOT NULL DEFAULT 0,
  due_at          TEXT NOT NULL,
  claimed_until   TEXT,
  PRIMARY KEY (notification_id, endpoint)
);
CREATE INDEX push_queue_due ON push_queue (due_at);
CREATE INDEX push_queue_endpoint ON push_queue (endpoint);
