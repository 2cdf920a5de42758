-- 003: each response's citation keeps the name and description ITS author
-- gave. Until now they lived only on the shared catalogue row (sources), so the first
-- citer of a URL named it for everyone. The catalogue keeps one row per URL; its name
-- and description become a suggestion, recomputed as the most-cited among live
-- citations (sources-repo.ts).
ALTER TABLE response_sources ADD COLUMN name TEXT;
ALTER TABLE response_sources ADD COLUMN description TEXT;

-- Backfill: the only names known for existing citations are the catalogue's.
UPDATE response_sources SET
  name = (SELECT s.name FROM sources s WHERE s.id = response_sources.source_id),
  description = (SELECT s.description FROM sources s WHERE s.id = response_sources.source_id);

-- Deleted topics and responses keep no author text (their rows stay for the sync
-- tombstones): REST already answered 404, now the text is gone from the file too.
DELETE FROM response_sources WHERE response_id IN (SELECT id FROM responses WHERE deleted = 1);
UPDATE topics SET title = '' WHERE deleted = 1 AND title <> '';
UPDATE responses SET content = '' WHERE deleted = 1 AND content <> '';
