// The notifications page's push section: what push sends, and one button for this
// device. Nothing asks for the browser's permission until the button is pressed.
import { useEffect, useState } from 'react';
import { usePushDevice } from '../../hooks/usePushDevice';
import { pushState, PUSH_TEXT, type PushState } from '../../push/device';
import { PushKinds } from './PushKinds';
import './PushSettings.css';

export function PushSettings() {
  const [state, setState] = useState<PushState | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const device = usePushDevice();

  useEffect(() => {
    let live = true;
    void pushState().then((next) => live && setState(next));
    return () => {
      live = false;
    };
  }, []);

  async function change(on: boolean) {
    setBusy(true);
    setError(null);
    try {
      if (on) await device.turnOn();
      else await device.turnOff();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setState(await pushState());
      setBusy(false);
    }
  }

  return (
    <section className="push-settings" aria-labelledby="push-settings-heading">
      <h2 id="push-settings-heading">{PUSH_TEXT.heading}</h2>
      <p className="muted">{PUSH_TEXT.explain}</p>
      {state === null ? (
        // Not a live region: it lasts a moment, and the page's own loading status is the one to hear.
        <p className="status-text">Checking this device…</p>
      ) : state === 'unsupported' ? (
        <p className="status-text">{PUSH_TEXT.unsupported}</p>
      ) : state === 'on' ? (
        <div className="push-settings-row">
          <p className="push-settings-on">{PUSH_TEXT.on}</p>
          <button type="button" className="btn" disabled={busy} onClick={() => void change(false)}>
            {PUSH_TEXT.turnOff}
          </button>
        </div>
      ) : (
        <>
          {state === 'denied' && <p className="status-text">{PUSH_TEXT.denied}</p>}
          <button type="button" className="btn btn-primary" disabled={busy || state === 'denied'} onClick={() => void change(true)}>
            {PUSH_TEXT.turnOn}
          </button>
        </>
      )}
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      <PushKinds />
    </section>
  );
}
