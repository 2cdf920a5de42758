// A response's type (Agrees / Disagrees / Discusses) and the buttons that pick a reply's type. Never
// colour alone: icon + label + colour (colour-blind safe). Not the viewer's stance on the question
// (WhereIStand: "I agree"...), which is a radio group of another look.
import { useId } from 'react';
import type { ResponseType } from '../../../../shared/constants';

export const STANCE: Record<ResponseType, { icon: string; label: string; action: string }> = {
  for: { icon: '✔', label: 'Agrees', action: 'Agree' },
  against: { icon: '✖', label: 'Disagrees', action: 'Disagree' },
  neutral: { icon: '◆', label: 'Discusses', action: 'Discuss' },
};

export function Stance({ type }: { type: ResponseType }) {
  return (
    <span className={`stance stance-${type}`}>
      <span aria-hidden="true">{STANCE[type].icon}</span> {STANCE[type].label}
    </span>
  );
}

interface StanceButtonsProps {
  onPick: (t: ResponseType) => void;
  active?: ResponseType | null;
  disabled?: boolean;
  /** On phones only the icon shows; the label stays as the accessible name. */
  compact?: boolean;
}

export function StanceButtons({ onPick, active, disabled, compact }: StanceButtonsProps) {
  return (
    <>
      {(Object.keys(STANCE) as ResponseType[]).map((t) => (
        <button
          key={t}
          type="button"
          className={`btn btn-small btn-${t}${compact ? ' btn-compact' : ''}`}
          aria-pressed={active === undefined ? undefined : active === t}
          disabled={disabled}
          onClick={() => onPick(t)}
        >
          <span aria-hidden="true">{STANCE[t].icon}</span> <span className="stance-action-label">{STANCE[t].action}</span>
        </button>
      ))}
    </>
  );
}

interface ReplyChoicesProps extends StanceButtonsProps {
  /** The visible word before the choices, which also names the group ("Reply", "Respond"). */
  label: string;
}

/**
 * Agree / Disagree / Discuss as one joined control under one word: a single way to answer with
 * three choices of type, rather than three look-alike buttons.
 */
export function ReplyChoices({ label, ...buttons }: ReplyChoicesProps) {
  const id = useId();
  return (
    <div className="reply-choices" role="group" aria-labelledby={`${id}-label`}>
      <span id={`${id}-label`} className="reply-choices-label">
        {label}
      </span>
      <span className="reply-choices-buttons">
        <StanceButtons {...buttons} />
      </span>
    </div>
  );
}
