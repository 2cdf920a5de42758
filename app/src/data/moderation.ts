// The moderators' calls (issue 23): the queue, the actions, the log, a moderated item's original
// text and an admin's change of role. They ask the server (REST, with the signed-in user's bearer
// token) and keep nothing: a moderator judges what the server holds now. Offline they fail at once
// with a message for a person; a refusal carries the server's text (e.g. "Moderators cannot act on
// admins."). The signed-in user's own role and suspension come from their synced profile.
import { combineLatest, distinctUntilChanged, map, of, switchMap, type Observable } from 'rxjs';
import type { ReportStatus } from '../../../shared/constants.js';
import { CruxError, isErrorCode, unauthorized } from '../../../shared/errors.js';
import { MSG } from '../../../shared/messages.js';
import type { ModerationActionInput } from '../../../shared/schemas/moderation.js';
import type { ModeratedOriginal, ModerationLogEntry, ModerationLogPage, ModerationQueuePage, RoleChange } from '../../../shared/types.js';
import type { MyAccount } from './api.js';
import type { Connectivity } from './connectivity.js';
import type { UserDb } from './db.js';
import type { CurrentSession } from './session.js';

export const MODERATION_OFFLINE = 'You are offline: moderation needs a connection.';

interface Deps {
  baseUrl: string;
  fetchImpl: typeof fetch;
  connectivity: Pick<Connectivity, 'isBrowserOnline'>;
  session: () => CurrentSession | null;
  userDb$: Observable<UserDb | null>;
  uid$: Observable<string | null>;
}

const STATUS_CODE: Record<number, CruxError['code']> = {
  400: 'invalid-argument',
  401: 'unauthenticated',
  403: 'permission-denied',
  404: 'not-found',
  409: 'already-exists',
  429: 'rate-limited',
};

export function createModeration({ baseUrl, fetchImpl, connectivity, session, userDb$, uid$ }: Deps) {
  async function call<T>(method: string, path: string, body?: unknown, loginMessage: string = MSG.loginToModerate): Promise<T> {
    const current = session();
    if (!current) throw unauthorized(loginMessage);
    if (!connectivity.isBrowserOnline()) throw new CruxError('unavailable', MODERATION_OFFLINE);
    const send = async (force: boolean) => {
      const token = await current.getToken(force);
      if (!token) throw unauthorized(loginMessage);
      const headers: Record<string, string> = { authorization: `Bearer ${token}` };
      if (body !== undefined) headers['content-type'] = 'application/json';
      return fetchImpl(`${baseUrl}/api${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    };
    let res: Response;
    try {
      res = await send(false);
      // A role granted a moment ago is in a refreshed token only.
      if (res.status === 401 || res.status === 403) {
        await res.body?.cancel();
        res = await send(true);
      }
    } catch (error) {
      if (error instanceof CruxError) throw error;
      throw new CruxError('unavailable', 'The server cannot be reached.');
    }
    if (!res.ok) {
      let parsed: { error?: unknown; code?: unknown } = {};
      try {
        parsed = (await res.json()) as typeof parsed;
      } catch {
        // not JSON
      }
      const code = isErrorCode(parsed.code)
        ? parsed.code
        : (STATUS_CODE[res.status] ?? (res.status >= 500 ? 'internal' : 'invalid-argument'));
      const message =
        typeof parsed.error === 'string'
          ? parsed.error
          : res.status >= 500
            ? 'The server had a problem; try again.'
            : `Request failed (${res.status}).`;
      throw new CruxError(code, message);
    }
    return (await res.json()) as T;
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
    moderationQueue: (status: ReportStatus, limit: number, offset: number) =>
      call<ModerationQueuePage>('GET', `/moderation/reports?${query({ status, limit, offset })}`),
    moderate: (input: ModerationActionInput) => call<ModerationLogEntry>('POST', '/moderation/actions', input),
    moderationLog: (limit: number, offset: number) => call<ModerationLogPage>('GET', `/moderation/log?${query({ limit, offset })}`),
    moderatedOriginal: (targetType: 'topic' | 'response', targetId: string) =>
      call<ModeratedOriginal>('GET', `/moderation/original/${targetType}/${encodeURIComponent(targetId)}`),
    setUserRole: (uid: string, role: 'member' | 'moderator') => call<RoleChange>('PUT', `/users/${encodeURIComponent(uid)}/role`, { role }),
  };
}
