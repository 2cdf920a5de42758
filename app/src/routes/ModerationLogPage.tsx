// /moderation/log: every moderator's action (and the automatic hides), newest first,
// paged: who, what, which target, why, when. Moderators only.
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import type { ModerationLogAction } from '../../../shared/constants';
import type { ModerationLogEntry, ModerationLogPage as LogPage } from '../../../shared/types';
import { AuthorLink } from '../components/AuthorLink/AuthorLink';
import { RelativeTime } from '../components/RelativeTime/RelativeTime';
import { errorMessage } from '../error-message';
import { useData } from '../hooks/useData';
import { useSyncStatus } from '../hooks/useSyncStatus';
import { ModeratorsPage, Pager } from './ModerationPage';
import './ModerationPage.css';

export const LOG_TITLE = 'Moderation log';
export const LOG_EMPTY = 'No moderation actions yet.';
export const LOG_OFFLINE = 'You are offline: the log loads when you are back online.';
export const LOG_PAGE_SIZE = 50;

const VERBS = {
  remove: 'removed',
  restore: 'restored',
  dismiss: 'dismissed the reports of',
  lock: 'locked',
  unlock: 'unlocked',
  suspend: 'suspended',
  unsuspend: 'unsuspended',
  hide: 'hid (automatically)',
  alert: 'flagged the reporters of',
  role: 'changed the role of',
} satisfies Record<ModerationLogAction, string>;

/** A logged response's text is cut here: the log names it, the link shows it whole. */
const RESPONSE_NAME_CHARS = 80;

/** What the action was about, by name, linked to where it can be seen (only "a topic" once it is gone). */
function targetLink(entry: ModerationLogEntry) {
  const id = encodeURIComponent(entry.target_id);
  const name = entry.target_name?.trim() || null;
  if (entry.target_type === 'user') return <Link to={`/users/${id}`}>{name ?? 'a user'}</Link>;
  if (entry.target_type === 'topic')
    return name ? (
      <>
        the topic <Link to={`/topics/${id}`}>“{name}”</Link>
      </>
    ) : (
      <Link to={`/topics/${id}`}>a topic</Link>
    );
  if (!name || !entry.target_topic_id) return <span>a response</span>;
  const chars = Array.from(name);
  const short = chars.length > RESPONSE_NAME_CHARS ? `${chars.slice(0, RESPONSE_NAME_CHARS).join('').trimEnd()}…` : name;
  return (
    <>
      the response <Link to={`/topics/${encodeURIComponent(entry.target_topic_id)}#response-${id}`}>“{short}”</Link>
    </>
  );
}

export function ModerationLogPage() {
  return (
    <ModeratorsPage title={LOG_TITLE}>
      <Log />
    </ModeratorsPage>
  );
}

type Load = { state: 'loading' } | { state: 'error'; message: string } | { state: 'done'; page: LogPage };

function Log() {
  const data = useData();
  const online = useSyncStatus()?.online ?? true;
  const [offset, setOffset] = useState(0);
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  useEffect(() => {
    let alive = true;
    data.moderationLog(LOG_PAGE_SIZE, offset).then(
      (page) => alive && setLoad({ state: 'done', page }),
      (error: unknown) => alive && setLoad({ state: 'error', message: errorMessage(error) }),
    );
    return () => {
      alive = false;
    };
  }, [data, offset, online]);

  if (!online && load.state !== 'done') return <p className="status-text">{LOG_OFFLINE}</p>;
  if (load.state === 'loading')
    return (
      <p className="status-text" role="status">
        Loading the log...
      </p>
    );
  if (load.state === 'error')
    return (
      <p className="error-text" role="alert">
        Could not load the log. Error: {load.message}
      </p>
    );
  const { items, total } = load.page;
  if (items.length === 0 && offset === 0) return <p className="status-text">{LOG_EMPTY}</p>;
  return (
    <>
      <ol className="moderation-log" aria-label="Moderation actions, newest first">
        {items.map((entry) => (
          <li key={entry.id} className="moderation-log-entry" data-testid="log-entry">
            <span>
              {entry.moderator_uid ? <AuthorLink uid={entry.moderator_uid} name={entry.moderator_name} /> : <strong>Crux</strong>}{' '}
              {VERBS[entry.action]} {targetLink(entry)}
              {entry.action === 'suspend' && (entry.days ? ` for ${entry.days} ${entry.days === 1 ? 'day' : 'days'}` : ' for good')}
            </span>
            <span className="moderation-note">“{entry.reason}”</span>
            <span className="muted">
              <RelativeTime date={entry.created_at} />
            </span>
          </li>
        ))}
      </ol>
      <Pager offset={offset} shown={items.length} total={total} pageSize={LOG_PAGE_SIZE} onOffset={setOffset} />
    </>
  );
}
