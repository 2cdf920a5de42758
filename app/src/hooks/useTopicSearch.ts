// Topics whose title matches the search box, after a 300 ms pause: the server's search online, the
// titles kept on this device offline.
import { useMemo } from 'react';
import { SEARCH_DEBOUNCE_MS, type Sort } from '../../../shared/constants';
import { useData } from './useData';
import { useDebouncedValue } from './useDebouncedValue';
import { useObservable } from './useObservable';
import { useSavedOnDevice } from './useTopicList';

/** Search shows one long list, not pages. */
const SEARCH_LIMIT = 50;

/** Failures are silent (no results): the box still offers to create the topic. */
export function useTopicSearch(text: string, sort: Sort) {
  const data = useData();
  const query = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const results$ = useMemo(() => (query ? data.topics$({ search: query, sort, limit: SEARCH_LIMIT }) : null), [data, query, sort]);
  const { value, loading } = useObservable(results$);
  const savedOnDevice = useSavedOnDevice(query ? { search: query, sort, limit: SEARCH_LIMIT } : null);
  const pending = text.trim() !== query || loading;
  return { results: value ?? [], searching: pending, savedOnDevice };
}
