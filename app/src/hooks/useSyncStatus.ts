// Replication state for the header pill; undefined until the data layer reports.
import type { SyncStatus } from '../data';
import { useData } from './useData';
import { useObservable } from './useObservable';

export type { SyncStatus } from '../data';

export function useSyncStatus(): SyncStatus | undefined {
  // status$ is one shared Observable of the data layer: stable, no memo needed.
  return useObservable(useData().status$).value;
}
