// The data layer of the surrounding <DataProvider>: what every other hook reads and writes through.
// The context travels in React, not in a module singleton: each render tree (the app, a test)
// gets the CruxData it was given.
import { createContext, useContext } from 'react';
import type { CruxData } from '../data';

/** Set by <DataProvider> (context/DataProvider.tsx), read by useData(). */
export const DataContext = createContext<CruxData | null>(null);

export function useData(): CruxData {
  const data = useContext(DataContext);
  if (!data) throw new Error('useData() needs a <DataProvider> (or <UnavailableDataProvider>) above it.');
  return data;
}
