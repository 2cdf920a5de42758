// The VAPID key pair (RFC 8292) that signs every push and that browsers subscribe to. In production
// VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY / VAPID_SUBJECT; otherwise generated once and kept in the
// database (mail_state 'vapid_keys', set only if absent), not in DATA_DIR: the devices' subscriptions
// live in the database and were made for this public key, so the two travel together through a
// backup, and every process on one PostgreSQL database signs with the same pair.
import webpush from 'web-push';
import type { Store } from '../store/types.js';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  /** A mailto: or https: URL the push service may contact about this sender. */
  subject: string;
}

export interface VapidConfig {
  publicKey: string | undefined;
  privateKey: string | undefined;
  subject: string | undefined;
}

const STATE_KEY = 'vapid_keys';

/** VAPID_* from the environment (both keys or neither). */
export function readVapidConfig(env: NodeJS.ProcessEnv = process.env): VapidConfig {
  const publicKey = env.VAPID_PUBLIC_KEY?.trim() || undefined;
  const privateKey = env.VAPID_PRIVATE_KEY?.trim() || undefined;
  if ((publicKey === undefined) !== (privateKey === undefined))
    throw new Error('Set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (`npx web-push generate-vapid-keys`), or neither.');
  return { publicKey, privateKey, subject: env.VAPID_SUBJECT?.trim() || undefined };
}

/** The subject when none is configured: the site's https address, else a local mailto. */
export function defaultSubject(publicUrl: string | undefined): string {
  return publicUrl?.startsWith('https://') ? publicUrl : 'mailto:push@localhost';
}

export async function loadVapidKeys(store: Store, config: VapidConfig, publicUrl: string | undefined): Promise<VapidKeys> {
  const subject = config.subject ?? defaultSubject(publicUrl);
  if (config.publicKey && config.privateKey) {
    // web-push checks the keys' encoding and length; a wrong key fails here, at start, not at the first push.
    webpush.setVapidDetails(subject, config.publicKey, config.privateKey);
    return { publicKey: config.publicKey, privateKey: config.privateKey, subject };
  }
  const stored = JSON.parse(await store.mail.initState(STATE_KEY, JSON.stringify(webpush.generateVAPIDKeys()))) as {
    publicKey: string;
    privateKey: string;
  };
  return { publicKey: stored.publicKey, privateKey: stored.privateKey, subject };
}
