// Site header: logo home, signed in the points-and-rank link to the leaderboard and the
// notification bell with its unread badge (both live), the user's name (on a phone its initial, the
// whole name heading the menu; or "Set username" while they have none: the e-mail address is never
// shown), Sign-in button, and the menu (a burger under 960 px): Leaderboard, About, Sources, Terms,
// Privacy, Discord and Support (external, from configuration, hidden when unset), Settings (every
// setting on one page: signed out, what this device keeps) and signed in Logout (which asks whether
// to remove the user's data from this device). A session that has ended shows a strip below.
import { useRef, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { useSession } from '../../hooks/useSession';
import { SET_USERNAME_BUTTON_ID, SET_USERNAME_LABEL, useUsernamePrompt } from '../../hooks/useUsernamePrompt';
import { signOut as firebaseSignOut } from '../../auth/session';
// Small and in the entry: the Firebase SDK it drives is loaded on demand (auth/actions.ts).
import { SignInModal } from '../SignInModal/SignInModal';
import { SignOutDialog } from '../SignOutDialog/SignOutDialog';
import { NotificationBell, ScoreLink } from '../NotificationBell/NotificationBell';
import { useSiteLinks } from '../../hooks/useSiteLinks';
import { ModerationLink, ModerationMenuLink } from '../ModerationLink/ModerationLink';
import { SessionEnded, SyncStatus } from '../SyncStatus/SyncStatus';
import './Header.css';

export const SETTINGS_LINK = 'Settings';

export function Header() {
  const { ready, user } = useSession();
  const [signInOpen, setSignInOpen] = useState(false);
  const [signOutOpen, setSignOutOpen] = useState(false);
  // "Sign in" from an ended session: the old Firebase user goes first (its data stays), then the modal opens.
  const [signInAfterSignOut, setSignInAfterSignOut] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const { discordUrl, supportUrl } = useSiteLinks();
  const burgerRef = useRef<HTMLButtonElement>(null);
  const location = useLocation();
  // Adjusted while rendering, not in effects: a new page closes the menu, signing in closes the modal.
  const [menuPathname, setMenuPathname] = useState(location.pathname);
  if (menuPathname !== location.pathname) {
    setMenuPathname(location.pathname);
    setMenuOpen(false);
  }
  if (user && signInOpen) setSignInOpen(false);
  if (!user && signInAfterSignOut) {
    setSignInAfterSignOut(false);
    setSignInOpen(true);
  }

  function signInAgain() {
    if (!user) return setSignInOpen(true);
    setSignInAfterSignOut(true);
    void firebaseSignOut();
  }
  function closeMenuOnEscape(event: React.KeyboardEvent) {
    if (event.key !== 'Escape' || signOutOpen || !menuOpen) return;
    setMenuOpen(false);
    burgerRef.current?.focus();
  }

  return (
    <header className={`site-header${user ? ' has-user' : ''}`}>
      <div className="site-header-inner" onKeyDown={closeMenuOnEscape}>
        <Link to="/" className="site-logo" aria-label="Crux home">
          <img src="/favicon.svg" alt="" width="28" height="28" />
          <span>Crux</span>
        </Link>
        <div className="site-header-user">
          <SyncStatus />
          {user && <ScoreLink />}
          {user && <ModerationLink />}
          {user && <NotificationBell />}
          {user?.displayName && (
            <Link
              to={`/users/${encodeURIComponent(user.uid)}`}
              className="site-user"
              data-testid="header-user"
              data-initial={initialOf(user.displayName)}
              title="Your page"
            >
              <span className="site-user-name">{user.displayName}</span>
            </Link>
          )}
          {user && !user.displayName && <SetUsernameButton />}
          {ready && !user && (
            <button type="button" className="btn btn-primary" onClick={() => setSignInOpen(true)}>
              Sign in
            </button>
          )}
        </div>
        <button
          ref={burgerRef}
          type="button"
          className="btn btn-ghost site-burger"
          aria-label="Menu"
          aria-expanded={menuOpen}
          aria-controls="site-menu"
          onClick={() => setMenuOpen((open) => !open)}
        >
          <span aria-hidden="true">☰</span>
        </button>
        <nav id="site-menu" className={`site-menu${menuOpen ? ' is-open' : ''}`} aria-label="Main menu">
          {/* On a phone the header shows only the name's initial: the whole name heads the menu. */}
          {user?.displayName && (
            <NavLink to={`/users/${encodeURIComponent(user.uid)}`} end className="site-menu-user">
              {user.displayName}
            </NavLink>
          )}
          <NavLink to="/leaderboard">Leaderboard</NavLink>
          <NavLink to="/about">About</NavLink>
          <NavLink to="/sources">Sources</NavLink>
          <NavLink to="/terms">Terms</NavLink>
          <NavLink to="/privacy">Privacy</NavLink>
          {discordUrl && (
            <a href={discordUrl} target="_blank" rel="noopener noreferrer">
              Discord<span className="visually-hidden"> (opens in a new tab)</span>
            </a>
          )}
          {supportUrl && (
            <a href={supportUrl} target="_blank" rel="noopener noreferrer">
              Support<span className="visually-hidden"> (opens in a new tab)</span>
            </a>
          )}
          {user && <ModerationMenuLink />}
          {/* end: the settings page only, not /settings/device under it */}
          <NavLink to="/settings" end>
            {SETTINGS_LINK}
          </NavLink>
          {user && (
            <button type="button" className="btn btn-ghost" aria-haspopup="dialog" onClick={() => setSignOutOpen(true)}>
              Logout
            </button>
          )}
        </nav>
      </div>
      <SessionEnded onSignIn={signInAgain} />
      {signInOpen && <SignInModal onClose={() => setSignInOpen(false)} />}
      {signOutOpen && <SignOutDialog onClose={() => setSignOutOpen(false)} />}
    </header>
  );
}

/** The header's sign of the user on a phone, where their whole name does not fit: its first letter. */
export function initialOf(name: string): string {
  return (Array.from(name.trim())[0] ?? '').toLocaleUpperCase();
}

/** Opens the username modal (App renders it from useUsernamePrompt). */
function SetUsernameButton() {
  const prompt = useUsernamePrompt();
  return (
    <button
      type="button"
      id={SET_USERNAME_BUTTON_ID}
      className="btn btn-small site-set-username"
      aria-haspopup="dialog"
      aria-expanded={prompt.open}
      onClick={prompt.show}
    >
      {SET_USERNAME_LABEL}
    </button>
  );
}
