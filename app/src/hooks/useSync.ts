import { getStore, type SyncIssue, type SyncState } from './store';
import { useObservable } from './useObservable';

/** Replication state for the header; undefined until the store reports. */
export function useSyncState(): SyncState | undefined {
  return useObservable(() => getStore().syncState(), 'sync-state').value;
}

/** Writes the server refused, to show and fix or discard (never dropped silently). */
export function useSyncIssues(uid: string | null): SyncIssue[] {
  return useObservable(() => getStore().syncIssues(), `sync-issues|${uid ?? ''}`).value ?? [];
}
