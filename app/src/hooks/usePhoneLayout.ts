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

function subscribe(onChange: () => void): () => void {
  const media = mediaList();
  media?.addEventListener('change', onChange);
  return () => media?.removeEventListener('change', onChange);
}

export function usePhoneLayout(): boolean {
  return useSyncExternalStore(subscribe, () => mediaList()?.matches ?? false);
}
