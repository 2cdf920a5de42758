// A deleted account's rows on PostgreSQL: the SQLite repository's queries (store/sqlite/accounts-repo.ts).
import type { AccountsRepo, VoteRow } from '../rows.js';
import type { PgQueries } from './queries.js';
import {
  CREDITS_GIVEN_BY,
  DEFAULT_PUSH_SETTINGS_JSON,
  DELETE_OWN_ROWS,
  DROP_ORIGINALS_OF,
  DROP_VERSIONS_OF,
  LIVE_RESPONSES_BY,
  LIVE_TOPICS_BY,
  LIVE_VOTES_BY,
  RESTAMP_NOTIFICATIONS_BY,
  STANCE_TOPICS_BY,
  STUB_USER,
} from '../sql.js';

export function createPgAccountsRepo(q: PgQueries): AccountsRepo {
  return {
    liveVotesBy: (uid) => q.rows<VoteRow>(LIVE_VOTES_BY.pg, [uid]),
    stanceTopicsBy: async (uid) => (await q.rows<{ topic_id: string }>(STANCE_TOPICS_BY.pg, [uid])).map((row) => row.topic_id),
    creditsGivenBy: (uid) => q.rows<{ response_id: string; topic_id: string; author_uid: string }>(CREDITS_GIVEN_BY.pg, [uid]),
    liveTopicsBy: async (uid) => (await q.rows<{ id: string }>(LIVE_TOPICS_BY.pg, [uid])).map((row) => row.id),
    liveResponsesBy: (uid) => q.rows<{ id: string; topic_id: string }>(LIVE_RESPONSES_BY.pg, [uid]),
    async dropOriginalsOf(uid) {
      await q.run(DROP_ORIGINALS_OF.pg, [uid, uid]);
      await q.run(DROP_VERSIONS_OF.pg, [uid]);
    },
    restampNotificationsBy: async (uid, seq) => [
      ...new Set((await q.rows<{ recipient_uid: string }>(RESTAMP_NOTIFICATIONS_BY.pg, [seq, uid])).map((row) => row.recipient_uid)),
    ],
    async deleteOwnRows(uid) {
      for (const statement of DELETE_OWN_ROWS) await q.run(statement.pg, [uid]);
    },
    async stub(uid, label, now, seq) {
      await q.run(STUB_USER.pg, [label, DEFAULT_PUSH_SETTINGS_JSON, now, seq, uid]);
    },
  };
}
