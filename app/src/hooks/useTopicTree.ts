// The topic page's tree state, shared with every response through context.
import { createContext, useContext, useMemo, useSyncExternalStore } from 'react';
import type { ResponseType } from '../../../shared/constants';
import type { CruxData } from '../data';
import { useData } from './useData';

/**
 * Which responses show their replies, and quote navigation. The object keeps its identity
 * for the page's life, so a change re-renders only the rows it concerns (useExpanded, useHighlighted),
 * never every row of a long list.
 */
export interface TopicTree {
  topicId: string;
  isExpanded(id: string): boolean;
  setExpanded(id: string, open: boolean): void;
  highlightedId(): string | null;
  /** Expands the ancestor chain, then scrolls smoothly to the response; false when it never rendered. */
  goToResponse(id: string): Promise<boolean>;
  /**
   * Asks the response `id` to open its reply box of `type` holding `text` ("Reply to it"
   * moves a point already made into an answer to it); the row takes it when it renders.
   */
  requestReply(id: string, type: ResponseType, text: string): void;
  /** The reply box a row was asked to open, until it takes it. */
  replyRequest(): ReplyRequest | null;
  /** The row opened its reply box: the request is done. */
  takeReplyRequest(request: ReplyRequest): void;
  /** Listens to expansion and highlight changes; the returned function stops listening. */
  subscribe(listener: () => void): () => void;
  /** Bumped on every change (a snapshot for useSyncExternalStore). */
  version(): number;
}

export interface ReplyRequest {
  id: string;
  type: ResponseType;
  text: string;
}

export const TopicTreeContext = createContext<TopicTree | null>(null);

export function createTopicTree(topicId: string, data: Pick<CruxData, 'ancestorPath'>): TopicTree {
  let expanded: ReadonlySet<string> = new Set();
  let highlighted: string | null = null;
  let reply: ReplyRequest | null = null;
  let version = 0;
  const listeners = new Set<() => void>();
  const changed = () => {
    version += 1;
    for (const listener of [...listeners]) listener();
  };
  return {
    topicId,
    isExpanded: (id) => expanded.has(id),
    setExpanded(id, open) {
      if (expanded.has(id) === open) return;
      const next = new Set(expanded);
      if (open) next.add(id);
      else next.delete(id);
      expanded = next;
      changed();
    },
    highlightedId: () => highlighted,
    async goToResponse(id) {
      // ancestorPath ends with the response itself; only the ones above it need expanding.
      const ancestors = (await data.ancestorPath(id)).filter((ancestorId) => ancestorId !== id);
      expanded = new Set([...expanded, ...ancestors]);
      highlighted = id;
      changed();
      return scrollWhenRendered(`response-${id}`);
    },
    requestReply(id, type, text) {
      reply = { id, type, text };
      changed();
    },
    replyRequest: () => reply,
    takeReplyRequest(request) {
      if (reply !== request) return;
      reply = null;
      changed();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    version: () => version,
  };
}

export function useTopicTreeState(topicId: string): TopicTree {
  const data = useData();
  return useMemo(() => createTopicTree(topicId, data), [topicId, data]);
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

/** Whether the response shows its replies; re-renders when that changes. */
export function useExpanded(tree: TopicTree, id: string): boolean {
  return useSyncExternalStore(tree.subscribe, () => tree.isExpanded(id));
}

/** Whether the response is the target of the last quote or link navigation. */
export function useHighlighted(tree: TopicTree, id: string): boolean {
  return useSyncExternalStore(tree.subscribe, () => tree.highlightedId() === id);
}

/** The reply box this row was asked to open (null for every other row). */
export function useReplyRequest(tree: TopicTree, id: string): ReplyRequest | null {
  return useSyncExternalStore(tree.subscribe, () => {
    const request = tree.replyRequest();
    return request?.id === id ? request : null;
  });
}

/** Changes with every expansion or highlight (for lists that render up to a navigation target). */
export function useTreeVersion(tree: TopicTree): number {
  return useSyncExternalStore(tree.subscribe, tree.version);
}
