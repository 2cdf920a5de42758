// /api/config: the web app's Firebase settings, read at start-up so one build runs
// against the local emulator or a real project (and tests can pick the ports).
import { Hono } from 'hono';
import type { ClientConfig } from '../../../shared/client-config.js';
import type { AppEnv } from '../http/auth.js';

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

export function configRoutes(config: ClientConfig) {
  return new Hono<AppEnv>().get('/', (c) => c.json(config));
}
