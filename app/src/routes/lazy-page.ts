// A page in a chunk of its own (first load) that renders at once when its chunk is already
// there. React.lazy alone suspends on first render even then, and React 19 reveals what replaces a
// Suspense fallback no sooner than 300 ms after the fallback appeared: a revisit's topic page showed
// an empty page for about 200 ms after its chunk had loaded. main.tsx preloads the page the app
// opens at (its chunk is precached, and preloaded by the server's page on a first visit), so that
// page renders with no fallback; pages opened later still go through React.lazy and Suspense.
import { createElement, lazy, useState, type ComponentType } from 'react';

export type LazyPage = ComponentType & { preload(): Promise<void> };

export function lazyPage(load: () => Promise<ComponentType>): LazyPage {
  let loaded: ComponentType | null = null;
  let loading: Promise<ComponentType> | null = null;
  const fetchPage = () => {
    loading ??= load().then(
      (page) => (loaded = page),
      (error: unknown) => {
        loading = null; // a chunk that failed (offline before it was cached) is asked again next time
        throw error;
      },
    );
    return loading;
  };
  const Suspending = lazy(async () => ({ default: await fetchPage() }));
  function Page() {
    // Chosen once per mount: switching from the lazy wrapper to the page itself would remount it.
    const [page] = useState(() => loaded);
    return createElement(page ?? Suspending);
  }
  return Object.assign(Page, { preload: async () => void (await fetchPage()) });
}
