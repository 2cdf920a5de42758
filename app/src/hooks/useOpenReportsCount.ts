// The count of open reports for a moderator's header badge: asked of the server
// (GET /api/moderation/reports?status=open&limit=0 → total) every 20 s while the page is visible,
// at once when the window gets focus back, and after a moderator's action (moderationChanged).
// One poller per data layer, shared by every badge on screen (the header's and the phone menu's).
// null for everyone else, and while not known.
import { useCallback, useSyncExternalStore } from 'react';
import type { CruxData } from '../data';
import { useData } from './useData';
import { useIsModerator } from './useMyAccount';

export const OPEN_REPORTS_POLL_MS = 20_000;
const CHANGED = 'crux:moderation-changed';

/** Tells the badge a moderator acted here: it asks again at once. */
export function moderationChanged(): void {
  window.dispatchEvent(new Event(CHANGED));
}

interface Poller {
  count: number | null;
  listeners: Set<() => void>;
  stop: (() => void) | null;
}

const pollers = new WeakMap<CruxData, Poller>();

function pollerOf(data: CruxData): Poller {
  let poller = pollers.get(data);
  if (!poller) {
    poller = { count: null, listeners: new Set(), stop: null };
    pollers.set(data, poller);
  }
  return poller;
}

function start(data: CruxData, poller: Poller): () => void {
  let alive = true;
  const visible = () => document.visibilityState !== 'hidden';
  const refresh = () => {
    if (!visible()) return;
    data.moderationQueue('open', 0, 0).then(
      (page) => {
        if (!alive || poller.count === page.total) return;
        poller.count = page.total;
        poller.listeners.forEach((listener) => listener());
      },
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
}

export function useOpenReportsCount(): number | null {
  const data = useData();
  const moderator = useIsModerator();
  const subscribe = useCallback(
    (listener: () => void) => {
      if (!moderator) return () => undefined;
      const poller = pollerOf(data);
      poller.listeners.add(listener);
      poller.stop ??= start(data, poller);
      return () => {
        poller.listeners.delete(listener);
        if (poller.listeners.size === 0) {
          poller.stop?.();
          poller.stop = null;
          poller.count = null;
        }
      };
    },
    [data, moderator],
  );
  const count = useSyncExternalStore(
    subscribe,
    () => pollerOf(data).count,
    () => null,
  );
  return moderator ? count : null;
}

export function moderationLabel(open: number | null): string {
  if (!open) return 'Moderation';
  return `Moderation, ${open} open ${open === 1 ? 'report' : 'reports'}`;
}
