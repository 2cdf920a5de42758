-- 001: the whole first schema. Forward-only: never edit a shipped migration, add the next one.
-- Synced rows (topics, responses, votes, notifications, users' profiles) carry `seq`, a
-- change number stamped from meta('seq') inside the write transaction (docs/SYNC.md),
-- and are soft-deleted (`deleted = 1`) so that deletions replicate as tombstones.
-- Tables that FTS5 indexes have an INTEGER PRIMARY KEY so their rowid never moves.

CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value INTEGER NOT NULL
);
INSERT INTO meta (key, value) VALUES ('seq', 0);

CREATE TABLE users (
  uid                    TEXT PRIMARY KEY,
  display_name           TEXT,
  email                  TEXT,
  points                 INTEGER NOT NULL DEFAULT 0,
  receive_weekly_summary INTEGER NOT NULL DEFAULT 1,
  created_at             TEXT NOT NULL,
  seq                    INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX users_points ON users (points DESC, uid) WHERE points > 0;

CREATE TABLE topics (
  pk              INTEGER PRIMARY KEY,
  id              TEXT NOT NULL UNIQUE,
  title           TEXT NOT NULL,
  category        TEXT NOT NULL,
  creator_uid     TEXT NOT NULL REFERENCES users (uid),
  created_at      TEXT NOT NULL,
  score           INTEGER NOT NULL DEFAULT 0,
  responses_count INTEGER NOT NULL DEFAULT 0,
  hot             REAL NOT NULL,
  deleted         INTEGER NOT NULL DEFAULT 0,
  seq             INTEGER NOT NULL
);
-- One index per sort (and per category and sort) so every list is an index scan.
CREATE INDEX topics_hot ON topics (hot DESC, id) WHERE deleted = 0;
CREATE INDEX topics_new ON topics (created_at DESC, id DESC) WHERE deleted = 0;
CREATE INDEX topics_top ON topics (score DESC, created_at DESC, id DESC) WHERE deleted = 0;
CREATE INDEX topics_category_hot ON topics (category, hot DESC, id) WHERE deleted = 0;
CREATE INDEX topics_category_new ON topics (category, created_at DESC, id DESC) WHERE deleted = 0;
CREATE INDEX topics_category_top ON topics (category, score DESC, created_at DESC, id DESC) WHERE deleted = 0;
CREATE INDEX topics_seq ON topics (seq, id);
CREATE INDEX topics_creator ON topics (creator_uid);

CREATE TABLE responses (
  pk                 INTEGER PRIMARY KEY,
  id                 TEXT NOT NULL UNIQUE,
  topic_id           TEXT NOT NULL REFERENCES topics (id),
  parent_response_id TEXT REFERENCES responses (id),
  quoted_response_id TEXT,
  type               TEXT NOT NULL CHECK (type IN ('for', 'against', 'neutral')),
  content            TEXT NOT NULL,
  creator_uid        TEXT NOT NULL REFERENCES users (uid),
  created_at         TEXT NOT NULL,
  updated_at         TEXT NOT NULL,
  score              INTEGER NOT NULL DEFAULT 0,
  comment_count      INTEGER NOT NULL DEFAULT 0,
  deleted            INTEGER NOT NULL DEFAULT 0,
  seq                INTEGER NOT NULL
);
CREATE INDEX responses_topic_root ON responses (topic_id, created_at, id) WHERE parent_response_id IS NULL AND deleted = 0;
CREATE INDEX responses_parent ON responses (parent_response_id, created_at, id) WHERE deleted = 0;
CREATE INDEX responses_topic ON responses (topic_id) WHERE deleted = 0;
CREATE INDEX responses_topic_seq ON responses (topic_id, seq, id);
CREATE INDEX responses_seq ON responses (seq, id);
CREATE INDEX responses_creator ON responses (creator_uid);

CREATE TABLE sources (
  pk          INTEGER PRIMARY KEY,
  id          TEXT NOT NULL UNIQUE,
  url         TEXT NOT NULL UNIQUE,
  name        TEXT,
  description TEXT,
  created_at  TEXT NOT NULL
);

CREATE TABLE response_sources (
  response_id TEXT NOT NULL REFERENCES responses (id),
  position    INTEGER NOT NULL,
  source_id   TEXT NOT NULL REFERENCES sources (id),
  PRIMARY KEY (response_id, position)
);
CREATE INDEX response_sources_source ON response_sources (source_id);

CREATE TABLE votes (
  voter_uid          TEXT NOT NULL REFERENCES users (uid),
  target_type        TEXT NOT NULL CHECK (target_type IN ('topic', 'response')),
  target_id          TEXT NOT NULL,
  target_creator_uid TEXT NOT NULL,
  topic_id           TEXT NOT NULL,
  created_at         TEXT NOT NULL,
  updated_at         TEXT NOT NULL,
  deleted            INTEGER NOT NULL DEFAULT 0,
  seq                INTEGER NOT NULL,
  PRIMARY KEY (voter_uid, target_type, target_id)
);
CREATE INDEX votes_target ON votes (target_type, target_id) WHERE deleted = 0;
CREATE INDEX votes_creator ON votes (target_creator_uid) WHERE deleted = 0;
CREATE INDEX votes_topic ON votes (topic_id);
CREATE INDEX votes_voter_seq ON votes (voter_uid, seq);

CREATE TABLE notifications (
  id              TEXT PRIMARY KEY,
  recipient_uid   TEXT NOT NULL REFERENCES users (uid),
  type            TEXT NOT NULL CHECK (type IN ('reply_to_topic', 'reply_to_comment')),
  actor_uid       TEXT NOT NULL REFERENCES users (uid),
  target_summary  TEXT NOT NULL,
  target_id       TEXT NOT NULL,
  response_id     TEXT NOT NULL,
  created_at      TEXT NOT NULL,
  is_read         INTEGER NOT NULL DEFAULT 0,
  deleted         INTEGER NOT NULL DEFAULT 0,
  seq             INTEGER NOT NULL
);
CREATE INDEX notifications_recipient ON notifications (recipient_uid, created_at DESC) WHERE deleted = 0;
CREATE INDEX notifications_recipient_seq ON notifications (recipient_uid, seq);
CREATE INDEX notifications_topic ON notifications (target_id);

-- Full-text search (FTS5, external content kept in step by triggers).
CREATE VIRTUAL TABLE topics_fts USING fts5 (title, content = 'topics', content_rowid = 'pk', tokenize = 'unicode61 remove_diacritics 2');
CREATE TRIGGER topics_fts_insert AFTER INSERT ON topics BEGIN
  INSERT INTO topics_fts (rowid, title) VALUES (new.pk, new.title);
END;
CREATE TRIGGER topics_fts_delete AFTER DELETE ON topics BEGIN
  INSERT INTO topics_fts (topics_fts, rowid, title) VALUES ('delete', old.pk, old.title);
END;
CREATE TRIGGER topics_fts_update AFTER UPDATE OF title ON topics BEGIN
  INSERT INTO topics_fts (topics_fts, rowid, title) VALUES ('delete', old.pk, old.title);
  INSERT INTO topics_fts (rowid, title) VALUES (new.pk, new.title);
END;

CREATE VIRTUAL TABLE responses_fts USING fts5 (content, content = 'responses', content_rowid = 'pk', tokenize = 'unicode61 remove_diacritics 2');
CREATE TRIGGER responses_fts_insert AFTER INSERT ON responses BEGIN
  INSERT INTO responses_fts (rowid, content) VALUES (new.pk, new.content);
END;
CREATE TRIGGER responses_fts_delete AFTER DELETE ON responses BEGIN
  INSERT INTO responses_fts (responses_fts, rowid, content) VALUES ('delete', old.pk, old.content);
END;
CREATE TRIGGER responses_fts_update AFTER UPDATE OF content ON responses BEGIN
  INSERT INTO responses_fts (responses_fts, rowid, content) VALUES ('delete', old.pk, old.content);
  INSERT INTO responses_fts (rowid, content) VALUES (new.pk, new.content);
END;

CREATE VIRTUAL TABLE sources_fts USING fts5 (name, url, description, content = 'sources', content_rowid = 'pk', tokenize = 'unicode61 remove_diacritics 2');
CREATE TRIGGER sources_fts_insert AFTER INSERT ON sources BEGIN
  INSERT INTO sources_fts (rowid, name, url, description) VALUES (new.pk, new.name, new.url, new.description);
END;
CREATE TRIGGER sources_fts_delete AFTER DELETE ON sources BEGIN
  INSERT INTO sources_fts (sources_fts, rowid, name, url, description) VALUES ('delete', old.pk, old.name, old.url, old.description);
END;
CREATE TRIGGER sources_fts_update AFTER UPDATE ON sources BEGIN
  INSERT INTO sources_fts (sources_fts, rowid, name, url, description) VALUES ('delete', old.pk, old.name, old.url, old.description);
  INSERT INTO sources_fts (rowid, name, url, description) VALUES (new.pk, new.name, new.url, new.description);
END;
