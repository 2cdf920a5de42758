// @mention suggestions in the composer: typing "@" and the start of a name lists the
// topic's participants whose name fits (from the local store, so offline too); ArrowUp/ArrowDown
// move, Enter or Tab inserts "@Name ", Escape closes, a click inserts. The textarea keeps its
// textbox role and points at the list (aria-controls, aria-activedescendant); aria-expanded is not
// one of a textbox's states, so a polite live region says when names are offered instead. The list
// overlays what is below the box: nothing moves when it opens.
import { useLayoutEffect, useRef, useState, type KeyboardEvent, type RefObject, type SyntheticEvent } from 'react';
import { MENTION_SUGGESTIONS } from '../../../../shared/constants';
import { mentionAtCaret, suggestPeople, type MentionPerson } from '../../../../shared/rules/mentions';
import { useMentionPeople } from '../../hooks/useMentionPeople';

/** Said (politely) when names are offered. */
export const mentionHint = (count: number) =>
  `${count} ${count === 1 ? 'person' : 'people'} to mention: up and down arrows to choose, Enter to insert, Escape to close.`;

interface MentionSuggestOptions {
  content: string;
  setContent: (content: string) => void;
  textRef: RefObject<HTMLTextAreaElement | null>;
  idPrefix: string;
  /** The writer: not suggested to themself. */
  selfUid: string | null;
}

export function useMentionSuggest({ content, setContent, textRef, idPrefix, selfUid }: MentionSuggestOptions) {
  const people = useMentionPeople();
  const [caret, setCaret] = useState<number | null>(null);
  const [chosen, setChosen] = useState({ key: '', index: 0 });
  // The "@" whose list Escape closed: it stays closed while that mention is typed on.
  const [dismissed, setDismissed] = useState<number | null>(null);
  const placeCaret = useRef<number | null>(null);

  const typed = caret === null ? null : mentionAtCaret(content, caret);
  if (dismissed !== null && typed?.start !== dismissed) setDismissed(null);
  const options = typed
    ? suggestPeople(
        people.filter((person) => person.uid !== selfUid),
        typed.query,
        MENTION_SUGGESTIONS,
      )
    : [];
  const open = typed !== null && options.length > 0 && dismissed !== typed.start;
  const key = typed ? `${typed.start}:${typed.query}` : '';
  const active = chosen.key === key ? Math.min(chosen.index, options.length - 1) : 0;
  const listId = `${idPrefix}-mentions`;
  const optionId = (index: number) => `${listId}-option-${index}`;

  // After an insertion the caret goes after "@Name ", once React has put the new text in the box.
  useLayoutEffect(() => {
    if (placeCaret.current === null || !textRef.current) return;
    textRef.current.setSelectionRange(placeCaret.current, placeCaret.current);
    placeCaret.current = null;
  }, [content, textRef]);

  function insert(person: MentionPerson) {
    if (!typed || caret === null) return;
    const before = `${content.slice(0, typed.start)}@${person.name} `;
    const after = content.slice(caret).replace(/^ /, '');
    setContent(before + after);
    placeCaret.current = before.length;
    setCaret(before.length);
    textRef.current?.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (!open) return;
    const move = (by: number) => {
      event.preventDefault();
      setChosen({ key, index: (active + by + options.length) % options.length });
    };
    if (event.key === 'ArrowDown') move(1);
    else if (event.key === 'ArrowUp') move(-1);
    else if ((event.key === 'Enter' || event.key === 'Tab') && !event.shiftKey && !event.ctrlKey && !event.altKey && !event.metaKey) {
      event.preventDefault();
      insert(options[active]!);
    } else if (event.key === 'Escape') {
      // Closes the list only (not an edit form or dialog around the box).
      event.preventDefault();
      event.stopPropagation();
      setDismissed(typed.start);
    }
  }

  /** Follows the caret (typing, clicks, arrow keys): the list is about the "@" before it. */
  const track = (event: SyntheticEvent<HTMLTextAreaElement>) => setCaret(event.currentTarget.selectionStart);

  const textareaProps = {
    onKeyDown,
    onSelect: track,
    'aria-autocomplete': 'list' as const,
    'aria-controls': open ? listId : undefined,
    'aria-activedescendant': open ? optionId(active) : undefined,
  };

  const list = (
    <>
      {open && (
        <ul className="mention-suggestions" role="listbox" id={listId} aria-label="People to mention">
          {options.map((person, index) => (
            <li
              key={person.uid}
              id={optionId(index)}
              role="option"
              aria-selected={index === active}
              className={`mention-option${index === active ? ' is-active' : ''}`}
              // Keeps the focus (and the caret) in the box.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => insert(person)}
            >
              @{person.name}
            </li>
          ))}
        </ul>
      )}
      <span className="visually-hidden" aria-live="polite">
        {open ? mentionHint(options.length) : ''}
      </span>
    </>
  );
  return { textareaProps, track, list };
}
