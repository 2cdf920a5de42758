// A stance is never colour alone: icon + label + colour (colour-blind safe).
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
