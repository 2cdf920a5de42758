// What the device's storage could not keep (data/storage-fallback.ts), for the note every page shows.
import { useMemo } from 'react';
import type { StorageNote } from '../data';
import { useData } from './useData';
import { useObservable } from './useObservable';

export type { StorageNote };

export function useStorageNote(): StorageNote | null {
  const data = useData();
  const note$ = useMemo(() => data.storageNote$(), [data]);
  return useObservable(note$).value ?? null;
}
