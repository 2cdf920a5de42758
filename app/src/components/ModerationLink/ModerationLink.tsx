// A moderator's way to the queue: in the header a shield with the count of open
// reports, and in the phone's menu a text link with the same count. Nothing for members.
import { Link, NavLink } from 'react-router-dom';
import { useIsModerator } from '../../hooks/useMyAccount';
import { moderationLabel, useOpenReportsCount } from '../../hooks/useOpenReportsCount';
import './ModerationLink.css';

const badgeText = (count: number) => (count > 99 ? '99+' : String(count));

export function ModerationLink() {
  const moderator = useIsModerator();
  const open = useOpenReportsCount();
  if (!moderator) return null;
  return (
    <Link to="/moderation" className="site-moderation" aria-label={moderationLabel(open)} data-testid="header-moderation">
      <svg
        aria-hidden="true"
        focusable="false"
        width="22"
        height="22"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d="M12 22s8-4 8-10V5l-8-3-8 3v7c0 6 8 10 8 10z" />
      </svg>
      {open ? (
        <span className="site-moderation-badge" aria-hidden="true" data-testid="moderation-badge">
          {badgeText(open)}
        </span>
      ) : null}
    </Link>
  );
}

/** The same way in the phone's menu (the header's items are few there). */
export function ModerationMenuLink() {
  const moderator = useIsModerator();
  const open = useOpenReportsCount();
  if (!moderator) return null;
  return (
    <NavLink to="/moderation" className="site-menu-moderation" aria-label={moderationLabel(open)}>
      Moderation{open ? ` (${badgeText(open)})` : ''}
    </NavLink>
  );
}
