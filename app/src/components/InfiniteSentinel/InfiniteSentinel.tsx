// Bottom sentinel (SPEC.md §4 paging): while it is in view, onLoadMore is called
// whenever it may do something (after each page lands), not only when the
// sentinel enters the view: a page that arrives while it is already visible
// must still lead to the next one.
import { useEffect, useRef, useState } from 'react';

const MARGIN_PX = 200;

interface InfiniteSentinelProps {
  onLoadMore: () => void;
  /** Changes whenever loading more may have become possible (e.g. the row count). */
  trigger: unknown;
  loading: boolean;
}

export function InfiniteSentinel({ onLoadMore, trigger, loading }: InfiniteSentinelProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const node = ref.current;
    if (!node || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => setVisible(entries.some((e) => e.isIntersecting)), {
      rootMargin: `${MARGIN_PX}px`,
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, []);
  useEffect(() => {
    // The observer reports asynchronously: re-check the geometry now that the new rows are laid out.
    const node = ref.current;
    if (visible && node && node.getBoundingClientRect().top < window.innerHeight + MARGIN_PX) onLoadMore();
  }, [visible, trigger, onLoadMore]);
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
