// /settings/blocked: the signed-in user's blocked users, live from their synced data
// (works offline: an unblock is a local write sent later), each with an Unblock button. The same list
// is a section of the settings page; this page stays for the links to it (the user's own page, older
// mails and bookmarks). Private: only its owner ever sees it.
import { Link } from 'react-router-dom';
import { MSG } from '../../../shared/messages';
import { authorName } from '../../../shared/rules/author-name';
import { AuthorLink } from '../components/AuthorLink/AuthorLink';
import { RelativeTime } from '../components/RelativeTime/RelativeTime';
import { BLOCKED_USERS_LINK } from '../components/BlockButton/blocked-users-link';
import { useBlockedUsers } from '../hooks/useBlocks';
import { useSession } from '../hooks/useSession';
import { errorMessage } from '../error-message';
import './BlockedUsersPage.css';

export const BLOCKED_USERS_TITLE = BLOCKED_USERS_LINK;
export const BLOCKED_USERS_EMPTY = 'You have not blocked anyone.';
export const BLOCKED_USERS_INTRO =
  'Their topics and responses are collapsed for you and their replies do not notify you. Nobody else sees this list, and they are not told.';
export const NOT_YET_SENT = 'not yet sent';

export function BlockedUsersPage() {
  const { ready, user } = useSession();
  return (
    <main className="page blocked-users-page" id="main">
      <h1>{BLOCKED_USERS_TITLE}</h1>
      {ready && !user ? <p className="status-text">{MSG.loginToBlock}</p> : <BlockedUsersList />}
      <p>
        <Link to="/">
          <span aria-hidden="true">← </span>Back to Topics
        </Link>
      </p>
    </main>
  );
}

/** The intro and the list with its Unblock buttons (signed in). */
export function BlockedUsersList() {
  const { users, error, loading, writeError, unblock } = useBlockedUsers();
  let body;
  if (error)
    body = (
      <p className="error-text" role="alert">
        Error: {errorMessage(error)}
      </p>
    );
  else if (!users && loading)
    body = (
      <p className="status-text" role="status">
        Loading...
      </p>
    );
  else if (!users || users.length === 0) body = <p className="status-text">{BLOCKED_USERS_EMPTY}</p>;
  else
    body = (
      <ul className="blocked-users" aria-label={BLOCKED_USERS_TITLE}>
        {users.map((blocked) => (
          <li key={blocked.uid} data-testid="blocked-user">
            <span className="blocked-user-name">
              <AuthorLink uid={blocked.uid} name={blocked.display_name} />
              <span className="muted">
                {' '}
                · blocked <RelativeTime date={blocked.updated_at} />
                {blocked.isPending && <> · {NOT_YET_SENT}</>}
              </span>
            </span>
            <button
              type="button"
              className="btn btn-small"
              aria-label={`Unblock ${authorName(blocked.display_name)}`}
              onClick={() => void unblock(blocked.uid)}
            >
              Unblock
            </button>
          </li>
        ))}
      </ul>
    );
  return (
    <>
      <p className="muted">{BLOCKED_USERS_INTRO}</p>
      {writeError && (
        <p className="error-text" role="alert">
          {writeError}
        </p>
      )}
      {body}
    </>
  );
}
