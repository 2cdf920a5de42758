// Whether the page is laid out for a phone (viewport at most PHONE_MAX_WIDTH wide): one media query
// list for the whole app, read during render (no layout jump after the first paint) and followed
// when the window is resized or turned. Without matchMedia (jsdom, old browsers): the desktop layout.
import { useSyncExternalStore } from 'react';

/** The phone breakpoint, the same as global.css's `@media (max-width: 600px)`. */
export const PHONE_MAX_WIDTH = 600;
const QUERY = `(max-width: ${PHONE_MAX_WIDTH}px)`;

let list: MediaQueryList | null | undefined;
function mediaList(): MediaQueryList | null {
  if (list === undefined) list = typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(QUERY) : null;
  return list;
}

// Every response row reads it: one listener on the media query for all of them, not one per row.
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

function subscribe(onChange: () => void): () => void {
  const media = mediaList();
  if (listeners.size === 0) media?.addEventListener('change', notify);
  listeners.add(onChange);
  return () => {
    listeners.delete(onChange);
    if (listeners.size === 0) media?.removeEventListener('change', notify);
  };
}

export function usePhoneLayout(): boolean {
  return useSyncExternalStore(subscribe, () => mediaList()?.matches ?? false);
}
