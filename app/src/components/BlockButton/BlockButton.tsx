// Blocking from a user's page: "Block" / "Unblock" on someone else's page (written
// locally at once, offline too; signed out, a click opens the sign-in saying why), one of the page's
// row of actions, and on the user's own page the way to their list of blocked users.
import { Link } from 'react-router-dom';
import { MSG } from '../../../../shared/messages';
import { authorName } from '../../../../shared/rules/author-name';
import { useBlockToggle } from '../../hooks/useBlocks';
import { useSession } from '../../hooks/useSession';
import { useSignInPrompt } from '../SignInModal/useSignInPrompt';
import './BlockButton.css';
import { BLOCKED_USERS_LINK, BLOCKED_USERS_PATH } from './blocked-users-link';

export { BLOCKED_USERS_LINK, BLOCKED_USERS_PATH };

/** What a block does, said once the user is blocked. */
export const blockedNote = (name: string) =>
  `You blocked ${name}: their topics and responses are collapsed for you, and their replies do not notify you.`;

/** On your own page, where Block would be: the way to your list of blocked users. */
export function OwnBlockedUsersLink() {
  return (
    <p className="block-controls">
      <Link to={BLOCKED_USERS_PATH}>{BLOCKED_USERS_LINK}</Link>
    </p>
  );
}

/**
 * Block / Unblock for another user, then what it did: items of the user page's action row (the row
 * lays them out; what a block did wraps under the buttons). `className` is the row's button style.
 */
export function BlockButton({ uid, name, className }: { uid: string; name: string | null; className: string }) {
  const { user } = useSession();
  const { blocked, pending, error, toggle } = useBlockToggle(uid, name);
  const signIn = useSignInPrompt();
  const signedOut = !user;
  const shown = authorName(name);
  return (
    <>
      <button
        type="button"
        className={`${className} block-button`}
        // The visible word says what a click does; the name says whom (two buttons never read alike).
        aria-label={`${blocked ? 'Unblock' : 'Block'} ${shown}`}
        aria-disabled={pending}
        onClick={() => (signedOut ? signIn.ask(MSG.loginToBlock) : pending ? undefined : void toggle())}
      >
        {blocked ? 'Unblock' : 'Block'}
      </button>
      <span aria-live="polite" className="block-status" data-testid="block-status">
        {blocked && !signedOut && <span className="muted">{blockedNote(shown)}</span>}
      </span>
      {signIn.prompt}
      {error && (
        <span className="error-text" role="alert">
          {error}
        </span>
      )}
    </>
  );
}
