// Web Push on PostgreSQL: the SQLite repository's queries (store/sqlite/push-repo.ts).
import type { PushQueueRow, PushRepo, PushSubscriptionRow } from '../rows.js';
import type { PgQueries } from './queries.js';
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

export function createPgPushRepo(q: PgQueries): PushRepo {
  return {
    async saveSubscription(row) {
      const before = await q.row<PushSubscriptionRow>(GET_PUSH_SUBSCRIPTION.pg, [row.endpoint]);
      if (before && before.uid !== row.uid) await q.run(DELETE_PUSH_QUEUE_OF_ENDPOINT.pg, [row.endpoint]);
      await q.run(SAVE_PUSH_SUBSCRIPTION.pg, [row.endpoint, row.uid, row.p256dh, row.auth, row.created_at]);
    },
    getSubscription: (endpoint) => q.row<PushSubscriptionRow>(GET_PUSH_SUBSCRIPTION.pg, [endpoint]),
    subscriptionsOf: (uid) => q.rows<PushSubscriptionRow>(PUSH_SUBSCRIPTIONS_OF.pg, [uid]),
    async removeSubscription(endpoint) {
      await q.run(DELETE_PUSH_QUEUE_OF_ENDPOINT.pg, [endpoint]);
      return (await q.run(DELETE_PUSH_SUBSCRIPTION.pg, [endpoint])) > 0;
    },
    enqueue: (id, uid, due) => q.run(ENQUEUE_PUSH.pg, [id, due, uid]),
    claimDue: (now, until, limit) => q.rows<PushQueueRow>(CLAIM_PUSHES.pg, [until, now, limit]),
    async delivered(row, now) {
      // The success is recorded before the queue row goes: whoever sees the queue empty sees the delivery.
      await q.run(PUSH_DELIVERED.pg, [now, row.endpoint]);
      await q.run(DELETE_PUSH.pg, [row.notification_id, row.endpoint]);
    },
    async drop(row) {
      await q.run(DELETE_PUSH.pg, [row.notification_id, row.endpoint]);
    },
    async retry(row, attempts, dueAt) {
      await q.run(RETRY_PUSH.pg, [attempts, dueAt, row.notification_id, row.endpoint]);
    },
    nextDue: async () => (await q.row<{ at: string | null }>(NEXT_PUSH_DUE.pg))?.at ?? undefined,
    depth: async () => (await q.row<{ n: number }>(PUSH_QUEUE_DEPTH.pg))!.n,
  };
}
