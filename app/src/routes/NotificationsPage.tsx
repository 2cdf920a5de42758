// /notifications: the signed-in user's notifications, newest first, live from
// the local database (works offline; marking read is a local write that syncs later).
// Unread items are bold with a dot and an "Unread" label for screen readers, never colour
// alone. A click marks the item read and opens /topics/{target_id} scrolled to the reply; a
// notification whose reply was deleted since says so and opens the topic. What is pushed, and
// when, is set on the settings page (linked below the list).
import { Link, useNavigate } from 'react-router-dom';
import type { NotificationItem } from '../hooks/useNotifications';
import { RelativeTime } from '../components/RelativeTime/RelativeTime';
import { useNotifications } from '../hooks/useNotifications';
import { useSession } from '../hooks/useSession';
import { usePlainText } from '../components/FormattedText/useMarkdown';
import './NotificationsPage.css';
import { authorName } from '../../../shared/rules/author-name';
import { errorMessage } from '../error-message';
import { isModerationNotice, notificationHref, notificationText } from '../../../shared/rules/notification-text';

export const NOTIFICATIONS_TITLE = 'Your Notifications';
export const NOTIFICATIONS_EMPTY = 'You have no notifications.';
export const NOTIFICATIONS_SIGNED_OUT = 'You need to be logged in to see notifications.';
export const MARK_ALL_READ = 'Mark All as Read';
export const REPLY_DELETED = 'This reply has since been deleted.';
export const NOTIFICATION_SETTINGS_LINK = 'Push notifications and quiet hours';

export { isModerationNotice, notificationHref, notificationText };

export function NotificationsPage() {
  const { ready, user } = useSession();
  return (
    <main className="page notifications-page" id="main">
      {ready && !user ? (
        <>
          <h1>{NOTIFICATIONS_TITLE}</h1>
          <p className="status-text">{NOTIFICATIONS_SIGNED_OUT}</p>
        </>
      ) : (
        <NotificationsBody />
      )}
    </main>
  );
}

function NotificationsBody() {
  const { notifications, error, loading, markRead, markAllRead } = useNotifications();
  const navigate = useNavigate();
  // A reply's first words are Markdown as written: shown without their marks, as every excerpt.
  const plain = usePlainText();
  const text = (n: NotificationItem) => notificationText({ ...n, target_summary: plain(n.target_summary) });
  const unread = notifications?.filter((n) => !n.is_read).length ?? 0;

  function open(n: NotificationItem) {
    if (!n.is_read) void markRead(n.id);
    void navigate(notificationHref(n));
  }

  let body;
  if (error)
    body = (
      <p className="error-text" role="alert">
        Could not load notifications. Error: {errorMessage(error)}
      </p>
    );
  else if (!notifications && loading)
    body = (
      <p className="status-text" role="status">
        Loading notifications...
      </p>
    );
  else if (!notifications || notifications.length === 0) body = <p className="status-text">{NOTIFICATIONS_EMPTY}</p>;
  else
    body = (
      <ul className="notification-list" aria-label="Notifications">
        {notifications.map((n) => (
          <li key={n.id} className={`notification-item${n.is_read ? '' : ' is-unread'}`}>
            <button type="button" className="notification-open" onClick={() => open(n)}>
              {!n.is_read && (
                <>
                  <span className="notification-dot" aria-hidden="true" />
                  <span className="visually-hidden">Unread: </span>
                </>
              )}
              <span className="notification-text">
                {isModerationNotice(n) ? (
                  text(n)
                ) : (
                  <>
                    <strong className="notification-actor">{authorName(n.actor_display_name)}</strong> {text(n)}
                  </>
                )}
                {n.response_deleted && <span className="notification-gone muted"> {REPLY_DELETED}</span>}
              </span>
              <span className="notification-time muted">
                <RelativeTime date={n.created_at} />
              </span>
            </button>
          </li>
        ))}
      </ul>
    );

  return (
    <>
      <div className="notifications-head">
        <h1>{NOTIFICATIONS_TITLE}</h1>
        <button type="button" className="btn btn-small" onClick={() => void markAllRead()} disabled={unread === 0}>
          {MARK_ALL_READ}
        </button>
      </div>
      {body}
      <p className="notifications-settings">
        <Link to="/settings#push">{NOTIFICATION_SETTINGS_LINK}</Link>
      </p>
    </>
  );
}
