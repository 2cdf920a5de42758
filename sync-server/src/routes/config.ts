// /api/config: the web app's Firebase settings, read at start-up so one build runs
// against the local emulator or a real project (and tests can pick the ports).
import { OpenAPIHono } from '@hono/zod-openapi';
import type { ClientConfig } from '../../../shared/client-config.js';
import { clientConfigSchema } from '../../../shared/schemas/answers.js';
import type { AppEnv } from '../http/auth.js';
import { apiRoute, serve } from '../openapi/route.js';

/** Only http(s) and mailto addresses become links; anything else (or unset) hides the item. */
function externalUrl(value: string | undefined): string | null {
  const text = value?.trim();
  if (!text) return null;
  try {
    const url = new URL(text);
    return ['https:', 'http:', 'mailto:'].includes(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

export function readClientConfig(env: NodeJS.ProcessEnv = process.env): ClientConfig {
  const projectId = env.FIREBASE_PROJECT_ID ?? 'demo-crux';
  return {
    firebase: {
      apiKey: env.FIREBASE_API_KEY ?? 'demo-api-key',
      authDomain: env.FIREBASE_AUTH_DOMAIN ?? `${projectId}.firebaseapp.com`,
      projectId,
      ...(env.FIREBASE_APP_ID ? { appId: env.FIREBASE_APP_ID } : {}),
    },
    authEmulatorHost: env.FIREBASE_AUTH_EMULATOR_HOST ?? null,
    discordUrl: externalUrl(env.DISCORD_URL),
    supportUrl: externalUrl(env.SUPPORT_URL),
  };
}

const settings = apiRoute({
  method: 'get',
  path: '/',
  tag: 'Service',
  summary: "The web app's Firebase settings",
  description: 'Read by the app at start-up, so one build runs against the local emulator or a real project.',
  auth: 'none',
  answers: { 200: { description: 'The settings.', schema: clientConfigSchema } },
});

export function configRoutes(config: ClientConfig) {
  const app = new OpenAPIHono<AppEnv>();
  serve(app, settings, (c) => c.json(config));
  return app;
}
