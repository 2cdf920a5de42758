import { useCallback, useState } from 'react';
import { PAGE_SIZE, type Sort } from '../../../shared/constants';
import type { Topic } from '../../../shared/types';
import { getStore } from './store';
import { useObservable } from './useObservable';

/**
 * Topics page by page (SPEC.md §4): the next page is asked for when the last one
 * was full; paging restarts when sort, category or the signed-in user change.
 */
export function useTopicList(sort: Sort, category: string | null, uid: string | null) {
  const resetKey = `${sort}|${category ?? ''}|${uid ?? ''}`;
  // Pages belong to one sort/category/user: a new key starts again at page 1 in the same render.
  const [paging, setPaging] = useState({ key: resetKey, pages: 1 });
  const pages = paging.key === resetKey ? paging.pages : 1;
  const limit = pages * PAGE_SIZE;
  const { value, error, loading } = useObservable(() => getStore().topics({ sort, category, limit }), `${resetKey}|${limit}`);
  const topics: Topic[] = value ?? [];
  const lastPageFull = topics.length >= limit;
  const loadMore = useCallback(() => {
    if (!loading && lastPageFull) setPaging({ key: resetKey, pages: pages + 1 });
  }, [loading, lastPageFull, resetKey, pages]);
  return { topics, error, loading, initialLoading: loading && value === undefined, hasMore: lastPageFull, loadMore };
}
