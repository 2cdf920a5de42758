// Opinion groups on PostgreSQL: the SQLite repository's queries (store/sqlite/groups-repo.ts).
import type { OpinionGroupsRepo } from '../rows.js';
import type { PgQueries } from './queries.js';
import type { ResponseVote } from '../../../../shared/rules/opinion-groups.js';
import { distinctTopics, TOPICS_VOTED_SINCE, TOPIC_REMOVED_RESPONSES, TOPIC_VOTES } from '../needs-sql.js';
import { SAVE_OPINION_GROUPS, STORED_OPINION_GROUPS } from '../sql.js';

export function createPgGroupsRepo(q: PgQueries): OpinionGroupsRepo {
  return {
    votes: (topicId) => q.rows<Required<ResponseVote>>(TOPIC_VOTES.pg, [topicId]),
    removed: async (topicId) => (await q.rows<{ id: string }>(TOPIC_REMOVED_RESPONSES.pg, [topicId])).map((row) => row.id),
    votedSince: async (sinceIso) => distinctTopics(await q.rows<{ topic_id: string }>(TOPICS_VOTED_SINCE.pg, [sinceIso])),
    async save(topicId, summary, seq) {
      const row = await q.row<{ opinion_groups: string | null }>(STORED_OPINION_GROUPS.pg, [topicId]);
      if (!row || row.opinion_groups === summary) return false;
      await q.run(SAVE_OPINION_GROUPS.pg, [summary, await seq(), topicId]);
      return true;
    },
  };
}
