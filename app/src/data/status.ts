// The sync status the header shows: online, syncing, how many changes wait, the last error.
import { combineLatest, map, type Observable } from 'rxjs';
import { MSG } from '../../../shared/messages.js';
import type { SyncStatus } from './api.js';
import type { Connectivity } from './connectivity.js';
import type { Worlds } from './world.js';

/**
 * `endedPending$`: the unsent changes of the last session closed without removing its data. When
 * that session ended (the account could no longer get a token) they are still on the device and
 * the status keeps counting them, so "sign in again to send N changes" stays true until that sign-in.
 */
export function createStatus(worlds: Worlds, connectivity: Connectivity, endedPending$: Observable<number | null>): Observable<SyncStatus> {
  return worlds.live((w) =>
    combineLatest([
      connectivity.online$,
      w.controller.syncing$,
      w.queries.pendingCount$(),
      connectivity.lastError$,
      connectivity.lastSuccessAt$,
      w.controller.isLeader$,
      connectivity.updateRequired$,
      connectivity.sessionEnded$,
      endedPending$,
      connectivity.rateLimitedUntil$,
    ]).pipe(
      map(
        ([online, syncing, pending, lastError, lastSyncedAt, isLeader, updateRequired, sessionEnded, endedPending, rateLimitedUntil]) => ({
          online,
          syncing,
          pending: sessionEnded && endedPending !== null ? Math.max(pending, endedPending) : pending,
          // Nothing syncs any more, so nothing can clear the message but a reload.
          lastError: updateRequired ? MSG.syncOutdated : lastError,
          lastSyncedAt,
          isLeader,
          updateRequired,
          sessionEnded,
          rateLimitedUntil,
        }),
      ),
    ),
  );
}
