// Stances: one row per user and topic, private to its owner, and the Δ credits
// ("this changed my view") each change of stance gave. Counters derived from them live on
// topics, responses and users and are recounted by those repositories.
import type { StanceChange } from '../../../../shared/sync-protocol.js';
import type { Db } from './connection.js';
import type { CreditRow, StanceRow } from '../rows.js';
import { DROP_DELTAS_OF_CHANGE, GET_STANCE, INSERT_DELTA, SAVE_STANCE, STANCES_SINCE } from '../sql.js';

type StoredStance = Omit<StanceRow, 'history' | 'credits'> & { history: string; credits: string; credit_from: number };

const read = (row: StoredStance): StanceRow => ({
  ...row,
  history: JSON.parse(row.history) as StanceChange[],
  credits: JSON.parse(row.credits) as string[],
});

export function createStancesRepo(db: Db) {
  const get = db.prepare<[string, string], StoredStance>(GET_STANCE.sqlite);
  const upsert = db.prepare<StoredStance>(SAVE_STANCE.sqlite);
  const changes = db.prepare<{ uid: string; seq: number; id: string; limit: number }, StoredStance>(STANCES_SINCE.sqlite);
  const creditsOf = db.prepare<[string, string, number], CreditRow>(
    'SELECT response_id, topic_id, author_uid, counts FROM deltas WHERE uid = ? AND topic_id = ? AND change_no = ?',
  );
  const dropCredits = db.prepare<[string, string, number]>(DROP_DELTAS_OF_CHANGE.sqlite);
  const addCredit = db.prepare<{
    uid: string;
    topic_id: string;
    change_no: number;
    response_id: string;
    author_uid: string;
    counts: number;
    now: string;
  }>(INSERT_DELTA.sqlite);
  const authorsCreditedOn = db.prepare<[string], { author_uid: string }>('SELECT DISTINCT author_uid FROM deltas WHERE response_id = ?');

  return {
    get(uid: string, topicId: string): StanceRow | undefined {
      const row = get.get(uid, topicId);
      return row && read(row);
    },
    /** Inserts or replaces the user's stance on the topic; `first_stance` is written only by the insert. */
    save(row: StanceRow): void {
      upsert.run({ ...row, history: JSON.stringify(row.history), credits: JSON.stringify(row.credits), credit_from: row.credit_from ?? 1 });
    },
    changesSince: (uid: string, checkpoint: { seq: number; id: string }, limit: number): StanceRow[] =>
      changes.all({ uid, seq: checkpoint.seq, id: checkpoint.id, limit }).map(read),
    /** The Δ credits the user gave for one change of their stance on the topic. */
    creditsFor: (uid: string, topicId: string, changeNo: number): CreditRow[] => creditsOf.all(uid, topicId, changeNo),
    /** Replaces the Δ credits of one change (earlier changes' credits are kept). */
    setCredits(uid: string, topicId: string, changeNo: number, credits: readonly CreditRow[], now: string): void {
      dropCredits.run(uid, topicId, changeNo);
      for (const credit of credits) {
        addCredit.run({
          uid,
          topic_id: topicId,
          change_no: changeNo,
          response_id: credit.response_id,
          author_uid: credit.author_uid,
          counts: credit.counts ?? 1,
          now,
        });
      }
    },
    /** Whose persuasion points a response's Δ credits count towards (its author, or none). */
    authorsCreditedOn: (responseId: string): string[] => authorsCreditedOn.all(responseId).map((row) => row.author_uid),
  };
}
