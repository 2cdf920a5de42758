-- 007 (SQLite's 011): Web Push. The same tables and indexes as SQLite's; see
-- sync-server/src/store/sqlite/migrations/011-push.sql for what each holds.

ALTER TABLE users ADD COLUMN push_settings text COLLATE "C" NOT NULL DEFAULT '{"replies":true,"moderation":true,"quiet_hours":null}';

CREATE TABLE push_subscriptions (
  endpoint        text COLLATE "C" PRIMARY KEY,
  uid             text COLLATE "C" NOT NULL REFERENCES users (uid),
  p256dh          text COLLATE "C" NOT NULL,
  auth            text COLLATE "C" NOT NULL,
  created_at      text COLLATE "C" NOT NULL,
  last_success_at text COLLATE "C"
);
CREATE INDEX push_subscriptions_uid ON push_subscriptions (uid);

CREATE TABLE push_queue (
  notification_id text COLLATE "C" NOT NULL,
  endpoint        text COLLATE "C" NOT NULL,
  uid             text COLLATE "C" NOT NULL,
  attempts        integer NOT NULL DEFAULT 0,
  due_at          text COLLATE "C" NOT NULL,
  claimed_until   text COLLATE "C",
  PRIMARY KEY (notification_id, endpoint)
);
CREATE INDEX push_queue_due ON push_queue (due_at);
CREATE INDEX push_queue_endpoint ON push_queue (endpoint);
