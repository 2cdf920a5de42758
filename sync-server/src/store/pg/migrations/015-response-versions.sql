-- 015 (SQLite's 019): response_versions, the earlier texts of an edited response.
-- See sync-server/src/store/sqlite/migrations/019-response-versions.sql.

CREATE TABLE IF NOT EXISTS response_versions (
  response_id text COLLATE "C" NOT NULL,
  version     integer NOT NULL,
  content     text COLLATE "C" NOT NULL,
  created_at  text COLLATE "C" NOT NULL,
  PRIMARY KEY (response_id, version)
);
