// /api/push: the key a device subscribes with (GET /config, public) and the device's
// subscription for the signed-in user (PUT to turn push on, DELETE to turn it off). Without VAPID
// keys (an app built without push) every call answers 503.
import { OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import { PUSH_LIMITS } from '../../../shared/constants.js';
import { MSG } from '../../../shared/messages.js';
import { CruxError } from '../../../shared/errors.js';
import type { PushConfig } from '../../../shared/push.js';
import type { DomainContext } from '../domain/context.js';
import { removePushSubscription, savePushSubscription } from '../domain/push.js';
import { requireUser, type AppEnv } from '../http/auth.js';
import { apiRoute, serve } from '../openapi/route.js';
import { pushConfigSchema, pushSubscriptionSavedSchema } from '../../../shared/schemas/answers.js';
import { subscriptionSchema } from '../push/endpoint.js';

export interface PushSetup {
  publicKey: string;
  /** PUSH_ALLOW_LOOPBACK=on: endpoints on this machine are taken (tests, local development). */
  allowLoopback: boolean;
  /** PUSH_SERVICE_HOSTS: push services taken beyond the browsers' own (push/endpoint.ts PUSH_SERVICES). */
  serviceHosts?: readonly string[];
}

export const unsubscribeDeviceSchema = z.object({ endpoint: z.string().min(1).max(PUSH_LIMITS.endpointChars) });

const config = apiRoute({
  method: 'get',
  path: '/config',
  tag: 'Push',
  summary: 'The key a device subscribes to pushes with',
  description: 'Public. `503` when the server has no VAPID keys.',
  auth: 'none',
  answers: { 200: { description: 'The VAPID public key.', schema: pushConfigSchema } },
  errors: ['unavailable'],
});

const subscribe = apiRoute({
  method: 'put',
  path: '/subscription',
  tag: 'Push',
  summary: "Turn push on for this device (the browser's PushSubscription)",
  description:
    "The body is the browser's `PushSubscription.toJSON()`. The endpoint must be https on the default port to one of the browsers' push services " +
    "(Google FCM, Mozilla, Apple, Windows) or a host the operator lists in `PUSH_SERVICE_HOSTS` (`400` otherwise). A device that was another user's becomes the caller's and loses the pushes queued for the other. At most " +
    `${PUSH_LIMITS.devicesPerUser} devices per user: past it the oldest is turned off. \`201\` for a new device, \`200\` when it was already the caller's.`,
  auth: 'required',
  body: { schema: subscriptionSchema, required: true },
  answers: {
    200: { description: 'Already on for the caller (keys updated).', schema: pushSubscriptionSavedSchema },
    201: { description: 'Turned on.', schema: pushSubscriptionSavedSchema },
  },
  errors: ['invalid-argument', 'unavailable'],
});

const unsubscribe = apiRoute({
  method: 'delete',
  path: '/subscription',
  tag: 'Push',
  summary: 'Turn push off for this device',
  description: "`404` when the endpoint is not one of the caller's devices. The queued pushes to it are dropped.",
  auth: 'required',
  body: { schema: unsubscribeDeviceSchema, required: true },
  answers: { 204: { description: 'Turned off.' } },
  errors: ['invalid-argument', 'not-found', 'unavailable'],
});

export function pushRoutes(ctx: DomainContext, setup: PushSetup | undefined) {
  const ready = () => {
    if (!setup) throw new CruxError('unavailable', MSG.pushNotSetUp);
    return setup;
  };
  const app = new OpenAPIHono<AppEnv>();
  serve(app, config, (c) => c.json({ public_key: ready().publicKey } satisfies PushConfig, 200, { 'Cache-Control': 'no-cache' }));
  serve(app, subscribe, async (c, read) => {
    const { allowLoopback, serviceHosts } = ready();
    const user = requireUser(c, MSG.loginToPush);
    const input = await read.json();
    const { created, created_at } = await savePushSubscription(ctx, user, input, allowLoopback, serviceHosts);
    return c.json({ endpoint: input.endpoint, created_at }, created ? 201 : 200);
  });
  serve(app, unsubscribe, async (c, read) => {
    ready();
    const user = requireUser(c, MSG.loginToPush);
    const { endpoint } = await read.json();
    await removePushSubscription(ctx, user, endpoint);
    return c.body(null, 204);
  });
  return app;
}
