// The two subscriptions the server holds outside sync: this device's Web Push subscription (the
// key it is made with, then handed to the server for the signed-in user, or taken back) and the
// weekly mail's one-click unsubscribe (no sign-in: the mail's signed token is the proof, sent as
// the form RFC 8058 describes). The browser's side of push (permission, push manager) is
// push/device.ts; these are only the server's.
import { unauthorized } from '../../../shared/errors.js';
import { MSG } from '../../../shared/messages.js';
import type { PushConfig } from '../../../shared/push.js';
import type { CruxData } from './api.js';
import type { Http } from './http.js';
import type { CurrentSession } from './session.js';

type Subscriptions = Pick<CruxData, 'pushPublicKey' | 'savePushSubscription' | 'removePushSubscription' | 'confirmUnsubscribe'>;

export function createSubscriptions(http: Http, session: () => CurrentSession | null): Subscriptions {
  function asUser(method: 'PUT' | 'DELETE', body: unknown): Promise<void> {
    const current = session();
    if (!current) return Promise.reject(unauthorized(MSG.loginToPush));
    return http.json('/push/subscription', { method, body, token: (force) => current.getToken(force) });
  }
  return {
    pushPublicKey: async () => (await http.json<PushConfig>('/push/config')).public_key,
    savePushSubscription: (subscription) => asUser('PUT', subscription),
    removePushSubscription: (endpoint) => asUser('DELETE', { endpoint }),
    confirmUnsubscribe: async (token) => {
      await http.json(`/unsubscribe?token=${encodeURIComponent(token)}`, {
        method: 'POST',
        body: new URLSearchParams({ 'List-Unsubscribe': 'One-Click' }),
      });
    },
  };
}
