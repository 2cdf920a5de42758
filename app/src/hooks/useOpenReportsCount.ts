// The count of open reports for a moderator's header badge (issue 23): asked of the server
// (GET /api/moderation/reports?status=open&limit=0 → total) every 20 s while the page is visible,
// at once when the window gets focus back, and after a moderator's action (moderationChanged).
// null for everyone else, and while not known.
import { useEffect, useState } from 'react';
import { useData } from './useData';
import { useIsModerator } from './useMyAccount';

export const OPEN_REPORTS_POLL_MS = 20_000;
const CHANGED = 'crux:moderation-changed';

/** Tells the badge a moderator acted here: it asks again at once. */
export function moderationChanged(): void {
  window.dispatchEvent(new Event(CHANGED));
}

export function useOpenReportsCount(): number | null {
  const data = useData();
  const moderator = useIsModerator();
  const [count, setCount] = useState<number | null>(null);
  useEffect(() => {
    if (!moderator) return;
    let alive = true;
    const visible = () => typeof document === 'undefined' || document.visibilityState !== 'hidden';
    const refresh = () => {
      if (!visible()) return;
      data.moderationQueue('open', 0, 0).then(
        (page) => alive && setCount(page.total),
        // Offline or refused: the last count stays.
        () => undefined,
      );
    };
    refresh();
    const timer = setInterval(refresh, OPEN_REPORTS_POLL_MS);
    window.addEventListener('focus', refresh);
    window.addEventListener(CHANGED, refresh);
    document.addEventListener('visibilitychange', refresh);
    return () => {
      alive = false;
      clearInterval(timer);
      window.removeEventListener('focus', refresh);
      window.removeEventListener(CHANGED, refresh);
      document.removeEventListener('visibilitychange', refresh);
    };
  }, [data, moderator]);
  return moderator ? count : null;
}

export function moderationLabel(open: number | null): string {
  if (!open) return 'Moderation';
  return `Moderation, ${open} open ${open === 1 ? 'report' : 'reports'}`;
}
