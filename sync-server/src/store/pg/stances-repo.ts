// Stances and Δ credits on PostgreSQL: the SQLite repository's queries (store/sqlite/stances-repo.ts).
import type { StanceChange } from '../../../../shared/sync-protocol.js';
import type { CreditRow, StanceRow, StancesRepo } from '../rows.js';
import type { PgQueries } from './queries.js';
import { DROP_DELTAS_OF_CHANGE, GET_STANCE, INSERT_DELTA, SAVE_STANCE, STANCES_SINCE } from '../sql.js';

type StoredStance = Omit<StanceRow, 'history' | 'credits'> & { history: string; credits: string };

const read = (row: StoredStance): StanceRow => ({
  ...row,
  history: JSON.parse(row.history) as StanceChange[],
  credits: JSON.parse(row.credits) as string[],
});

export function createPgStancesRepo(q: PgQueries): StancesRepo {
  return {
    async get(uid, topicId) {
      const row = await q.row<StoredStance>(GET_STANCE.pg, [uid, topicId]);
      return row && read(row);
    },
    async save(row) {
      await q.run(SAVE_STANCE.pg, [
        row.uid,
        row.topic_id,
        row.stance,
        row.first_stance,
        JSON.stringify(row.history),
        JSON.stringify(row.credits),
        row.updated_at,
        row.seq,
        row.credit_from ?? 1,
      ]);
    },
    changesSince: async (uid, checkpoint, limit) =>
      (await q.rows<StoredStance>(STANCES_SINCE.pg, [uid, checkpoint.seq, checkpoint.id, limit])).map(read),
    creditsFor: (uid, topicId, changeNo) =>
      q.rows<CreditRow>(
        'SELECT response_id, topic_id, author_uid, counts FROM deltas WHERE uid = $1 AND topic_id = $2 AND change_no = $3 ORDER BY response_id',
        [uid, topicId, changeNo],
      ),
    async setCredits(uid, topicId, changeNo, credits, now) {
      await q.run(DROP_DELTAS_OF_CHANGE.pg, [uid, topicId, changeNo]);
      for (const credit of credits) {
        await q.run(INSERT_DELTA.pg, [uid, topicId, changeNo, credit.response_id, credit.author_uid, credit.counts ?? 1, now]);
      }
    },
    authorsCreditedOn: async (responseId) =>
      (
        await q.rows<{ author_uid: string }>('SELECT DISTINCT author_uid FROM deltas WHERE response_id = $1 ORDER BY author_uid', [
          responseId,
        ])
      ).map((row) => row.author_uid),
  };
}
