// The settings page's push section: one button for this device, then what push sends. Nothing asks
// for the browser's permission until the button is pressed. While turning on or off, the button says
// what it is doing (and is busy for screen readers); every failure says its own cause.
import { useEffect, useState } from 'react';
import { usePushDevice } from '../../hooks/usePushDevice';
import { pushState, PUSH_TEXT, type PushState } from '../../push/device';
import { PushKinds } from './PushKinds';
import type { PushPreferences } from './usePushPreferences';
import './PushSettings.css';

type Busy = 'on' | 'off' | null;

export function PushSettings({ prefs }: { prefs: PushPreferences }) {
  const [state, setState] = useState<PushState | null>(null);
  const [busy, setBusy] = useState<Busy>(null);
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
    // aria-disabled, not disabled, while busy: the button keeps keyboard focus, and a second press does nothing.
    if (busy) return;
    setBusy(on ? 'on' : 'off');
    setError(null);
    try {
      if (on) await device.turnOn();
      else await device.turnOff();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setState(await pushState());
      setBusy(null);
    }
  }

  return (
    <section className="settings-section push-settings" aria-labelledby="push-settings-heading">
      <h2 id="push-settings-heading">{PUSH_TEXT.heading}</h2>
      <p className="muted">{PUSH_TEXT.explain}</p>
      {state === null ? (
        // Not a live region: it lasts a moment, and the page's own loading status is the one to hear.
        <p className="status-text">{PUSH_TEXT.checking}</p>
      ) : state === 'unsupported' ? (
        <>
          <p className="status-text">{PUSH_TEXT.unsupported}</p>
          <p className="muted">{PUSH_TEXT.iphone}</p>
        </>
      ) : state === 'on' ? (
        <div className="push-settings-row">
          <p className="push-settings-on">{PUSH_TEXT.on}</p>
          <DeviceButton busy={busy === 'off'} onClick={() => void change(false)}>
            {busy === 'off' ? PUSH_TEXT.turningOff : PUSH_TEXT.turnOff}
          </DeviceButton>
        </div>
      ) : state === 'denied' ? (
        <p className="status-text">{PUSH_TEXT.denied}</p>
      ) : (
        <DeviceButton primary busy={busy === 'on'} onClick={() => void change(true)}>
          {busy === 'on' ? PUSH_TEXT.turningOn : PUSH_TEXT.turnOn}
        </DeviceButton>
      )}
      {/* Heard once: what the button now says, then how it ended (the alert below, or the new state). */}
      <p className="visually-hidden" role="status">
        {busy === 'on' ? PUSH_TEXT.turningOn : busy === 'off' ? PUSH_TEXT.turningOff : ''}
      </p>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      <PushKinds prefs={prefs} />
    </section>
  );
}

function DeviceButton({
  busy,
  primary = false,
  onClick,
  children,
}: {
  busy: boolean;
  primary?: boolean;
  onClick: () => void;
  children: string;
}) {
  return (
    <button
      type="button"
      className={`btn${primary ? ' btn-primary' : ''} push-settings-button`}
      aria-busy={busy}
      aria-disabled={busy}
      onClick={onClick}
    >
      {busy && <span className="push-settings-spinner" aria-hidden="true" />}
      {children}
    </button>
  );
}
