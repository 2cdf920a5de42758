-- 004: the weekly summary e-mail. A run is one batch for one week (its id is the
-- scheduled slot, ISO 8601 UTC, or 'manual-<time>' for `npm run mail:weekly`); every mail it
-- sends is a row of mail_sends, so a restart never sends a week twice and a rerun after a crash
-- sends only to those not yet served. mail_points snapshots each recipient's points and rank
-- when the run starts, so the next week's mail can say how they moved.

CREATE TABLE mail_runs (
  id           TEXT PRIMARY KEY,
  kind         TEXT NOT NULL CHECK (kind IN ('scheduled', 'manual')),
  period_start TEXT NOT NULL,
  period_end   TEXT NOT NULL,
  status       TEXT NOT NULL CHECK (status IN ('running', 'done')),
  created_at   TEXT NOT NULL,
  finished_at  TEXT,
  sent         INTEGER NOT NULL DEFAULT 0,
  failed       INTEGER NOT NULL DEFAULT 0,
  skipped      INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX mail_runs_status ON mail_runs (status, created_at);
CREATE INDEX mail_runs_end ON mail_runs (period_end);

CREATE TABLE mail_sends (
  run_id     TEXT NOT NULL REFERENCES mail_runs (id),
  uid        TEXT NOT NULL,
  email      TEXT NOT NULL,
  status     TEXT NOT NULL CHECK (status IN ('sent', 'failed')),
  attempts   INTEGER NOT NULL,
  message_id TEXT,
  error      TEXT,
  at         TEXT NOT NULL,
  PRIMARY KEY (run_id, uid)
);

CREATE TABLE mail_points (
  run_id TEXT NOT NULL REFERENCES mail_runs (id),
  uid    TEXT NOT NULL,
  points INTEGER NOT NULL,
  rank   INTEGER NOT NULL,
  PRIMARY KEY (run_id, uid)
);
CREATE INDEX mail_points_uid ON mail_points (uid);

-- Small scheduler facts, e.g. 'scheduler_since' (when the schedule first ran on this database).
CREATE TABLE mail_state (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
