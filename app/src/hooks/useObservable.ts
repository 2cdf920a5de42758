import { useEffect, useState } from 'react';
import type { Subscribable } from './store';

export interface ObservableState<T> { value: T | undefined; error: unknown; loading: boolean }

/** Subscribes to what `make` returns while `key` stays the same; `undefined` until the first value. */
export function useObservable<T>(make: () => Subscribable<T> | null, key: string): ObservableState<T> {
  const [state, setState] = useState<ObservableState<T> & { key: string }>({ value: undefined, error: null, loading: true, key });
  useEffect(() => {
    const source = make();
    if (!source) {
      setState({ value: undefined, error: null, loading: false, key });
      return;
    }
    setState((s) => (s.key === key ? s : { value: s.value, error: null, loading: true, key }));
    const sub = source.subscribe(
      (value) => setState({ value, error: null, loading: false, key }),
      (error) => setState((s) => ({ ...s, error, loading: false, key })),
    );
    return () => sub.unsubscribe();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` stands for everything `make` reads
  }, [key]);
  return state;
}
