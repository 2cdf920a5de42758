// The topic page's "Debate map" disclosure; the map itself (and d3-hierarchy) loads on first open,
// so it never weighs on the first load.
import { lazy, Suspense, useId, useState } from 'react';
import './DebateMap.css';

const DebateMap = lazy(() => import('./DebateMap'));

export const DEBATE_MAP = 'Debate map';

export function DebateMapToggle({ open, controls, onToggle }: { open: boolean; controls: string; onToggle: () => void }) {
  return (
    <button type="button" className="btn btn-small" aria-expanded={open} aria-controls={controls} onClick={onToggle}>
      {DEBATE_MAP}
    </button>
  );
}

/** The open map, in a card under the toolbar (a region named "Debate map"). */
export function DebateMapPanel({ id, topicId }: { id: string; topicId: string }) {
  return (
    <section id={id} className="debate-map-panel card" aria-label={DEBATE_MAP}>
      <Suspense
        fallback={
          <p className="status-text" role="status">
            Loading map...
          </p>
        }
      >
        <DebateMap topicId={topicId} />
      </Suspense>
    </section>
  );
}

/** The toggle's and the panel's shared state. */
export function useDebateMapDisclosure() {
  const id = useId();
  const [open, setOpen] = useState(false);
  return { id: `debate-map-${id}`, open, toggle: () => setOpen((o) => !o) };
}
