// Site header: logo home, user name or e-mail, Sign-in button, and the menu
// (a burger under 960 px). Points/rank and notifications slot in later.
import { useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { useSession } from '../../hooks/useSession';
import { signOut } from '../../auth/session';
import { SignInModal } from '../SignInModal/SignInModal';
import { SyncStatus } from '../SyncStatus/SyncStatus';
import './Header.css';

const DISCORD_URL = 'https://discord.com/';
const SUPPORT_URL = 'mailto:support@crux.example';

export function Header() {
  const { ready, user } = useSession();
  const [signInOpen, setSignInOpen] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();
  // Adjusted while rendering, not in effects: a new page closes the menu, signing in closes the modal.
  const [menuPathname, setMenuPathname] = useState(location.pathname);
  if (menuPathname !== location.pathname) {
    setMenuPathname(location.pathname);
    setMenuOpen(false);
  }
  if (user && signInOpen) setSignInOpen(false);

  return (
    <header className="site-header">
      <div className="site-header-inner">
        <Link to="/" className="site-logo" aria-label="Crux home">
          <img src="/favicon.svg" alt="" width="28" height="28" />
          <span>Crux</span>
        </Link>
        <div className="site-header-user">
          <SyncStatus />
          {user && (
            <span className="site-user" data-testid="header-user">
              {user.displayName || user.email}
            </span>
          )}
          {ready && !user && (
            <button type="button" className="btn btn-primary" onClick={() => setSignInOpen(true)}>
              Sign in
            </button>
          )}
        </div>
        <button
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
          <NavLink to="/about">About</NavLink>
          <NavLink to="/sources">Sources</NavLink>
          <NavLink to="/terms">Terms</NavLink>
          <NavLink to="/privacy">Privacy</NavLink>
          <a href={DISCORD_URL} target="_blank" rel="noreferrer">
            Discord
          </a>
          <a href={SUPPORT_URL} target="_blank" rel="noreferrer">
            Support
          </a>
          {user && (
            <button type="button" className="btn btn-ghost" onClick={() => void signOut()}>
              Logout
            </button>
          )}
        </nav>
      </div>
      {signInOpen && <SignInModal onClose={() => setSignInOpen(false)} />}
    </header>
  );
}
