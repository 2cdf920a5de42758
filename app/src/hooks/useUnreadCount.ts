// How many of the signed-in user's notifications are unread, live (0 when signed out).
import { useMemo } from 'react';
import { useData } from './useData';
import { useObservable } from './useObservable';

export function useUnreadCount(): number {
  const data = useData();
  const unread$ = useMemo(() => data.unreadCount$(), [data]);
  return useObservable(unread$).value ?? 0;
}
