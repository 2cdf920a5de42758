// "Where do you stand?" on the topic's question: I agree / I disagree / I'm unsure for
// a signed-in user, their before and now once it changed, and a prompt to log in for a visitor.
// The counts of everyone's stances are in the balance bars beside it (BalanceBars).
// The choice is a radio group of its own look: one answer held, in the first person,
// never the coloured Agree / Disagree / Discuss buttons that start a reply.
import { useState, type KeyboardEvent } from 'react';
import { STANCES, type Stance } from '../../../../shared/constants';
import type { TopicStance } from '../../hooks/useStance';
import { useSession } from '../../hooks/useSession';
import { useSuspendedHere } from '../../hooks/useWriteBlock';
import { SignInModal } from '../SignInModal/SignInModal';
import { changedLine, CREDIT_HINT, SIGN_IN_TO_STAND, STANCE_CHOICE, WHERE_DO_YOU_STAND } from './stance-labels';
import './WhereIStand.css';

export function WhereIStand({ standing }: { standing: TopicStance }) {
  const { user } = useSession();
  const [signInOpen, setSignInOpen] = useState(false);
  // Suspended: the answer held still shows, but none can be chosen (the server refuses stances).
  const suspended = useSuspendedHere();
  const { stance, saving, writeError } = standing;
  if (user && signInOpen) setSignInOpen(false);
  const current = stance?.stance ?? null;
  const changed = stance ? stance.first_stance !== stance.stance : false;
  const canCredit = stance ? stance.history.length >= 2 : false;
  const mine = user && stance ? stanceNote(stance, changed, canCredit) : '';

  return (
    <div className="where-i-stand">
      <h2 id="where-i-stand-title" className="where-i-stand-title">
        {WHERE_DO_YOU_STAND}
      </h2>
      {user ? (
        <div className="stance-picker" role="radiogroup" aria-labelledby="where-i-stand-title" onKeyDown={moveBetweenChoices}>
          {STANCES.map((choice, i) => (
            <StanceChoice
              key={choice}
              choice={choice}
              checked={current === choice}
              // One stop for Tab: the chosen answer, or the first while there is none.
              focusable={current === null ? i === 0 : current === choice}
              disabled={saving || stance === undefined || suspended}
              onPick={() => {
                if (choice !== current) void standing.setStance(choice);
              }}
            />
          ))}
        </div>
      ) : (
        // Its own words: the header's "Sign in" stays the one button of that name on the page.
        <p className="where-i-stand-note">
          <button type="button" className="btn btn-small" onClick={() => setSignInOpen(true)}>
            {SIGN_IN_TO_STAND}
          </button>
        </p>
      )}
      {/* A live region always there to announce a change, but of no height while there is nothing to
          say (no blank reserved line); a message takes its line only while shown. */}
      <div className="where-i-stand-live" data-testid="stance-mine" aria-live="polite">
        {mine && <p className="where-i-stand-note muted">{mine}</p>}
      </div>
      {writeError && (
        <p className="error-text" role="alert">
          {writeError}
        </p>
      )}
      {signInOpen && <SignInModal onClose={() => setSignInOpen(false)} />}
    </div>
  );
}

/** The before and now, how to credit a change, and whether it is sent yet; '' when none applies. */
function stanceNote(stance: NonNullable<TopicStance['stance']>, changed: boolean, canCredit: boolean): string {
  return [
    changed ? changedLine(stance.first_stance, stance.stance) : '',
    canCredit ? CREDIT_HINT : '',
    stance.isPending ? '(saved on this device, not sent yet)' : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * Arrows move between the answers without choosing one; Space, Enter or a click chooses. (A radio
 * group usually chooses as it moves: here every choice is recorded in the stance's history and may
 * open a "changed my mind" window, so passing over "I disagree" on the way must not record it.)
 */
function moveBetweenChoices(event: KeyboardEvent<HTMLDivElement>) {
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
  const radios = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('[role="radio"]')];
  const at = radios.indexOf(document.activeElement as HTMLButtonElement);
  let next: number | null = null;
  if (step !== undefined) next = (at + step + radios.length) % radios.length;
  else if (event.key === 'Home') next = 0;
  else if (event.key === 'End') next = radios.length - 1;
  if (next === null) return;
  event.preventDefault();
  radios[next]?.focus();
}

interface StanceChoiceProps {
  choice: Stance;
  checked: boolean;
  focusable: boolean;
  disabled: boolean;
  onPick: () => void;
}

function StanceChoice({ choice, checked, focusable, disabled, onPick }: StanceChoiceProps) {
  return (
    <button
      type="button"
      role="radio"
      className="stance-option"
      aria-checked={checked}
      tabIndex={focusable ? 0 : -1}
      disabled={disabled}
      onClick={onPick}
    >
      <span className="stance-option-dot" aria-hidden="true" />
      {STANCE_CHOICE[choice].button}
    </button>
  );
}
