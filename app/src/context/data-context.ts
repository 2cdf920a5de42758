// The React context the data layer travels in: set by <DataProvider>, read by useData().
// No module singleton: each render tree (the app, a test) gets the CruxData it was given.
import { createContext } from 'react';
import type { CruxData } from '../data';

export const DataContext = createContext<CruxData | null>(null);
