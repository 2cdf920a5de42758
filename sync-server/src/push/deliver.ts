// One push over the wire. web-push encrypts the payload (RFC 8291, aes128gcm) and signs the VAPID
// header (RFC 8292) in generateRequestDetails; the request itself goes out here, so that the push
// service's address is checked when its name is resolved (no private or loopback address unless
// allowed, see endpoint.ts), a timeout bounds it, and the loopback receiver of the tests may be plain http.
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import webpush from 'web-push';
import type { PushSubscriptionRow } from '../store/rows.js';
import { isLoopbackHost, isPrivateAddress } from './endpoint.js';
import type { VapidKeys } from './vapid.js';

export interface DeliveryAnswer {
  status: number;
  /** The push service's Retry-After, if any (a 429 or 503). */
  retryAfter: string | null;
}

export interface DeliverOptions {
  vapid: VapidKeys;
  allowLoopback: boolean;
  timeoutMs: number;
  /** Seconds the push service keeps an undelivered push (the phone is off). */
  ttlSeconds: number;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** dns.lookup that refuses private addresses (a public name pointed at the intranet). */
function safeLookup(allowLoopback: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const usable = addresses.filter(
        (a) => !isPrivateAddress(a.address) || (allowLoopback && (a.address === '127.0.0.1' || a.address === '::1')),
      );
      if (usable.length === 0)
        return callback(Object.assign(new Error(`${hostname} resolves to no public address`), { code: 'EPUSHPRIVATE' }), []);
      if (options.all) return callback(null, usable);
      callback(null, usable[0]!.address, usable[0]!.family);
    });
  };
}

export function deliver(
  subscription: PushSubscriptionRow,
  payload: string,
  topic: string,
  options: DeliverOptions,
): Promise<DeliveryAnswer> {
  const details = webpush.generateRequestDetails(
    { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
    payload,
    {
      vapidDetails: options.vapid,
      TTL: options.ttlSeconds,
      urgency: 'normal',
      // RFC 8030 §5.4: a newer push with the same Topic replaces one the service still holds for the device.
      topic,
    },
  );
  const url = new URL(details.endpoint);
  const plain = url.protocol === 'http:';
  if (plain && !(options.allowLoopback && isLoopbackHost(url.hostname))) return Promise.reject(new Error('push endpoint must be https'));
  const request = plain ? http.request : https.request;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: details.method,
        headers: details.headers,
        lookup: safeLookup(options.allowLoopback),
        timeout: options.timeoutMs,
      },
      (res) => {
        res.resume();
        res.on('end', () => {
          const retryAfter = res.headers['retry-after'];
          resolve({ status: res.statusCode ?? 0, retryAfter: typeof retryAfter === 'string' ? retryAfter : null });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('push service timed out')));
    req.on('error', reject);
    req.end(details.body ?? undefined);
  });
}
