// Live responses of a topic by type, for the topic header's balance bar.
import { useMemo } from 'react';
import { useData } from './useData';
import { useObservable } from './useObservable';

export type { ResponseBalance } from '../data/api';

export function useResponseBalance(topicId: string) {
  const data = useData();
  const balance$ = useMemo(() => data.responseBalance$(topicId), [data, topicId]);
  const { value, error, loading } = useObservable(balance$, { transition: true });
  return { balance: value, error, loading };
}
