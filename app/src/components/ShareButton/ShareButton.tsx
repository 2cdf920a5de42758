// "Share" on a topic, where the device has a share sheet (the Web Share API: phones, some desktops):
// the sheet gets the topic's title and its address, whose page carries the topic's share card
// (sync-server/src/routes/share-card.ts). Elsewhere there is no button; the address bar is the way.
import { useState } from 'react';

interface ShareButtonProps {
  title: string;
  /** The page's path, e.g. /topics/{id}. */
  path: string;
}

export const SHARE_FAILED = "Couldn't open the share sheet. Copy the address from the address bar instead.";

const canShare = () => typeof navigator !== 'undefined' && typeof navigator.share === 'function';

export function ShareButton({ title, path }: ShareButtonProps) {
  const [error, setError] = useState<string | null>(null);
  if (!canShare()) return null;
  async function share() {
    setError(null);
    try {
      await navigator.share({ title, url: new URL(path, window.location.origin).href });
    } catch (e) {
      // Closing the sheet without choosing is not a failure.
      if (e instanceof DOMException && e.name === 'AbortError') return;
      setError(SHARE_FAILED);
    }
  }
  return (
    <>
      <button type="button" className="btn btn-small btn-ghost" onClick={() => void share()} aria-label={`Share topic: ${title}`}>
        Share
      </button>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
