// Hands the data layer to the screens: the local database once it opened, or, when it
// could not (e.g. storage blocked), a stand-in whose reads fail and writes reject with the reason.
import { useMemo, type ReactNode } from 'react';
import type { CruxData } from '../data';
import { DataContext } from '../hooks/useData';
import { unavailableData } from '../data/unavailable';

export function DataProvider({ data, children }: { data: CruxData; children: ReactNode }) {
  return <DataContext.Provider value={data}>{children}</DataContext.Provider>;
}

/** Every page then shows its 'Error: <reason>' state instead of loading forever. */
export function UnavailableDataProvider({ reason, children }: { reason: string; children: ReactNode }) {
  const data = useMemo(() => unavailableData(reason), [reason]);
  return <DataProvider data={data}>{children}</DataProvider>;
}
