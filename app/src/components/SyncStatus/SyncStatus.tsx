// Header pill: offline / syncing / pending changes, with the last sync time. The
// UI never waits for sync; this only tells the user where their changes are.
// When the server speaks a newer sync protocol nothing syncs until a reload, so
// the pill turns into an alert with a Reload button. When the account can no
// longer sign requests (removed, disabled, session revoked) the pill gives way to
// SessionEnded: a strip under the header that says so and offers Sign in, never "Offline".
// When the server asked to slow down (429), the pill counts down to the retry: the
// changes stay queued and go by themselves ("Slow down — trying again in 12 s").
import { useEffect, useState } from 'react';
import { MSG } from '../../../../shared/messages';
import { relativeTime } from '../../../../shared/rules/relative-time';
import { useSyncStatus } from '../../hooks/useSyncStatus';
import './SyncStatus.css';

/** "Slow down — trying again in 12 s": the pill while writes wait out a 429 (rounded up, at least 1 s). */
export function rateLimitText(waitMs: number): string {
  return `Slow down — trying again in ${Math.max(1, Math.ceil(waitMs / 1000))} s`;
}

/** Now, re-read every second while `until` is ahead (a countdown); null when nothing to count. */
function useCountdown(until: number | null | undefined): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!until) return;
    const tick = () => setNow(Date.now());
    const first = setTimeout(tick, 0); // a new wait: count from now, not from the last tick
    const timer = setInterval(tick, 1000);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [until]);
  return until && until > now ? until - now : null;
}

export function SyncStatus() {
  const state = useSyncStatus();
  const wait = useCountdown(state?.rateLimitedUntil);
  if (!state || state.sessionEnded) return null;
  if (state.updateRequired) {
    return (
      <span className="sync-status is-update" role="alert" data-testid="sync-status">
        <span>{state.lastError ?? MSG.syncOutdated}</span>
        <button type="button" className="sync-reload" onClick={() => window.location.reload()}>
          Reload
        </button>
      </span>
    );
  }
  const last = state.lastSyncedAt ? `Last synced ${relativeTime(state.lastSyncedAt)}` : 'Not synced yet';
  let label: string | null = null;
  if (!state.online) label = state.pending ? `Offline · ${state.pending} to sync` : 'Offline';
  else if (wait !== null) label = rateLimitText(wait);
  else if (state.pending) label = `Syncing ${state.pending}…`;
  if (!label) return null;
  return (
    <span className={`sync-status${state.online ? '' : ' is-offline'}`} role="status" title={last} data-testid="sync-status">
      <span aria-hidden="true" className="sync-dot" /> {label}
    </span>
  );
}

/** "send 1 change" / "send 3 changes". */
export function sessionEndedText(pending: number): string {
  if (pending <= 0) return 'Your session has ended: sign in again';
  return `Your session has ended: sign in again to send ${pending} ${pending === 1 ? 'change' : 'changes'}`;
}

/** The strip under the header while the session has ended; its changes stay on the device. */
export function SessionEnded({ onSignIn }: { onSignIn: () => void }) {
  const state = useSyncStatus();
  if (!state?.sessionEnded) return null;
  return (
    <div className="session-ended" role="alert" data-testid="session-ended">
      <span>{sessionEndedText(state.pending)}</span>
      <button type="button" className="btn btn-small session-ended-sign-in" onClick={onSignIn}>
        Sign in
      </button>
    </div>
  );
}
