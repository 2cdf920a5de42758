// Follows on PostgreSQL: the SQLite repository's queries (store/sqlite/follows-repo.ts).
import type { FollowRow, FollowsRepo } from '../rows.js';
import type { PgQueries } from './queries.js';
import {
  ENQUEUE_FOLLOWER_PUSHES,
  FOLLOW_CHANGES,
  FOLLOW_IF_NEW,
  FOLLOWERS_TO_NOTIFY,
  GET_FOLLOW,
  INSERT_FOLLOWER_NOTIFICATIONS,
  LIST_FOLLOWS,
  SET_FOLLOW,
} from '../sql.js';

/** FOLLOWERS_TO_NOTIFY's named parameters in the order of $1, $2… (both() numbers them by first use). */
const TO_NOTIFY_PARAMS = [...new Set(FOLLOWERS_TO_NOTIFY.sqlite.match(/@\w+/g)!.map((name) => name.slice(1)))];

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
    async notifyFollowers(n, newId) {
      const named: Record<string, unknown> = {
        actor: n.actor_uid,
        creator: n.creator_uid,
        topic: n.topic_id,
        response: n.response_id,
        since: n.since,
        per_hour: n.per_hour,
      };
      const uids = (
        await q.rows<{ uid: string }>(
          FOLLOWERS_TO_NOTIFY.pg,
          TO_NOTIFY_PARAMS.map((name) => named[name]),
        )
      ).map((row) => row.uid);
      if (uids.length === 0) return [];
      const ids = uids.map(() => newId());
      await q.run(INSERT_FOLLOWER_NOTIFICATIONS.pg, [ids, uids, n.actor_uid, n.summary, n.topic_id, n.response_id, n.now, n.seq]);
      return uids;
    },
    enqueuePushes: (responseId, due) => q.run(ENQUEUE_FOLLOWER_PUSHES.pg, [due, responseId]),
  };
}
