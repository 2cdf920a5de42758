// Upvotes on PostgreSQL: the SQLite repository's queries (store/sqlite/votes-repo.ts).
import { VOTE_VALUES } from '../../../../shared/constants.js';
import type { RemovedVote, VoteRow, VotesRepo } from '../rows.js';
import type { PgQueries } from './queries.js';
import { REMOVE_VOTE, SET_VOTE } from '../sql.js';

/** The columns of a vote, as SQLite's `SELECT *` answers them. */
const COLUMNS = 'voter_uid, target_type, target_id, target_creator_uid, topic_id, created_at, updated_at, deleted, seq, stance, value';

export function createPgVotesRepo(q: PgQueries): VotesRepo {
  return {
    get: (voter, type, targetId) =>
      q.row<VoteRow>(`SELECT ${COLUMNS} FROM votes WHERE voter_uid = $1 AND target_type = $2 AND target_id = $3`, [voter, type, targetId]),
    async set(row) {
      await q.run(SET_VOTE.pg, [
        row.voter_uid,
        row.target_type,
        row.target_id,
        row.target_creator_uid,
        row.topic_id,
        row.stance ?? null,
        row.value ?? VOTE_VALUES.agree,
        row.now,
        row.deleted ? 1 : 0,
        row.seq,
      ]);
    },
    async removeAllOn(type, targetId, seq) {
      const removed = await q.rows<RemovedVote>(
        `SELECT voter_uid, target_creator_uid, value FROM votes WHERE target_type = $1 AND target_id = $2 AND deleted = 0 ORDER BY pk`,
        [type, targetId],
      );
      for (const vote of removed) {
        await q.run(REMOVE_VOTE.pg, [await seq(), vote.voter_uid, type, targetId]);
      }
      return removed;
    },
    changesSince: (voter, checkpoint, limit) =>
      q.rows<VoteRow>(
        `SELECT ${COLUMNS} FROM votes WHERE voter_uid = $1 AND (seq > $2 OR (seq = $2 AND target_type || '_' || target_id > $3))
         ORDER BY seq, target_type || '_' || target_id LIMIT $4`,
        [voter, checkpoint.seq, checkpoint.id, limit],
      ),
  };
}
