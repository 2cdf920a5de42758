-- 002 (SQLite's 006): a self-upvote counts in the score but on no side, since the
-- public upvotes by side would tell the author's stance. Recount the upvotes by side of every
-- response its author upvoted, without that vote; each changed row gets a fresh change number
-- (crux_next_seq(), store/pg/seq.ts) so devices pull it.
UPDATE responses SET
  upvotes_agree = (SELECT count(*) FROM votes v WHERE v.target_type = 'response' AND v.target_id = responses.id
    AND v.deleted = 0 AND v.stance = 'agree' AND v.voter_uid <> v.target_creator_uid),
  upvotes_disagree = (SELECT count(*) FROM votes v WHERE v.target_type = 'response' AND v.target_id = responses.id
    AND v.deleted = 0 AND v.stance = 'disagree' AND v.voter_uid <> v.target_creator_uid),
  seq = crux_next_seq()
WHERE id IN (
  SELECT v.target_id FROM votes v
  WHERE v.target_type = 'response' AND v.deleted = 0 AND v.voter_uid = v.target_creator_uid AND v.stance IN ('agree', 'disagree')
);
