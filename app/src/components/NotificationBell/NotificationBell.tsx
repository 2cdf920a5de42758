// Signed-in header items, both live from the data layer: the points-and-rank link to the
// leaderboard (hidden while there is no score; no rank until there are points, as the leaderboard
// lists only users with points) and the notification bell with its unread badge. The numbers are
// in the accessible names too, not only on screen.
import { Link } from 'react-router-dom';
import { shownRank } from '../../../../shared/rules/rank';
import { useMyScore } from '../../hooks/useMyScore';
import { useUnreadCount } from '../../hooks/useUnreadCount';
import './NotificationBell.css';

export function scoreText(points: number, rank: number | null | undefined): string {
  const pts = `${points} ${points === 1 ? 'pt' : 'pts'}`;
  const shown = shownRank(points, rank);
  return shown ? `${pts} · #${shown}` : pts;
}

export function ScoreLink() {
  const score = useMyScore();
  if (!score) return null;
  const rank = shownRank(score.points, score.rank);
  const label = `${score.points} ${score.points === 1 ? 'point' : 'points'}${rank ? `, rank ${rank}` : ''}: leaderboard`;
  return (
    <Link to="/leaderboard" className="site-score" aria-label={label} data-testid="header-score">
      {scoreText(score.points, score.rank)}
    </Link>
  );
}

export function notificationsLabel(unread: number): string {
  return unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';
}

export function NotificationBell() {
  const unread = useUnreadCount();
  return (
    <Link to="/notifications" className="site-bell" aria-label={notificationsLabel(unread)}>
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
        <path d="M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9" />
        <path d="M13.73 21a2 2 0 0 1-3.46 0" />
      </svg>
      {unread > 0 && (
        <span className="site-bell-badge" aria-hidden="true" data-testid="unread-badge">
          {unread > 99 ? '99+' : unread}
        </span>
      )}
    </Link>
  );
}
