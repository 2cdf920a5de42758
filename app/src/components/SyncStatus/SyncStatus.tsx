// Header pill: offline / syncing / pending changes, with the last sync time. The
// UI never waits for sync; this only tells the user where their changes are.
import { relativeTime } from '../../../../shared/rules/relative-time';
import { useSyncState } from '../../hooks/useSync';
import './SyncStatus.css';

export function SyncStatus() {
  const state = useSyncState();
  if (!state) return null;
  const last = state.lastSyncedAt ? `Last synced ${relativeTime(state.lastSyncedAt)}` : 'Not synced yet';
  let label: string | null = null;
  if (!state.online) label = state.pending ? `Offline · ${state.pending} to sync` : 'Offline';
  else if (state.pending) label = `Syncing ${state.pending}…`;
  if (!label) return null;
  return (
    <span className={`sync-status${state.online ? '' : ' is-offline'}`} role="status" title={last} data-testid="sync-status">
      <span aria-hidden="true" className="sync-dot" /> {label}
    </span>
  );
}
