// The sources page: the list for a filter (asked after a 300 ms pause in typing) and "Load more".
import { useMemo, useState } from 'react';
import { useData } from './useData';
import { useDebouncedValue } from './useDebouncedValue';
import { useObservable } from './useObservable';

export type { SourceList } from '../data';

export function useSources() {
  const data = useData();
  const [filter, setFilterText] = useState('');
  const [pages, setPages] = useState(1);
  const debounced = useDebouncedValue(filter.trim(), 300);
  const sources$ = useMemo(() => data.sources$({ filter: debounced, pages }), [data, debounced, pages]);
  const { value: copy, error } = useObservable(sources$);
  return {
    filter,
    /** The filter being shown (after the pause). */
    appliedFilter: debounced,
    setFilter(text: string) {
      setFilterText(text);
      setPages(1);
    },
    loadMore: () => setPages((n) => n + 1),
    copy,
    error,
  };
}
