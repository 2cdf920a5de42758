// The browser tab's title while a page shows: its own name, then "Crux" again when it goes. A first
// visit's HTML already carries a topic's title (sync-server/src/routes/share-card.ts); in-app
// navigation keeps the tab in step with it.
import { useEffect } from 'react';

export const SITE_TITLE = 'Crux';

/** `title` (none: the site's name alone) in the tab while the calling page is mounted. */
export function useDocumentTitle(title: string | null | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} – ${SITE_TITLE}` : SITE_TITLE;
    return () => {
      document.title = SITE_TITLE;
    };
  }, [title]);
}
