// Follows on PostgreSQL: the SQLite repository's queries (store/sqlite/follows-repo.ts).
import type { FollowsRepo } from '../types.js';
import type { PgQueries } from './queries.js';
import type { FollowRow } from '../rows.js';
import { ENQUEUE_FOLLOWER_PUSHES, FOLLOW_CHANGES, FOLLOW_IF_NEW, GET_FOLLOW, LIST_FOLLOWS, NOTIFY_FOLLOWERS, SET_FOLLOW } from '../sql.js';

export function createPgFollowsRepo(q: PgQueries): FollowsRepo {
  return {
    get: (uid, topicId) => q.row<FollowRow>(GET_FOLLOW.pg, [uid, topicId]),
    async set(uid, topicId, following, now, seq) {
      await q.run(SET_FOLLOW.pg, [uid, topicId, following ? 1 : 0, now, seq]);
    },
    followIfNew: async (uid, topicId, now, seq) => (await q.run(FOLLOW_IF_NEW.pg, [uid, topicId, now, seq])) > 0,
    list: (uid) => q.rows<FollowRow>(LIST_FOLLOWS.pg, [uid]),
    changesSince: (uid, checkpoint, limit) =>
      q.rows<FollowRow>(FOLLOW_CHANGES.pg, [uid, checkpoint.seq, checkpoint.seq, checkpoint.id, limit]),
    async notifyFollowers(n) {
      const named: Record<string, unknown> = {
        actor: n.actor_uid,
        creator: n.creator_uid,
        summary: n.summary,
        topic: n.topic_id,
        response: n.response_id,
        now: n.now,
        seq: n.seq,
        since: n.since,
        per_hour: n.per_hour,
      };
      const rows = await q.rows<{ recipient_uid: string }>(
        NOTIFY_FOLLOWERS.pg,
        NOTIFY_FOLLOWERS.params.map((name) => named[name]),
      );
      return rows.map((row) => row.recipient_uid);
    },
    async enqueuePushes(responseId, due) {
      await q.run(ENQUEUE_FOLLOWER_PUSHES.pg, [due, responseId]);
    },
  };
}
