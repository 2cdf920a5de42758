// Web Push subscriptions: a device turns push on for its signed-in user (PUT) or off
// (DELETE); a notification is queued for every device of its recipient in the notification's own
// transaction (push/sender.ts sends it after the commit).
import { MSG } from '../../../shared/messages.js';
import { PUSH_LIMITS } from '../../../shared/constants.js';
import { badRequest, notFound } from '../../../shared/errors.js';
import type { AuthUser } from '../auth/verifier.js';
import { endpointProblem, type SubscriptionInput } from '../push/endpoint.js';
import { nowIso, type DomainContext } from './context.js';

/** Turns push on for this device and user; `created` is false when the device already had it for them. */
export async function savePushSubscription(
  ctx: DomainContext,
  actor: AuthUser,
  input: SubscriptionInput,
  allowLoopback: boolean,
  serviceHosts: readonly string[] = [],
): Promise<{ created: boolean; created_at: string }> {
  const problem = endpointProblem(input.endpoint, allowLoopback, serviceHosts);
  if (problem) throw badRequest(problem);
  const { store } = ctx;
  return store.transaction(async () => {
    const before = await store.push.getSubscription(input.endpoint);
    const created = before?.uid !== actor.uid;
    const createdAt = created ? nowIso(ctx) : before.created_at;
    await store.push.saveSubscription({
      endpoint: input.endpoint,
      uid: actor.uid,
      p256dh: input.keys.p256dh,
      auth: input.keys.auth,
      created_at: createdAt,
    });
    // Past the limit the oldest device goes: one reply never fans out to an unbounded list.
    const devices = await store.push.subscriptionsOf(actor.uid);
    for (const old of devices.slice(0, Math.max(0, devices.length - PUSH_LIMITS.devicesPerUser)))
      await store.push.removeSubscription(old.endpoint);
    return { created, created_at: createdAt };
  });
}

/** Turns push off for this device: only its own user may (another user's device answers 404 alike). */
export async function removePushSubscription(ctx: DomainContext, actor: AuthUser, endpoint: string): Promise<void> {
  const { store } = ctx;
  await store.transaction(async () => {
    const row = await store.push.getSubscription(endpoint);
    if (!row || row.uid !== actor.uid) throw notFound(MSG.pushSubscriptionNotFound);
    await store.push.removeSubscription(endpoint);
  });
}

/**
 * Queues a new notification's push to each of the recipient's devices, in the notification's
 * transaction; returns how many were queued. The sender (push/sender.ts) wakes on the
 * notifications change the caller publishes when it says pushes were queued.
 */
export async function queuePush(ctx: DomainContext, notificationId: string, recipientUid: string): Promise<number> {
  return await ctx.store.push.enqueue(notificationId, recipientUid, nowIso(ctx));
}
