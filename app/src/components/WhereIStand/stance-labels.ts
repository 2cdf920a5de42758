// The words for a stance on a topic's question, in one place (buttons, "You first said…", counts).
import { MAX_DELTAS_PER_CHANGE, type Stance } from '../../../../shared/constants';

/**
 * Agree / Disagree reuse the response icons (✔ ✖); unsure has its own (never colour alone). The
 * choices say "I agree", not "Agree", and are radios, not buttons: the header's Agree / Disagree /
 * Discuss are buttons that open the composer (a stance is another kind of thing).
 */
export const STANCE_CHOICE: Record<
  Stance,
  { icon: string; label: string; button: string; counted: string; tone: 'for' | 'against' | 'neutral' }
> = {
  agree: { icon: '✔', label: 'Agree', button: 'I agree', counted: 'agree', tone: 'for' },
  disagree: { icon: '✖', label: 'Disagree', button: 'I disagree', counted: 'disagree', tone: 'against' },
  unsure: { icon: '?', label: 'Unsure', button: "I'm unsure", counted: 'unsure', tone: 'neutral' },
};

export const WHERE_DO_YOU_STAND = 'Where do you stand?';
/** A visitor's way in (not just "Sign in": the header has that button). */
export const SIGN_IN_TO_STAND = 'Sign in to record where you stand';

/** "You first said Agree; now Disagree." */
export const changedLine = (first: Stance, now: Stance) => `You first said ${STANCE_CHOICE[first].label}; now ${STANCE_CHOICE[now].label}.`;

/** "1 changed their mind here" (the same words for 1 and N: "changed their mind"). */
export const mindsChangedLine = (count: number) => `${count} changed their mind here`;

/** Shown once the stance has changed: how to credit what changed it. */
export const CREDIT_HINT = `Did a response change your view? Press “This changed my view” on it (up to ${MAX_DELTAS_PER_CHANGE}).`;
