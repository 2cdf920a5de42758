// What this device could not keep (storage-fallback.ts reports each store that moved to memory),
// gathered into the one note the screens show: why, and whose data it is.
import { BehaviorSubject, type Observable } from 'rxjs';
import type { StorageNote } from './api.js';
import type { StorageShortfall } from './storage-fallback.js';

/** A user's database is named `<prefix>-user-…` (db.ts userDbName); every other is the public one. */
const isUserDatabase = (databaseName: string) => databaseName.includes('-user-');

export function createStorageShortfalls(): { add(shortfall: StorageShortfall): void; note$: Observable<StorageNote | null> } {
  const note = new BehaviorSubject<StorageNote | null>(null);
  return {
    add(shortfall) {
      const before = note.value;
      const user = isUserDatabase(shortfall.databaseName);
      const next: StorageNote = {
        // A store that could not open says more than one that filled up: it is the one shown.
        failure: before?.failure === 'unavailable' ? 'unavailable' : shortfall.failure,
        publicData: (before?.publicData ?? false) || !user,
        userData: (before?.userData ?? false) || user,
      };
      if (before && before.failure === next.failure && before.publicData === next.publicData && before.userData === next.userData) return;
      note.next(next);
    },
    note$: note.asObservable(),
  };
}
