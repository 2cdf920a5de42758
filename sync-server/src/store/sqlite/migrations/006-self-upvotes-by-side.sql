-- 006: a self-upvote counts in the score but on no side, since the public upvotes by
-- side would tell the author's stance. Recount every response's upvotes by side without the
-- author's own vote; the rows that change get one fresh change number so devices pull them.
UPDATE meta SET value = value + 1 WHERE key = 'seq' AND EXISTS (
  SELECT 1 FROM votes v JOIN responses r ON r.id = v.target_id
  WHERE v.target_type = 'response' AND v.deleted = 0 AND v.voter_uid = r.creator_uid AND v.stance IN ('agree', 'disagree')
);
UPDATE responses SET
  upvotes_agree = (SELECT count(*) FROM votes v WHERE v.target_type = 'response' AND v.target_id = responses.id
    AND v.deleted = 0 AND v.stance = 'agree' AND v.voter_uid <> v.target_creator_uid),
  upvotes_disagree = (SELECT count(*) FROM votes v WHERE v.target_type = 'response' AND v.target_id = responses.id
    AND v.deleted = 0 AND v.stance = 'disagree' AND v.voter_uid <> v.target_creator_uid),
  seq = (SELECT value FROM meta WHERE key = 'seq')
WHERE id IN (
  SELECT v.target_id FROM votes v
  WHERE v.target_type = 'response' AND v.deleted = 0 AND v.voter_uid = v.target_creator_uid AND v.stance IN ('agree', 'disagree')
);
