// The data layer of the surrounding <DataProvider>: what every other hook reads and writes through.
import { useContext } from 'react';
import type { CruxData } from '../data';
import { DataContext } from '../context/data-context';

export function useData(): CruxData {
  const data = useContext(DataContext);
  if (!data) throw new Error('useData() needs a <DataProvider> (or <UnavailableDataProvider>) above it.');
  return data;
}
