// "Where do you stand?" on the topic's question (issue 13 #1): Agree / Disagree / Unsure for a
// signed-in user, their before and now once it changed, and a prompt to log in for a visitor.
// The counts of everyone's stances are in the balance bars beside it (BalanceBars).
import { useState } from 'react';
import { STANCES, type Stance } from '../../../../shared/constants';
import type { TopicStance } from '../../hooks/useStance';
import { useSession } from '../../hooks/useSession';
import { SignInModal } from '../SignInModal/SignInModal';
import { changedLine, CREDIT_HINT, SIGN_IN_TO_STAND, STANCE_CHOICE, WHERE_DO_YOU_STAND } from './stance-labels';
import './WhereIStand.css';

export function WhereIStand({ standing }: { standing: TopicStance }) {
  const { user } = useSession();
  const [signInOpen, setSignInOpen] = useState(false);
  const { stance, saving, writeError } = standing;
  if (user && signInOpen) setSignInOpen(false);
  const current = stance?.stance ?? null;
  const changed = stance ? stance.first_stance !== stance.stance : false;
  const canCredit = stance ? stance.history.length >= 2 : false;
  const mine = user && stance ? stanceNote(stance, changed, canCredit) : '';

  return (
    <div className="where-i-stand" role="group" aria-labelledby="where-i-stand-title">
      <h2 id="where-i-stand-title" className="where-i-stand-title">
        {WHERE_DO_YOU_STAND}
      </h2>
      {user ? (
        <div className="where-i-stand-choices">
          {STANCES.map((choice) => (
            <StanceChoice
              key={choice}
              choice={choice}
              pressed={current === choice}
              disabled={saving || stance === undefined}
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
          say (issue 24 #9: no blank reserved line); a message takes its line only while shown. */}
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

function StanceChoice({ choice, pressed, disabled, onPick }: { choice: Stance; pressed: boolean; disabled: boolean; onPick: () => void }) {
  const { icon, button, tone } = STANCE_CHOICE[choice];
  return (
    <button type="button" className={`btn btn-small btn-${tone}`} aria-pressed={pressed} disabled={disabled} onClick={onPick}>
      <span aria-hidden="true">{icon}</span> {button}
    </button>
  );
}
