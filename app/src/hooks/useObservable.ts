// Binds a component to one of the data layer's rxjs Observables: its latest value,
// its error, and whether the current source has not emitted yet.
import { startTransition, useEffect, useState } from 'react';
import type { Observable } from 'rxjs';
import { givesValueAtOnce } from '../data/first-page';

export interface ObservableState<T> {
  value: T | undefined;
  error: unknown;
  loading: boolean;
}

type Held<T> = ObservableState<T> & { source: Observable<T> | null };

export interface ObservableOptions {
  /**
   * Render each value in a transition: React then renders in slices of a few milliseconds and
   * yields between them, instead of one task. For sources whose values redraw much of a page
   * (a topic's rows, panels over all its responses) and arrive while a sync stores page after
   * page: on a slow phone such a render is 100–200 ms, a frozen screen if done at once.
   */
  transition?: boolean;
}

/**
 * Subscribes to `source` while it stays the same object (memoise it: a new Observable
 * is a new subscription); null subscribes to nothing. When the source changes, the
 * previous value stays shown with `loading` true until the new one emits, so a grown
 * page keeps its rows instead of flashing empty.
 */
export function useObservable<T>(source: Observable<T> | null, options: ObservableOptions = {}): ObservableState<T> {
  const [held, setHeld] = useState<Held<T>>(() => initialHeld(source));
  const { transition = false } = options;
  useEffect(() => {
    if (!source) return;
    const show = (value: T) => setHeld({ value, error: null, loading: false, source });
    const subscription = source.subscribe({
      next: (value) => (transition ? startTransition(() => show(value)) : show(value)),
      error: (error: unknown) => setHeld((s) => ({ ...heldFor(s, source), error, loading: false })),
    });
    return () => subscription.unsubscribe();
  }, [source, transition]);
  // What is held may still belong to the previous source: answer for the current one.
  const { value, error, loading } = heldFor(held, source);
  return { value, error, loading };
}

/**
 * On only for the app's first render of a page with a first screen (main.tsx): a source that gives
 * that screen's value at once (data/first-page.ts marks them; no other source is read here) is then
 * shown in the first commit. The effect below subscribes only after the commit, and the second commit with the
 * rows would follow a frame without them (rows painted from a kept page's HTML would flash away).
 * Off everywhere else: a peek would run a local database query twice.
 */
let peekFirstValues = false;

/** main.tsx: on for its first render, off once that render is committed. */
export function firstValuesAtOnce(on: boolean): void {
  peekFirstValues = on;
}

function initialHeld<T>(source: Observable<T> | null): Held<T> {
  const held: Held<T> = { value: undefined, error: null, loading: source !== null, source };
  if (!source || !peekFirstValues || !givesValueAtOnce(source)) return held;
  let first: Held<T> | null = null;
  // A synchronous first value only; the subscription ends at once (the effect makes its own).
  source
    .subscribe({
      next: (value) => (first ??= { value, error: null, loading: false, source }),
      error: () => undefined, // the effect's subscription reports it
    })
    .unsubscribe();
  return first ?? held;
}

function heldFor<T>(held: Held<T>, source: Observable<T> | null): Held<T> {
  if (held.source === source) return held;
  return source ? { value: held.value, error: null, loading: true, source } : { value: undefined, error: null, loading: false, source };
}
