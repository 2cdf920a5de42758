// A dialog over a dimmed overlay; a click on the overlay (not the panel) or Escape closes it.
import { useEffect, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import './Modal.css';

interface ModalProps {
  title: string;
  onClose?: () => void;
  children: ReactNode;
}

export function Modal({ title, onClose, children }: ModalProps) {
  const panelRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // Give focus back to what opened the modal when it closes (read before the focus moves in below).
    const opener = document.activeElement as HTMLElement | null;
    return () => opener?.focus?.();
  }, []);
  useEffect(() => {
    panelRef.current?.querySelector<HTMLElement>('input, button')?.focus();
  }, [title]);
  function trapTab(event: React.KeyboardEvent) {
    if (event.key !== 'Tab' || !panelRef.current) return;
    const items = [...panelRef.current.querySelectorAll<HTMLElement>('input, button, select, textarea, a[href]')].filter(
      (el) => !el.hasAttribute('disabled'),
    );
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }
  useEffect(() => {
    if (!onClose) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  // A portal to <body>: the modal must not inherit the header's colours.
  return createPortal(
    <div className="modal-overlay" data-testid="modal-overlay" onMouseDown={(e) => e.target === e.currentTarget && onClose?.()}>
      <div className="modal-panel card" role="dialog" aria-modal="true" aria-label={title} ref={panelRef} onKeyDown={trapTab}>
        <h2 className="modal-title">{title}</h2>
        {onClose && (
          <button type="button" className="btn btn-ghost modal-close" aria-label="Close" onClick={onClose}>
            ✕
          </button>
        )}
        {children}
      </div>
    </div>,
    document.body,
  );
}
