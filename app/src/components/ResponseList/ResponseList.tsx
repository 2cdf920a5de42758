// A list of responses at one depth: the topic's roots or the replies of a response. A long list
// renders its first screen at once and the rest in small chunks while the browser is idle, so a
// 10,000-response debate shows and answers input at once; a navigation target renders at once.
import { memo, startTransition, useEffect, useMemo, useState } from 'react';
import type { ResponseView } from '../../hooks/useReplies';
import { useTopicTree, useTreeVersion } from '../../hooks/useTopicTree';
import { ResponseItem } from '../ResponseItem/ResponseItem';
import { BlockedCollapse, withHiddenQuote } from '../BlockedCollapse/BlockedCollapse';
import { useBlockedUids } from '../../hooks/useBlocks';

/**
 * Rows rendered with the list (a tall screen's worth: rendering a row with its formatted text costs
 * a few milliseconds on a slow phone, and the first render is one task), then rows added per idle
 * callback in a transition (React renders it in slices), so the page answers input while a long
 * list fills in.
 */
export const FIRST_ROWS = 10;
const ROWS_PER_CHUNK = 20;

interface ResponseListProps {
  responses: ResponseView[];
  depth: number;
  emptyText: string;
  label: string;
}

type IdleHandle = { cancel(): void };
function whenIdle(run: () => void): IdleHandle {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(run, { timeout: 200 });
    return { cancel: () => cancelIdleCallback(id) };
  }
  const id = setTimeout(run, 0);
  return { cancel: () => clearTimeout(id) };
}

export const ResponseList = memo(function ResponseList({ responses, depth, emptyText, label }: ResponseListProps) {
  const tree = useTopicTree();
  const version = useTreeVersion(tree);
  const [rendered, setRendered] = useState(FIRST_ROWS);
  const blocked = useBlockedUids();
  // Quote and link navigation expands a row, or highlights one, that may not be rendered yet.
  const wanted = useMemo(() => {
    void version;
    for (let i = responses.length - 1; i >= rendered; i--) {
      const id = responses[i]!.id;
      if (tree.isExpanded(id) || tree.highlightedId() === id) return i + 1;
    }
    return 0;
  }, [responses, rendered, tree, version]);
  const count = Math.max(rendered, wanted);

  useEffect(() => {
    if (count >= responses.length) return;
    const idle = whenIdle(() => startTransition(() => setRendered(count + ROWS_PER_CHUNK)));
    return () => idle.cancel();
  }, [count, responses.length]);

  if (responses.length === 0) return <p className="status-text response-empty">{emptyText}</p>;
  const shown = count >= responses.length ? responses : responses.slice(0, count);
  return (
    <ul className="response-list" aria-label={label}>
      {shown.map((r) => (
        // A blocked author's response is one line until shown: BlockedCollapse.
        <BlockedCollapse
          key={r.id}
          uid={r.creator_uid}
          name={r.username}
          kind="response"
          id={`response-${r.id}`}
          className="response"
          revealedSelector={`[id="response-${r.id}"]`}
        >
          <ResponseItem response={withHiddenQuote(r, blocked)} depth={depth} ReplyList={ResponseList} />
        </BlockedCollapse>
      ))}
    </ul>
  );
});
