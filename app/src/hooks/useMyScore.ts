// The signed-in user's points and rank for the header, live; null when signed out or
// when there is no score to show.
import type { UserScore } from '../../../shared/types';
import { useData } from './useData';
import { useObservable } from './useObservable';
import { useMemo } from 'react';

export function useMyScore(): UserScore | null {
  const data = useData();
  const score$ = useMemo(() => data.score$(), [data]);
  return useObservable(score$).value ?? null;
}
