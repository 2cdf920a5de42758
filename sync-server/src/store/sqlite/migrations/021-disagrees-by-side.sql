-- 021 (PostgreSQL: store/pg/migrations/017-disagrees-by-side.sql). Common ground and the strongest
-- case count disagrees as well as agrees: each response keeps its disagree votes by the voter's stance
-- at the time of the vote, as it keeps its upvotes by side (the author's own vote on no side). Existing
-- disagrees are counted once here; the responses that have any get one fresh change number so devices
-- pull the counts.
ALTER TABLE responses ADD COLUMN downvotes_agree INTEGER NOT NULL DEFAULT 0;
ALTER TABLE responses ADD COLUMN downvotes_disagree INTEGER NOT NULL DEFAULT 0;
UPDATE meta SET value = value + 1 WHERE key = 'seq' AND EXISTS (
  SELECT 1 FROM votes v
  WHERE v.target_type = 'response' AND v.deleted = 0 AND v.value = -1 AND v.stance IN ('agree', 'disagree')
    AND v.voter_uid <> v.target_creator_uid
);
UPDATE responses SET
  downvotes_agree = (SELECT count(*) FROM votes v WHERE v.target_type = 'response' AND v.target_id = responses.id
    AND v.deleted = 0 AND v.value = -1 AND v.stance = 'agree' AND v.voter_uid <> v.target_creator_uid),
  downvotes_disagree = (SELECT count(*) FROM votes v WHERE v.target_type = 'response' AND v.target_id = responses.id
    AND v.deleted = 0 AND v.value = -1 AND v.stance = 'disagree' AND v.voter_uid <> v.target_creator_uid),
  seq = (SELECT value FROM meta WHERE key = 'seq')
WHERE id IN (
  SELECT v.target_id FROM votes v
  WHERE v.target_type = 'response' AND v.deleted = 0 AND v.value = -1 AND v.stance IN ('agree', 'disagree')
    AND v.voter_uid <> v.target_creator_uid
);
