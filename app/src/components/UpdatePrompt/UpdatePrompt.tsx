// Service worker registration. The worker activates at once (skipWaiting +
// clientsClaim, so offline works from the first visit); when an update takes
// over a page that runs the old version, the user is offered a reload.
import { useEffect, useState } from 'react';
import { Workbox } from 'workbox-window';
import { removeOtherBuildsTopicPages } from '../../service-worker/topic-pages';
import './UpdatePrompt.css';

export const UPDATE_AVAILABLE = 'A new version of Crux is available.';
/** On <body> while the bar shows: the page keeps room under its end, so the bar covers nothing for good. */
export const UPDATE_BAR_SHOWN = 'update-bar-shown';

/**
 * The offer itself: a bar along the bottom (on a phone the screen's width less its margins, above
 * the home indicator), with Reload and a Later that puts it away until the next update.
 */
export function UpdateBar({ onReload, onLater }: { onReload: () => void; onLater: () => void }) {
  useEffect(() => {
    document.body.classList.add(UPDATE_BAR_SHOWN);
    return () => document.body.classList.remove(UPDATE_BAR_SHOWN);
  }, []);
  return (
    <div className="update-prompt card" role="status" aria-label="App update">
      <span className="update-prompt-text">{UPDATE_AVAILABLE}</span>
      <span className="update-prompt-actions">
        <button type="button" className="btn btn-primary btn-small" onClick={onReload}>
          Reload
        </button>
        <button type="button" className="btn btn-ghost btn-small" onClick={onLater}>
          Later
        </button>
      </span>
    </div>
  );
}

export function UpdatePrompt() {
  const [updated, setUpdated] = useState(false);
  useEffect(() => {
    if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
    const wb = new Workbox('/sw.js', { scope: '/' });
    wb.addEventListener('controlling', (event) => {
      if (event.isUpdate) setUpdated(true);
    });
    wb.register().catch(() => undefined);
    void removeOtherBuildsTopicPages();
  }, []);
  if (!updated) return null;
  return <UpdateBar onReload={() => window.location.reload()} onLater={() => setUpdated(false)} />;
}
