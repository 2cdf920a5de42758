import { SEARCH_DEBOUNCE_MS, type Sort } from '../../../shared/constants';
import { getStore } from './store';
import { useDebouncedValue } from './useDebouncedValue';
import { useObservable } from './useObservable';

/** Search results for the box's text after a 300 ms pause; failures are silent (empty). */
export function useTopicSearch(text: string, sort: Sort) {
  const query = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const { value, loading } = useObservable(() => (query ? getStore().searchTopics(query, sort) : null), `${query}|${sort}`);
  const pending = text.trim() !== query || loading;
  return { results: value ?? [], searching: pending };
}
