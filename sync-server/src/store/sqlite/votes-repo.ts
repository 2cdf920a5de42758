// Upvotes: one row per (voter, target), soft-deleted when taken back so the
// removal replicates; scores and points are counters moved with each vote (domain/votes.ts) and a recount of these rows rebuilds them.
import type { Db } from './connection.js';
import { VOTE_VALUES, type TargetType } from '../../../../shared/constants.js';
import type { RemovedVote, VoteRow, VoteSet } from '../rows.js';
import { REMOVE_VOTE, SET_VOTE } from '../sql.js';

export function createVotesRepo(db: Db) {
  const get = db.prepare<[string, string, string], VoteRow>(
    'SELECT * FROM votes WHERE voter_uid = ? AND target_type = ? AND target_id = ?',
  );
  const upsert = db.prepare(SET_VOTE.sqlite);
  const liveOnTargets = db.prepare<[string, string], RemovedVote>(`
    SELECT voter_uid, target_creator_uid, value FROM votes WHERE target_type = ? AND target_id = ? AND deleted = 0
  `);
  const softDeleteOne = db.prepare<[number, string, string, string]>(REMOVE_VOTE.sqlite);
  const changes = db.prepare<{ voter: string; seq: number; target: string; limit: number }, VoteRow>(`
    SELECT * FROM votes WHERE voter_uid = @voter AND (seq > @seq OR (seq = @seq AND target_type || '_' || target_id > @target))
    ORDER BY seq, target_type || '_' || target_id LIMIT @limit
  `);

  return {
    get: (voter: string, type: TargetType, targetId: string) => get.get(voter, type, targetId),
    set(row: VoteSet) {
      upsert.run({ ...row, stance: row.stance ?? null, value: row.value ?? VOTE_VALUES.agree, deleted: row.deleted ? 1 : 0 });
    },
    /**
     * Removes every live vote on the target (its item is being deleted) and
     * returns whose points and whose vote lists changed.
     */
    async removeAllOn(type: TargetType, targetId: string, seq: () => Promise<number>) {
      const removed = liveOnTargets.all(type, targetId);
      for (const vote of removed) softDeleteOne.run(await seq(), vote.voter_uid, type, targetId);
      return removed;
    },
    changesSince: (voter: string, checkpoint: { seq: number; id: string }, limit: number) =>
      changes.all({ voter, seq: checkpoint.seq, target: checkpoint.id, limit }),
  };
}
