// /api/push (issue 26): the key a device subscribes with (GET /config, public) and the device's
// subscription for the signed-in user (PUT to turn push on, DELETE to turn it off). Without VAPID
// keys (an app built without push) every call answers 503.
import { Hono } from 'hono';
import { z } from 'zod';
import { PUSH_LIMITS } from '../../../shared/constants.js';
import { MSG } from '../../../shared/messages.js';
import { CruxError } from '../../../shared/errors.js';
import type { PushConfig } from '../../../shared/push.js';
import type { DomainContext } from '../domain/context.js';
import { removePushSubscription, savePushSubscription } from '../domain/push.js';
import { requireUser, type AppEnv } from '../http/auth.js';
import { readJson } from '../http/validate.js';
import { subscriptionSchema } from '../push/endpoint.js';

export interface PushSetup {
  publicKey: string;
  /** PUSH_ALLOW_LOOPBACK=on: endpoints on this machine are taken (tests, local development). */
  allowLoopback: boolean;
}

export const unsubscribeDeviceSchema = z.object({ endpoint: z.string().min(1).max(PUSH_LIMITS.endpointChars) });

export function pushRoutes(ctx: DomainContext, setup: PushSetup | undefined) {
  const ready = () => {
    if (!setup) throw new CruxError('unavailable', MSG.pushNotSetUp);
    return setup;
  };
  return new Hono<AppEnv>()
    .get('/config', (c) => c.json({ public_key: ready().publicKey } satisfies PushConfig, 200, { 'Cache-Control': 'no-cache' }))
    .put('/subscription', async (c) => {
      const { allowLoopback } = ready();
      const user = requireUser(c, MSG.loginToPush);
      const input = await readJson(c, subscriptionSchema);
      const { created, created_at } = await savePushSubscription(ctx, user, input, allowLoopback);
      return c.json({ endpoint: input.endpoint, created_at }, created ? 201 : 200);
    })
    .delete('/subscription', async (c) => {
      ready();
      const user = requireUser(c, MSG.loginToPush);
      const { endpoint } = await readJson(c, unsubscribeDeviceSchema);
      await removePushSubscription(ctx, user, endpoint);
      return c.body(null, 204);
    });
}
