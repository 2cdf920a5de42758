// Follows on SQLite: one row per user and topic, private to the user; unfollowing
// keeps the row with following = 0, so the change replicates and auto-follow leaves it alone.
import type { Db } from './connection.js';
import type { FollowRow, FollowsRepo } from '../rows.js';
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

type Sync<T> = { [K in keyof T]: T[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => R : T[K] };

export function createFollowsRepo(db: Db): Sync<FollowsRepo> {
  const get = db.prepare<[string, string], FollowRow>(GET_FOLLOW.sqlite);
  const set = db.prepare<[string, string, number, string, number]>(SET_FOLLOW.sqlite);
  const followIfNew = db.prepare<[string, string, string, number]>(FOLLOW_IF_NEW.sqlite);
  const list = db.prepare<[string], FollowRow>(LIST_FOLLOWS.sqlite);
  const changes = db.prepare<[string, number, number, string, number], FollowRow>(FOLLOW_CHANGES.sqlite);
  const toNotify = db.prepare<Record<string, string | number>, { uid: string }>(FOLLOWERS_TO_NOTIFY.sqlite);
  const insertNotifications = db.prepare<Record<string, string | number>>(INSERT_FOLLOWER_NOTIFICATIONS.sqlite);
  const enqueue = db.prepare<{ response: string; due: string }>(ENQUEUE_FOLLOWER_PUSHES.sqlite);

  return {
    get: (uid, topicId) => get.get(uid, topicId),
    set(uid, topicId, following, now, seq) {
      set.run(uid, topicId, following ? 1 : 0, now, seq);
    },
    followIfNew: (uid, topicId, now, seq) => followIfNew.run(uid, topicId, now, seq).changes > 0,
    list: (uid) => list.all(uid),
    changesSince: (uid, checkpoint, limit) => changes.all(uid, checkpoint.seq, checkpoint.seq, checkpoint.id, limit),
    notifyFollowers(n, newId) {
      const uids = toNotify
        .all({
          actor: n.actor_uid,
          creator: n.creator_uid,
          topic: n.topic_id,
          response: n.response_id,
          since: n.since,
          per_hour: n.per_hour,
        })
        .map((row) => row.uid);
      if (uids.length === 0) return [];
      insertNotifications.run({
        pairs: JSON.stringify(uids.map((uid) => [newId(), uid])),
        actor: n.actor_uid,
        summary: n.summary,
        topic: n.topic_id,
        response: n.response_id,
        now: n.now,
        seq: n.seq,
      });
      return uids;
    },
    enqueuePushes: (responseId, due) => enqueue.run({ response: responseId, due }).changes,
  };
}
