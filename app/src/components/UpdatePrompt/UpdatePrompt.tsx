// Service worker registration. The worker activates at once (skipWaiting +
// clientsClaim, so offline works from the first visit); when an update takes
// over a page that runs the old version, the user is offered a reload.
import { useEffect, useState } from 'react';
import { Workbox } from 'workbox-window';
import { removeOtherBuildsTopicPages } from '../../service-worker/topic-pages';

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
  return (
    <div className="update-prompt card" role="status">
      <span>A new version of Crux is available.</span>
      <button type="button" className="btn btn-primary btn-small" onClick={() => window.location.reload()}>
        Reload
      </button>
    </div>
  );
}
