// Bottom sentinel: calls onVisible whenever it scrolls into view (SPEC.md §4 paging).
import { useEffect, useRef } from 'react';

export function InfiniteSentinel({ onVisible, loading }: { onVisible: () => void; loading: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  const callback = useRef(onVisible);
  callback.current = onVisible;
  useEffect(() => {
    const node = ref.current;
    if (!node || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) callback.current();
    }, { rootMargin: '200px' });
    observer.observe(node);
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={ref} data-testid="list-sentinel" className="list-sentinel" style={{ minHeight: 32 }}>
      {loading && <p className="status-text" role="status">Loading more...</p>}
    </div>
  );
}
