// The moderators' calls: the queue, the actions, the log, a moderated item's original text and an
// admin's change of role. They ask the server as the signed-in user (data/http.ts: the token, its
// refresh when a role granted a moment ago is not in it yet, the server's refusal as a CruxError, e.g.
// "Moderators cannot act on admins.") and keep nothing: a moderator judges what the server holds now.
// Offline they fail at once with a message for a person. The signed-in user's own role and suspension
// come from their synced profile.
import { combineLatest, distinctUntilChanged, map, of, switchMap, type Observable } from 'rxjs';
import type { ReportStatus } from '../../../shared/constants.js';
import { unauthorized } from '../../../shared/errors.js';
import { MSG } from '../../../shared/messages.js';
import type { ModerationActionInput } from '../../../shared/schemas/moderation.js';
import type { AccountContentChoice } from '../../../shared/schemas/account.js';
import type {
  ModeratedOriginal,
  ModeratedUser,
  ModerationLogEntry,
  ModerationLogPage,
  ModerationQueuePage,
  RoleChange,
} from '../../../shared/types.js';
import type { MyAccount } from './api.js';
import type { UserDb } from './db.js';
import type { Http } from './http.js';
import type { CurrentSession } from './session.js';

export const MODERATION_OFFLINE = 'You are offline: moderation needs a connection.';
export const DELETE_ACCOUNT_OFFLINE = 'You are offline: deleting your account needs a connection.';

interface Deps {
  http: Http;
  session: () => CurrentSession | null;
  userDb$: Observable<UserDb | null>;
  uid$: Observable<string | null>;
}

export function createModeration({ http, session, userDb$, uid$ }: Deps) {
  function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const current = session();
    if (!current) return Promise.reject(unauthorized(MSG.loginToModerate));
    return http.json<T>(path, { method, body, token: (force) => current.getToken(force), offline: MODERATION_OFFLINE });
  }

  const query = (params: Record<string, string | number>) =>
    new URLSearchParams(Object.entries(params).map(([key, value]) => [key, String(value)])).toString();

  return {
    myAccount$: (): Observable<MyAccount | null> =>
      combineLatest([userDb$, uid$]).pipe(
        switchMap(([db, uid]) => (db && uid ? db.profile.findOne(uid).$ : of(null))),
        map((doc) =>
          doc
            ? {
                uid: doc.id,
                role: doc.role ?? 'member',
                suspended_until: doc.suspended_until ?? null,
                suspension_reason: doc.suspension_reason ?? null,
              }
            : null,
        ),
        distinctUntilChanged(
          (a, b) =>
            a?.uid === b?.uid &&
            a?.role === b?.role &&
            a?.suspended_until === b?.suspended_until &&
            a?.suspension_reason === b?.suspension_reason,
        ),
      ),
    async deleteAccount(content: AccountContentChoice): Promise<void> {
      const current = session();
      if (!current) throw unauthorized(MSG.loginToDeleteAccount);
      await http.json<void>('/me', {
        method: 'DELETE',
        body: { content },
        token: (force) => current.getToken(force),
        offline: DELETE_ACCOUNT_OFFLINE,
      });
    },
    moderationQueue: (status: ReportStatus, limit: number, offset: number) =>
      call<ModerationQueuePage>('GET', `/moderation/reports?${query({ status, limit, offset })}`),
    moderate: (input: ModerationActionInput) => call<ModerationLogEntry>('POST', '/moderation/actions', input),
    moderationLog: (limit: number, offset: number) => call<ModerationLogPage>('GET', `/moderation/log?${query({ limit, offset })}`),
    moderatedOriginal: (targetType: 'topic' | 'response', targetId: string) =>
      call<ModeratedOriginal>('GET', `/moderation/original/${targetType}/${encodeURIComponent(targetId)}`),
    moderatedUser: (uid: string) => call<ModeratedUser>('GET', `/moderation/users/${encodeURIComponent(uid)}`),
    setUserRole: (uid: string, role: 'member' | 'moderator') => call<RoleChange>('PUT', `/users/${encodeURIComponent(uid)}/role`, { role }),
  };
}
