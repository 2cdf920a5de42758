-- A notification says whether the reply it is about was deleted since (a
-- notification about a deleted response says so instead of leading nowhere), and its
-- sync document now carries response_id so the app can scroll to the reply.
ALTER TABLE notifications ADD COLUMN response_deleted INTEGER NOT NULL DEFAULT 0;
UPDATE notifications SET response_deleted = 1
  WHERE response_id IN (SELECT id FROM responses WHERE deleted = 1);
CREATE INDEX notifications_response ON notifications (response_id) WHERE deleted = 0;

-- Re-stamp every notification with one fresh change number so each device pulls them
-- again with the new fields (pull checkpoints order by seq, then id, so one shared seq
-- is enough).
UPDATE meta SET value = value + 1 WHERE key = 'seq';
UPDATE notifications SET seq = (SELECT value FROM meta WHERE key = 'seq');
