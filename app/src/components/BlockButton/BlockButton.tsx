// Blocking from a user's page: "Block" / "Unblock" on someone else's page (written
// locally at once, offline too; signed out, a click opens the sign-in saying why), and on the user's own page the way
// to their list of blocked users (/settings/blocked).
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

/** The user page's blocking control: Block / Unblock for another user, the blocked list on your own page. */
export function UserBlockControls({ uid, name }: { uid: string; name: string | null }) {
  const { user } = useSession();
  if (user?.uid === uid)
    return (
      <p className="block-controls">
        <Link to={BLOCKED_USERS_PATH}>{BLOCKED_USERS_LINK}</Link>
      </p>
    );
  return <BlockButton uid={uid} name={name} />;
}

export function BlockButton({ uid, name }: { uid: string; name: string | null }) {
  const { user } = useSession();
  const { blocked, pending, error, toggle } = useBlockToggle(uid, name);
  const signIn = useSignInPrompt();
  const signedOut = !user;
  const shown = authorName(name);
  return (
    <div className="block-controls">
      <button
        type="button"
        className={`btn btn-small${blocked ? '' : ' btn-ghost'} block-button`}
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
    </div>
  );
}
