// The signed-in user's notifications (newest first, live from the local database) and
// the actions of the notifications page: mark one read, mark all read.
import { useCallback, useMemo } from 'react';
import { useData } from './useData';
import { useObservable } from './useObservable';

export type { NotificationItem } from '../data/api';

export function useNotifications() {
  const data = useData();
  const notifications$ = useMemo(() => data.notifications$(), [data]);
  const { value, error, loading } = useObservable(notifications$);
  // Failing to mark read is only logged, never shown: the item still opens.
  const markRead = useCallback(
    (id: string) => data.markRead(id).catch((e: unknown) => console.error('Error marking notification as read:', e)),
    [data],
  );
  const markAllRead = useCallback(
    () => data.markAllRead().catch((e: unknown) => console.error('Error marking all notifications as read:', e)),
    [data],
  );
  return { notifications: value, error, loading, markRead, markAllRead };
}
