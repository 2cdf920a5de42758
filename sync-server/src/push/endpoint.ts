// Which push service endpoints the server will POST to. The endpoint comes from the browser, so from
// the user: without a check, "subscribing" http://169.254.169.254/ or an intranet host would make the
// server send requests there (SSRF). Only https on the default port to a public host name is taken;
// addresses are checked again when the name is resolved at send time (sender.ts), so a name that
// resolves to a private address is refused too. And the host must be one of the browsers' push
// services (PUSH_SERVICES), or one the operator adds with PUSH_SERVICE_HOSTS: otherwise any account
// could make the server POST to any public site, with retries, at every notification.
// PUSH_ALLOW_LOOPBACK=on (tests and local development) also takes http://127.0.0.1:<port>/… and
// https://localhost: a push service on this machine.
import { isIP } from 'node:net';
import { z } from 'zod';
import { PUSH_LIMITS } from '../../../shared/constants.js';
import { MSG } from '../../../shared/messages.js';

/**
 * The hosts browsers' subscriptions point at: Chrome, Edge on Android, Opera and Samsung Internet use
 * Google's FCM; Firefox Mozilla's autopush; Safari Apple's; Edge on Windows the Windows Notification
 * Service, one host per region (wns2-par02p.notify.windows.com...). `*.` matches any host under the domain.
 */
export const PUSH_SERVICES: readonly string[] = [
  'fcm.googleapis.com',
  'updates.push.services.mozilla.com',
  'web.push.apple.com',
  '*.notify.windows.com',
];

/** Whether a host name is one of `patterns` (exact names, or `*.domain` for the hosts under it). */
function hostIn(host: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => (pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) : host === pattern));
}

/** PUSH_SERVICE_HOSTS: comma-separated host names (or `*.domain`), lower case, blanks dropped. */
export function readPushServiceHosts(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((host) => host.trim().toLowerCase())
    .filter((host) => host !== '');
}

/** Whether an address is one no push service uses: loopback, private, link-local, CGNAT, multicast, unspecified. */
export function isPrivateAddress(address: string): boolean {
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(v4) === 4) {
    const [a, b] = v4.split('.').map(Number) as [number, number];
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      a >= 224 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168)
    );
  }
  const v6 = address.toLowerCase();
  return (
    v6 === '::' ||
    v6 === '::1' ||
    v6.startsWith('fc') ||
    v6.startsWith('fd') ||
    v6.startsWith('fe8') ||
    v6.startsWith('fe9') ||
    v6.startsWith('fea') ||
    v6.startsWith('feb') ||
    v6.startsWith('ff')
  );
}

export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]';
}

/** Why the endpoint is refused, or null when it may be used (`serviceHosts`: PUSH_SERVICE_HOSTS). */
export function endpointProblem(endpoint: string, allowLoopback: boolean, serviceHosts: readonly string[] = []): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'The push endpoint is not a URL.';
  }
  if (url.username || url.password) return 'The push endpoint must not carry a user name or password.';
  const loopback = isLoopbackHost(url.hostname);
  if (allowLoopback && loopback) return url.protocol === 'https:' || url.protocol === 'http:' ? null : 'The push endpoint must be https.';
  if (url.protocol !== 'https:') return 'The push endpoint must be https.';
  if (url.port !== '') return 'The push endpoint must use the default https port.';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0 || loopback || !host.includes('.')) return 'The push endpoint must name a public push service.';
  if (!hostIn(host.toLowerCase(), PUSH_SERVICES) && !hostIn(host.toLowerCase(), serviceHosts)) return MSG.pushEndpointNotAService;
  return null;
}

const base64url = (bytes: number) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, 'must be base64url')
    .refine((value) => Buffer.from(value, 'base64url').length === bytes, `must be ${bytes} bytes`);

/** A PushSubscription as the browser's toJSON() gives it. */
export const subscriptionSchema = z.object({
  endpoint: z.string().min(1).max(PUSH_LIMITS.endpointChars),
  keys: z.object({
    // An uncompressed P-256 point and the 16-byte auth secret (RFC 8291).
    p256dh: base64url(65),
    auth: base64url(16),
  }),
  expirationTime: z.number().nullable().optional(),
});

export type SubscriptionInput = z.infer<typeof subscriptionSchema>;
