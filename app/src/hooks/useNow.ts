import { useSyncExternalStore } from 'react';

// One shared minute ticker so "5 minutes ago" stays true on a page left open.
const TICK_MS = 30_000;
let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | null = null;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!timer) now = Date.now();
  timer ??= setInterval(() => {
    now = Date.now();
    listeners.forEach((l) => l());
  }, TICK_MS);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/** The current time, refreshed every 30 s, for relative times. */
export function useNow(): Date {
  return new Date(
    useSyncExternalStore(
      subscribe,
      () => now,
      () => now,
    ),
  );
}
