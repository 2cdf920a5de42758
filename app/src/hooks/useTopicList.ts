// The topic list page by page: online the server's pages, offline the topics kept on this device
// (then `savedOnDevice` says how many there are).
import { useCallback, useMemo, useState } from 'react';
import { map, of } from 'rxjs';
import { PAGE_SIZE, type Sort } from '../../../shared/constants';
import type { TopicQuery, TopicView } from '../data';
import { isCategory } from '../../../shared/rules/category';
import { useData } from './useData';
import { useObservable } from './useObservable';

/**
 * The next page is asked for when the last one was full; paging restarts when sort,
 * category or the signed-in user change.
 */
export function useTopicList(sort: Sort, category: string | null, uid: string | null) {
  const data = useData();
  const resetKey = `${sort}|${category ?? ''}|${uid ?? ''}`;
  // Pages belong to one sort/category/user: a new key starts again at page 1 in the same render.
  const [paging, setPaging] = useState({ key: resetKey, pages: 1 });
  const pages = paging.key === resetKey ? paging.pages : 1;
  const limit = pages * PAGE_SIZE;
  const topics$ = useMemo(() => {
    if (category === null) return data.topics$({ sort, limit });
    // A category the site does not have (typed in the URL) lists nothing, and the page says so.
    return isCategory(category) ? data.topics$({ sort, category, limit }) : of<TopicView[]>([]);
  }, [data, sort, category, limit]);
  const { value, error, loading } = useObservable(topics$);
  const savedOnDevice = useSavedOnDevice(
    category === null || isCategory(category) ? { sort, ...(category ? { category } : {}), limit } : null,
  );
  const topics = value ?? [];
  const lastPageFull = topics.length >= limit;
  const loadMore = useCallback(() => {
    if (!loading && lastPageFull) setPaging({ key: resetKey, pages: pages + 1 });
  }, [loading, lastPageFull, resetKey, pages]);
  // A grown page keeps the rows it had while the next ones are read: that is "loading more".
  const loadingMore = loading && value !== undefined && pages > 1;
  return {
    topics,
    error,
    loading,
    initialLoading: loading && value === undefined,
    loadingMore,
    hasMore: lastPageFull,
    loadMore,
    savedOnDevice,
  };
}

/** How many topics this device holds for a list it shows from the device (offline), else null (the server's list). */
export function useSavedOnDevice(query: TopicQuery | null): number | null {
  const data = useData();
  const key = JSON.stringify(query);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by the query's value, not its object
  const list$ = useMemo(() => (query ? data.topicList$(query).pipe(map((list) => list.savedOnDevice)) : of(null)), [data, key]);
  return useObservable(list$).value ?? null;
}
