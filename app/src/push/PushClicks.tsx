// What a tapped push leads to in the app: the reply it is about, with its
// notifications marked read. The service worker either tells an open window (a message) or opens
// one at the reply with `?read={ids}`; the ids are marked read once they are on this device (a
// cold start pulls them first), and `read` leaves the address. The installed app's icon shows the
// unread count (Badging API, where the browser has it).
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useNotifications } from '../hooks/useNotifications';
import { useUnreadCount } from '../hooks/useUnreadCount';
import { PUSH_READ_PARAM as READ_PARAM, type NotificationClickMessage } from '../../../shared/push';

const isClickMessage = (data: unknown): data is NotificationClickMessage =>
  typeof data === 'object' &&
  data !== null &&
  (data as NotificationClickMessage).type === 'crux:notification-click' &&
  typeof (data as NotificationClickMessage).url === 'string';

export function PushClicks() {
  const navigate = useNavigate();
  const location = useLocation();
  const { notifications, markRead } = useNotifications();
  const unread = useUnreadCount();
  const pending = useRef(new Set<string>());
  const markLater = (ids: string[]) => {
    for (const id of ids) pending.current.add(id);
  };

  // Opened by a tap: ?read=… names the notifications to mark read; the address keeps the rest.
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    const ids = params.get(READ_PARAM);
    if (ids === null) return;
    markLater(ids.split(',').filter(Boolean));
    params.delete(READ_PARAM);
    const search = params.toString();
    void navigate({ pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash }, { replace: true });
  }, [location, navigate]);

  // A tap while Crux is open: the service worker's message.
  useEffect(() => {
    if (!('serviceWorker' in navigator)) return;
    const onMessage = (event: MessageEvent) => {
      if (!isClickMessage(event.data)) return;
      markLater(event.data.ids);
      void navigate(event.data.url);
    };
    navigator.serviceWorker.addEventListener('message', onMessage);
    return () => navigator.serviceWorker.removeEventListener('message', onMessage);
  }, [navigate]);

  useEffect(() => {
    for (const n of notifications ?? []) {
      if (!pending.current.delete(n.id)) continue;
      if (!n.is_read) void markRead(n.id);
    }
    // Each way in navigates, so the new address re-runs this even when the list did not change.
  }, [notifications, markRead, location]);

  useEffect(() => {
    if (!('setAppBadge' in navigator)) return;
    void (unread > 0 ? navigator.setAppBadge(unread) : navigator.clearAppBadge()).catch(() => undefined);
  }, [unread]);

  return null;
}
