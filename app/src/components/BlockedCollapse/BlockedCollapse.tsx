// A blocked author's topic or response, collapsed: on the blocker's devices the item is
// one line, blockedHidden(name) ("Hidden: you blocked {name}."), with a Show button that expands this
// one item (its replies by the same author stay collapsed, each on its own line). Anyone else's item,
// or while the block list is not known, renders as it is.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { blockedHidden } from '../../../../shared/messages';
import { authorName } from '../../../../shared/rules/author-name';
import { useIsBlocked } from '../../hooks/useBlocks';
import type { ResponseView } from '../../hooks/useReplies';
import './BlockedCollapse.css';

interface BlockedCollapseProps {
  /** The item's author. */
  uid: string;
  name: string | null | undefined;
  /** What the item is, for the Show button's label ("Show the topic by Bob"). */
  kind: 'topic' | 'response';
  /** The collapsed line stands in the item's list: its id and data attributes, so links and quotes still find it. */
  id?: string;
  /** The element that takes the focus once shown (the item's own row), so the keyboard stays in place. */
  revealedSelector?: string;
  /** Extra class names of the collapsed line (the list's own row class). */
  className?: string;
  children: ReactNode;
}

export function BlockedCollapse({ uid, name, kind, id, revealedSelector, className, children }: BlockedCollapseProps) {
  const blocked = useIsBlocked(uid);
  const [shown, setShown] = useState(false);
  // Set by the Show click: once the item renders, its row takes the focus (the button is gone).
  const reveal = useRef(false);
  useEffect(() => {
    if (!shown || !reveal.current || !revealedSelector) return;
    reveal.current = false;
    document.querySelector<HTMLElement>(revealedSelector)?.focus();
  }, [shown, revealedSelector]);
  if (!blocked || shown) return <>{children}</>;
  const author = authorName(name);
  return (
    <li id={id} className={`blocked-collapsed${className ? ` ${className}` : ''}`} data-testid="blocked-collapsed" data-author-uid={uid}>
      <span className="blocked-collapsed-text">{blockedHidden(author)}</span>
      <button
        type="button"
        className="btn btn-small btn-ghost"
        aria-label={`Show the ${kind} by ${author}`}
        onClick={() => {
          reveal.current = true;
          setShown(true);
        }}
      >
        Show
      </button>
    </li>
  );
}

/** The same view each time for the same response, so a memoised row re-renders only when it changes. */
const hiddenQuotes = new WeakMap<ResponseView, ResponseView>();

/**
 * A response whose quote is of a blocked author: the quote block says only that it is hidden
 * (blockedHidden), the quoted response itself being collapsed where it stands. Otherwise `response` itself.
 */
export function withHiddenQuote(response: ResponseView, blocked: ReadonlySet<string>): ResponseView {
  const quote = response.quoted_response;
  if (!quote?.creator_uid || !blocked.has(quote.creator_uid)) return response;
  let view = hiddenQuotes.get(response);
  if (!view) {
    view = { ...response, quoted_response: { ...quote, content: blockedHidden(authorName(quote.username)) } };
    hiddenQuotes.set(response, view);
  }
  return view;
}
