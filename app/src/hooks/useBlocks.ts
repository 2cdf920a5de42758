// Blocking: the signed-in user's blocked users, read live from their synced data (offline
// too), blocked and unblocked locally at once (the data layer sends it when it can).
import { useCallback, useMemo, useState } from 'react';
import { errorMessage } from '../error-message';
import { useData } from './useData';
import { useObservable } from './useObservable';

export type { BlockedUserView } from '../data/api';

const NOBODY: ReadonlySet<string> = new Set();

/** The uids the signed-in user blocks (empty while not known, signed out, or unreadable). */
export function useBlockedUids(): ReadonlySet<string> {
  const data = useData();
  // One shared set in the data layer: each row subscribes to it, no query per row.
  const uids$ = useMemo(() => data.blockedUids$(), [data]);
  return useObservable(uids$).value ?? NOBODY;
}

/** Whether the signed-in user blocks `uid` (false while not known, signed out, or unreadable). */
export function useIsBlocked(uid: string | null | undefined): boolean {
  const blocked = useBlockedUids();
  return Boolean(uid && blocked.has(uid));
}

/** The blocked users, most recently blocked first, and unblocking one of them. */
export function useBlockedUsers() {
  const data = useData();
  const users$ = useMemo(() => data.blockedUsers$(), [data]);
  const { value, error, loading } = useObservable(users$);
  const [writeError, setWriteError] = useState<string | null>(null);
  const unblock = useCallback(
    async (uid: string) => {
      setWriteError(null);
      try {
        await data.unblockUser(uid);
      } catch (e) {
        setWriteError(errorMessage(e));
      }
    },
    [data],
  );
  return { users: value, error, loading, writeError, unblock };
}

/** The Block / Unblock toggle of a user's page: the stored state, a write under way, and why one failed. */
export function useBlockToggle(uid: string, displayName: string | null) {
  const data = useData();
  const blocked = useIsBlocked(uid);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function toggle() {
    setPending(true);
    setError(null);
    try {
      if (blocked) await data.unblockUser(uid);
      else await data.blockUser(uid, displayName);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setPending(false);
    }
  }
  return { blocked, pending, error, toggle };
}
