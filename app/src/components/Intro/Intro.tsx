// What Crux is, for a visitor's first screen: two sentences, a link to "How Crux
// works" on the About page, and a Dismiss button. Static text in the bundle (the server's embedded
// first screen carries only data). It is decided in the first render and never inserted later, so
// the list under it does not move after the first paint: a visitor's session is known at once
// (auth/session.ts); while a signed-in session is being restored it stays away for this visit.
// Dismissing it is remembered on the device; signing in hides it and remembers that too.
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useSession } from '../../hooks/useSession';
import './Intro.css';

export const INTRO_DISMISSED_KEY = 'crux.introDismissed';
export const INTRO_TITLE = 'Crux gets to the heart of a disagreement.';
export const INTRO_TEXT =
  'Unlike a forum, you record where you stand before and after reading, give a Δ to the argument that changed your mind, and see the common ground both sides upvote.';
export const INTRO_LINK = 'How Crux works';
/** The About page's section the link opens. */
export const HOW_CRUX_WORKS_ID = 'how-crux-works';

function wasDismissed(): boolean {
  try {
    return localStorage.getItem(INTRO_DISMISSED_KEY) !== null;
  } catch {
    return false;
  }
}

function rememberDismissed() {
  try {
    localStorage.setItem(INTRO_DISMISSED_KEY, '1');
  } catch {
    /* storage blocked: it goes for this visit */
  }
}

export function Intro() {
  const { ready, user } = useSession();
  // Decided once, in the first render: shown only to someone known to be a visitor right away.
  const [shown, setShown] = useState(() => ready && !user && !wasDismissed());
  useEffect(() => {
    if (user) rememberDismissed();
  }, [user]);
  if (!shown || user) return null;

  function dismiss() {
    rememberDismissed();
    setShown(false);
  }

  return (
    <section className="intro card" aria-labelledby="intro-title" data-testid="intro">
      <div className="intro-body">
        <h2 id="intro-title" className="intro-title">
          {INTRO_TITLE}
        </h2>
        <p className="intro-text">
          {INTRO_TEXT} <Link to={`/about#${HOW_CRUX_WORKS_ID}`}>{INTRO_LINK}</Link>
        </p>
      </div>
      <button type="button" className="btn btn-ghost intro-dismiss" onClick={dismiss} aria-label="Dismiss the introduction">
        Dismiss
      </button>
    </section>
  );
}
