// Opinion groups on SQLite: the grouping job's input and the topic's stored summary.
import type { Db } from './connection.js';
import type { ResponseVote } from '../../../../shared/rules/opinion-groups.js';
import { distinctTopics, TOPICS_VOTED_SINCE, TOPIC_REMOVED_RESPONSES, TOPIC_VOTES } from '../needs-sql.js';
import { SAVE_OPINION_GROUPS, STORED_OPINION_GROUPS } from '../sql.js';

/** Synchronous reads; `save` awaits only the seq it stamps (as topics-repo's refreshStanceCounts). */
export function createGroupsRepo(db: Db) {
  const votes = db.prepare<[string], Required<ResponseVote>>(TOPIC_VOTES.sqlite);
  const removed = db.prepare<[string], { id: string }>(TOPIC_REMOVED_RESPONSES.sqlite);
  const votedSince = db.prepare<[string], { topic_id: string }>(TOPICS_VOTED_SINCE.sqlite);
  const stored = db.prepare<[string], { opinion_groups: string | null }>(STORED_OPINION_GROUPS.sqlite);
  const save = db.prepare<[string, number, string]>(SAVE_OPINION_GROUPS.sqlite);
  return {
    votes: (topicId: string) => votes.all(topicId),
    removed: (topicId: string) => removed.all(topicId).map((row) => row.id),
    votedSince: (sinceIso: string) => distinctTopics(votedSince.all(sinceIso)),
    async save(topicId: string, summary: string, seq: () => Promise<number>): Promise<boolean> {
      const row = stored.get(topicId);
      if (!row || row.opinion_groups === summary) return false;
      save.run(summary, await seq(), topicId);
      return true;
    },
  };
}
