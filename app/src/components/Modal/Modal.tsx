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
    panelRef.current?.querySelector<HTMLElement>('input, button')?.focus();
  }, [title]);
  useEffect(() => {
    if (!onClose) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  // A portal to <body>: the modal must not inherit the header's colours.
  return createPortal(
    <div className="modal-overlay" data-testid="modal-overlay" onMouseDown={(e) => e.target === e.currentTarget && onClose?.()}>
      <div className="modal-panel card" role="dialog" aria-modal="true" aria-label={title} ref={panelRef}>
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
