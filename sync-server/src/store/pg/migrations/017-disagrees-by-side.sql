-- 017 (SQLite's 021-disagrees-by-side.sql says why): each response keeps its disagree votes by the
-- voter's stance, as its upvotes by side; existing disagrees are counted once, and each response that
-- has any gets a fresh change number (crux_next_seq(), store/pg/seq.ts) so devices pull it.
ALTER TABLE responses ADD COLUMN downvotes_agree integer NOT NULL DEFAULT 0;
ALTER TABLE responses ADD COLUMN downvotes_disagree integer NOT NULL DEFAULT 0;
UPDATE responses SET
  downvotes_agree = (SELECT count(*) FROM votes v WHERE v.target_type = 'response' AND v.target_id = responses.id
    AND v.deleted = 0 AND v.value = -1 AND v.stance = 'agree' AND v.voter_uid <> v.target_creator_uid),
  downvotes_disagree = (SELECT count(*) FROM votes v WHERE v.target_type = 'response' AND v.target_id = responses.id
    AND v.deleted = 0 AND v.value = -1 AND v.stance = 'disagree' AND v.voter_uid <> v.target_creator_uid),
  seq = crux_next_seq()
WHERE id IN (
  SELECT v.target_id FROM votes v
  WHERE v.target_type = 'response' AND v.deleted = 0 AND v.value = -1 AND v.stance IN ('agree', 'disagree')
    AND v.voter_uid <> v.target_creator_uid
);
