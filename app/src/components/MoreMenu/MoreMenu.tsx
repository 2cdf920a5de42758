// A "More" menu button (WAI-ARIA menu button pattern): the trigger says it opens a menu and whether
// it is open; the menu takes focus on its first item, arrows / Home / End move between items, Escape
// or Tab closes it, Escape returns focus to the trigger, and a press or tap outside closes it.
// The response card's secondary actions live here on phones: one obvious primary action
// per response, the rest one tap away and never competing with it.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import './MoreMenu.css';

export interface MoreMenuItem {
  /** The item's text and accessible name. */
  label: string;
  /** A symbol shown before the label (hidden from screen readers: the label says it all). */
  icon?: string;
  onSelect: () => void;
  danger?: boolean;
  /** A toggle shown as a menuitemcheckbox (e.g. "This changed my view"). */
  checked?: boolean;
  disabled?: boolean;
}

interface MoreMenuProps {
  items: MoreMenuItem[];
  /** The trigger's accessible name; its visible text is "More" (with "⋯"). */
  label?: string;
  className?: string;
}

export function MoreMenu({ items, label = 'More', className = '' }: MoreMenuProps) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLUListElement>(null);

  const itemButtons = () => [...(menuRef.current?.querySelectorAll<HTMLButtonElement>('[role^="menuitem"]:not(:disabled)') ?? [])];

  // Opened: focus the first item. A press outside (mouse or touch) closes it without moving focus.
  useEffect(() => {
    if (!open) return;
    itemButtons()[0]?.focus();
    function outside(event: PointerEvent) {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    }
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  function close(returnFocus: boolean) {
    setOpen(false);
    if (returnFocus) triggerRef.current?.focus();
  }

  function onMenuKey(event: KeyboardEvent) {
    const buttons = itemButtons();
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const move = (to: number) => {
      event.preventDefault();
      buttons[(to + buttons.length) % buttons.length]?.focus();
    };
    if (event.key === 'ArrowDown') move(at + 1);
    else if (event.key === 'ArrowUp') move(at - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(buttons.length - 1);
    else if (event.key === 'Escape') {
      event.preventDefault();
      // Not the page's own Escape handlers (a dialog around, the header's menu).
      event.stopPropagation();
      close(true);
    } else if (event.key === 'Tab') setOpen(false);
  }

  function onTriggerKey(event: KeyboardEvent) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
    }
  }

  return (
    <div className={`more-menu ${className}`} ref={rootRef}>
      <button
        ref={triggerRef}
        type="button"
        className="btn btn-small btn-ghost more-menu-trigger"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? `${id}-menu` : undefined}
        aria-label={label === 'More' ? undefined : label}
        onClick={() => setOpen((was) => !was)}
        onKeyDown={onTriggerKey}
      >
        <span aria-hidden="true">⋯</span> <span className="more-menu-label">More</span>
      </button>
      {open && (
        <ul id={`${id}-menu`} ref={menuRef} className="more-menu-list" role="menu" aria-label={label} onKeyDown={onMenuKey}>
          {items.map((item) => (
            <li key={item.label} role="none">
              <button
                type="button"
                role={item.checked === undefined ? 'menuitem' : 'menuitemcheckbox'}
                aria-checked={item.checked}
                className={`more-menu-item${item.danger ? ' is-danger' : ''}`}
                disabled={item.disabled}
                tabIndex={-1}
                onClick={() => {
                  // Closed first, focus back on the trigger; an action that opens something (a
                  // dialog, the edit form) then moves focus there itself.
                  close(true);
                  item.onSelect();
                }}
              >
                {item.icon && <span aria-hidden="true">{item.icon}</span>}
                {item.label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
