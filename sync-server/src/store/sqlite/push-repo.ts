// Web Push on SQLite: the devices that turned push on and the pushes still to send.
import type { Db } from './connection.js';
import type { PushQueueRow, PushRepo, PushSubscriptionRow } from '../rows.js';
import {
  CLAIM_PUSHES,
  DELETE_PUSH,
  DELETE_PUSH_QUEUE_OF_ENDPOINT,
  DELETE_PUSH_SUBSCRIPTION,
  ENQUEUE_PUSH,
  GET_PUSH_SUBSCRIPTION,
  NEXT_PUSH_DUE,
  PUSH_DELIVERED,
  PUSH_QUEUE_DEPTH,
  PUSH_SUBSCRIPTIONS_OF,
  RETRY_PUSH,
  SAVE_PUSH_SUBSCRIPTION,
} from '../sql.js';

type Sync<T> = { [K in keyof T]: T[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => R : T[K] };

export function createPushRepo(db: Db): Sync<PushRepo> {
  const save = db.prepare<[string, string, string, string, string]>(SAVE_PUSH_SUBSCRIPTION.sqlite);
  const get = db.prepare<[string], PushSubscriptionRow>(GET_PUSH_SUBSCRIPTION.sqlite);
  const of = db.prepare<[string], PushSubscriptionRow>(PUSH_SUBSCRIPTIONS_OF.sqlite);
  const remove = db.prepare<[string]>(DELETE_PUSH_SUBSCRIPTION.sqlite);
  const removeQueued = db.prepare<[string]>(DELETE_PUSH_QUEUE_OF_ENDPOINT.sqlite);
  const enqueue = db.prepare<{ id: string; uid: string; due: string }>(ENQUEUE_PUSH.sqlite);
  const claim = db.prepare<{ now: string; until: string; limit: number }, PushQueueRow>(CLAIM_PUSHES.sqlite);
  const drop = db.prepare<[string, string]>(DELETE_PUSH.sqlite);
  const delivered = db.prepare<[string, string]>(PUSH_DELIVERED.sqlite);
  const retry = db.prepare<[number, string, string, string]>(RETRY_PUSH.sqlite);
  const nextDue = db.prepare<[], { at: string | null }>(NEXT_PUSH_DUE.sqlite);
  const depth = db.prepare<[], { n: number }>(PUSH_QUEUE_DEPTH.sqlite);

  return {
    saveSubscription(row) {
      const before = get.get(row.endpoint);
      if (before && before.uid !== row.uid) removeQueued.run(row.endpoint);
      save.run(row.endpoint, row.uid, row.p256dh, row.auth, row.created_at);
    },
    getSubscription: (endpoint) => get.get(endpoint),
    subscriptionsOf: (uid) => of.all(uid),
    removeSubscription(endpoint) {
      removeQueued.run(endpoint);
      return remove.run(endpoint).changes > 0;
    },
    enqueue: (id, uid, due) => enqueue.run({ id, uid, due }).changes,
    claimDue: (now, until, limit) => claim.all({ now, until, limit }),
    delivered(row, now) {
      drop.run(row.notification_id, row.endpoint);
      delivered.run(now, row.endpoint);
    },
    drop(row) {
      drop.run(row.notification_id, row.endpoint);
    },
    retry(row, attempts, dueAt) {
      retry.run(attempts, dueAt, row.notification_id, row.endpoint);
    },
    nextDue: () => nextDue.get()?.at ?? undefined,
    depth: () => depth.get()!.n,
  };
}
