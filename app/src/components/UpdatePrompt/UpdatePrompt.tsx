// Service worker registration (registerType 'prompt'): offers a reload when a new version is waiting.
import { useEffect, useState } from 'react';
import { Workbox } from 'workbox-window';

export function UpdatePrompt() {
  const [workbox, setWorkbox] = useState<Workbox | null>(null);
  const [waiting, setWaiting] = useState(false);
  useEffect(() => {
    if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
    const wb = new Workbox('/sw.js', { scope: '/' });
    wb.addEventListener('waiting', () => setWaiting(true));
    wb.register().catch(() => undefined);
    setWorkbox(wb);
  }, []);
  if (!waiting || !workbox) return null;
  return (
    <div className="update-prompt card" role="status">
      <span>A new version of Crux is available.</span>
      <button type="button" className="btn btn-primary btn-small" onClick={() => {
        workbox.addEventListener('controlling', () => window.location.reload());
        workbox.messageSkipWaiting();
      }}>Reload</button>
    </div>
  );
}
