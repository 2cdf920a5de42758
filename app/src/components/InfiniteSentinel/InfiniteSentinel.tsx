// Bottom sentinel for infinite paging: onLoadMore is called when the sentinel comes into view,
// and again whenever loading more may have become possible (a page landed, a load finished)
// while it is still near the view: a page that arrives while the sentinel is visible must still
// lead to the next one.
//
// Being near the view is read from the layout each time, never from a remembered observer
// state: the observer reports only changes, and one it reported at a moment the layout was
// about to change (the viewport resized for a full-page capture, the page's rows arriving) is
// stale by the time React runs the check. Trusting it left the list stuck at its first page.
import { useEffect, useRef } from 'react';

const MARGIN_PX = 200;

interface InfiniteSentinelProps {
  onLoadMore: () => void;
  /** Changes whenever loading more may have become possible (e.g. the row count). */
  trigger: unknown;
  loading: boolean;
}

const nearView = (node: HTMLElement) => node.getBoundingClientRect().top < window.innerHeight + MARGIN_PX;

/** Runs `run` in a task after the next frame is rendered (or soon, where there are no frames); returns its cancel. */
function afterNextFrame(run: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (typeof requestAnimationFrame !== 'function') {
    timer = setTimeout(run, 0);
    return () => clearTimeout(timer);
  }
  const frame = requestAnimationFrame(() => (timer = setTimeout(run, 0)));
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}

export function InfiniteSentinel({ onLoadMore, trigger, loading }: InfiniteSentinelProps) {
  const ref = useRef<HTMLDivElement>(null);
  // The observer is made once; it calls whatever onLoadMore the last render gave.
  const loadMore = useRef(onLoadMore);
  /** When the list last changed and its layout was read (performance.now(), the entries' clock). */
  const changedAt = useRef(0);
  useEffect(() => {
    loadMore.current = onLoadMore;
  }, [onLoadMore]);
  useEffect(() => {
    const node = ref.current;
    if (!node || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      // A report observed before the list last changed describes a layout already gone (an empty
      // list between two sorts, whose rows arrived before this callback ran): the check that ran on
      // that change read the layout itself, so the report is stale. A later one is acted on.
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting && !(entry.time < changedAt.current))) loadMore.current();
      },
      { rootMargin: `${MARGIN_PX}px` },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, []);
  useEffect(() => {
    changedAt.current = performance.now();
    // Read once the browser has laid the list out for its next frame. Read here, in the effect,
    // it forced that layout into the task that committed the list: a list coming back with its
    // rows (the way back from a topic) was then one task of 60-110 ms on a slow phone, a third
    // of it that layout. After the frame the layout is done and reading it costs nothing.
    return afterNextFrame(() => {
      const node = ref.current;
      if (node && nearView(node)) onLoadMore();
    });
  }, [trigger, onLoadMore]);
  return (
    <div ref={ref} data-testid="list-sentinel" className="list-sentinel" style={{ minHeight: 32 }}>
      {loading && (
        <p className="status-text" role="status">
          Loading more...
        </p>
      )}
    </div>
  );
}
