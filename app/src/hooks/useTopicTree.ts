// The topic page's tree state, shared with every response through context.
import { createContext, useCallback, useContext, useMemo, useState } from 'react';
import { useData } from './useData';

/** Which responses show their replies, and quote navigation (SPEC.md §4). */
export interface TopicTree {
  topicId: string;
  isExpanded(id: string): boolean;
  setExpanded(id: string, open: boolean): void;
  highlightedId: string | null;
  /** Expands the ancestor chain, then scrolls smoothly to the response; false when it never rendered. */
  goToResponse(id: string): Promise<boolean>;
}

export const TopicTreeContext = createContext<TopicTree | null>(null);

export function useTopicTreeState(topicId: string): TopicTree {
  const data = useData();
  const [expanded, setExpandedIds] = useState<ReadonlySet<string>>(new Set());
  const [highlightedId, setHighlightedId] = useState<string | null>(null);
  const setExpanded = useCallback((id: string, open: boolean) => {
    setExpandedIds((prev) => {
      const next = new Set(prev);
      if (open) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);
  const goToResponse = useCallback(
    async (id: string) => {
      // ancestorPath ends with the response itself; only the ones above it need expanding.
      const ancestors = (await data.ancestorPath(id)).filter((ancestorId) => ancestorId !== id);
      setExpandedIds((prev) => new Set([...prev, ...ancestors]));
      setHighlightedId(id);
      return scrollWhenRendered(`response-${id}`);
    },
    [data],
  );
  return useMemo(
    () => ({ topicId, isExpanded: (id: string) => expanded.has(id), setExpanded, highlightedId, goToResponse }),
    [topicId, expanded, setExpanded, highlightedId, goToResponse],
  );
}

/** Waits (up to ~5 s of frames) for lazily loaded replies to render the target. */
function scrollWhenRendered(elementId: string): Promise<boolean> {
  return new Promise((resolve) => {
    let frames = 0;
    const tick = () => {
      const el = document.getElementById(elementId);
      if (el) {
        el.scrollIntoView({ behavior: 'smooth', block: 'center' });
        el.focus({ preventScroll: true });
        return resolve(true);
      }
      if (++frames > 300) return resolve(false);
      requestAnimationFrame(tick);
    };
    tick();
  });
}

export function useTopicTree(): TopicTree {
  const tree = useContext(TopicTreeContext);
  if (!tree) throw new Error('useTopicTree outside a topic page');
  return tree;
}
