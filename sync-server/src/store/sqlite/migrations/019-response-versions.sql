-- 019: the earlier texts of an edited response, so readers can see what it said before.
-- An edit that changes the content keeps the text it replaces as the next version (1, 2, …), with
-- the time that text was written (the response's created_at for version 1, the edit that wrote it
-- after that), unless the edit comes within the grace period after posting (shared/rules/edit-history.ts):
-- such an early fix folds into the first version. Versions are served only while the response is
-- live and not moderated (a restore serves them again); deleting the response drops them.
-- Forward-only; PostgreSQL: store/pg/migrations/015-response-versions.sql.

CREATE TABLE response_versions (
  response_id TEXT NOT NULL,
  version     INTEGER NOT NULL,
  content     TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  PRIMARY KEY (response_id, version)
);
