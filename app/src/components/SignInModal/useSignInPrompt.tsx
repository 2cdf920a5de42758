// A signed-out press on something that needs an account (a vote, a report): the sign-in opens at
// once, saying why ("You must be logged in to vote."), instead of a message beside the button that
// offers no way in and piles up with each press.
import { useState } from 'react';
import { SignInModal } from './SignInModal';

export function useSignInPrompt() {
  const [reason, setReason] = useState<string | null>(null);
  return {
    /** Opens the sign-in with the reason at its top. */
    ask: (why: string) => setReason(why),
    /** The dialog while open (render it where the button is). */
    prompt: reason === null ? null : <SignInModal reason={reason} onClose={() => setReason(null)} />,
  };
}
