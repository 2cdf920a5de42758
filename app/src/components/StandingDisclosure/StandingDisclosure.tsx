// "Where do you stand?" and the balance of the debate, behind one line on a phone. A reader comes
// for the arguments first: on a narrow screen the stance picker and the bars (some 250 px) pushed
// the first response below the first screen, so there they fold into a button that still says the
// counts. On a wider screen the button is not shown and the block is always open (CSS alone: no
// width read in script, so the server's first screen and the app's agree).
import { useId, useState, type ReactNode } from 'react';
import type { Stance } from '../../../../shared/constants';
import { STANCE_CHOICE } from '../WhereIStand/stance-labels';
import './StandingDisclosure.css';

export const STANDING_TOGGLE = 'Stances';

interface StandingDisclosureProps {
  counts: Record<Stance, number>;
  /** The viewer's own stance, said on the folded line too. */
  mine: Stance | null;
  children: ReactNode;
}

export function StandingDisclosure({ counts, mine, children }: StandingDisclosureProps) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const summary = (['agree', 'disagree', 'unsure'] as const)
    .map((s) => `${STANCE_CHOICE[s].icon} ${counts[s]} ${STANCE_CHOICE[s].counted}`)
    .join(' · ');
  return (
    <>
      <button
        type="button"
        className="standing-toggle"
        aria-expanded={open}
        aria-controls={id}
        data-testid="standing-toggle"
        onClick={() => setOpen(!open)}
      >
        <span className="standing-toggle-title">{toggleTitle(mine)}</span>
        <span className="standing-toggle-counts">{summary}</span>
        <span className="standing-toggle-chevron" aria-hidden="true">
          {open ? '▴' : '▾'}
        </span>
      </button>
      <div id={id} className={`standing-body${open ? ' is-open' : ''}`}>
        {children}
      </div>
    </>
  );
}

function toggleTitle(mine: Stance | null): string {
  return mine ? `${STANDING_TOGGLE} (you: ${STANCE_CHOICE[mine].button})` : STANDING_TOGGLE;
}
