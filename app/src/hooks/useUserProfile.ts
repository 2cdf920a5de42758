// A user's page (name, points, rank, topics, responses), kept for offline reading.
import { useMemo } from 'react';
import { useData } from './useData';
import { useObservable } from './useObservable';

export function useUserProfile(uid: string) {
  const data = useData();
  const profile$ = useMemo(() => data.userProfile$(uid), [data, uid]);
  const { value, error } = useObservable(profile$);
  // A copy still held from the previous user while the new one loads is not shown.
  const copy = value && (value.value === null || value.value.uid === uid) ? value : undefined;
  return { copy, error };
}
