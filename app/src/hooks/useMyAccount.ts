// The signed-in user's role and suspension, live from their synced profile: the header's
// way to the queue, a suspended user's banner, the admin's role buttons.
import { useMemo } from 'react';
import { isModerator, type Role } from '../../../shared/constants';
import { suspendedMessage } from '../../../shared/messages';
import type { MyAccount } from '../data';
import { useData } from './useData';
import { useObservable } from './useObservable';
import { useNow } from './useNow';

export function useMyAccount(): MyAccount | null {
  const data = useData();
  const account$ = useMemo(() => data.myAccount$(), [data]);
  return useObservable(account$).value ?? null;
}

/** 'member' when signed out or not known yet. */
export function useMyRole(): Role {
  return useMyAccount()?.role ?? 'member';
}

export function useIsModerator(): boolean {
  return isModerator(useMyRole());
}

/** While the signed-in user is suspended: suspendedMessage(until, reason); else null. */
export function useSuspension(): string | null {
  const account = useMyAccount();
  const now = useNow();
  const until = account?.suspended_until ?? null;
  if (!until || Date.parse(until) <= now.getTime()) return null;
  return suspendedMessage(until, account?.suspension_reason ?? '');
}
