// Upvote toggle with score: disabled while pending and while the account is suspended (the score
// still shows); signed out, a press opens the sign-in saying why.
import type { TargetType } from '../../../../shared/constants';
import { MSG } from '../../../../shared/messages';
import { useSession } from '../../hooks/useSession';
import { useSuspendedHere } from '../../hooks/useWriteBlock';
import { useVote } from '../../hooks/useVote';
import { useSignInPrompt } from '../SignInModal/useSignInPrompt';
import './VoteButton.css';

interface VoteButtonProps {
  targetType: TargetType;
  targetId: string;
  score: number;
  hasUpvoted: boolean;
  label: string;
  /** A word after the score (a response's vote says "Agree", beside Disagree and Pass). */
  word?: string;
}

export function VoteButton({ targetType, targetId, score, hasUpvoted: stored, label, word }: VoteButtonProps) {
  const { user } = useSession();
  // The state to show: the click's at once, then the store's (see useVote).
  const { pending, error, toggle, upvoted: hasUpvoted } = useVote(targetType, targetId, stored);
  const shownScore = score + (hasUpvoted === stored ? 0 : hasUpvoted ? 1 : -1);
  const signedOut = !user;
  const suspended = useSuspendedHere();
  // Signed out the button looks and reads as usual: a press opens the sign-in dialog, saying why.
  const signIn = useSignInPrompt();
  return (
    <span className="vote">
      <button
        type="button"
        className={`vote-button${hasUpvoted ? ' is-upvoted' : ''}`}
        aria-pressed={hasUpvoted}
        aria-label={`${hasUpvoted ? 'Remove upvote from' : 'Upvote'} ${label}`}
        title={signedOut ? MSG.loginToVote : undefined}
        disabled={pending || suspended}
        aria-disabled={pending}
        aria-haspopup={signedOut ? 'dialog' : undefined}
        onClick={() => (signedOut ? signIn.ask(MSG.loginToVote) : void toggle())}
      >
        <svg aria-hidden="true" viewBox="0 0 16 16" width="14" height="14">
          <path d="M8 2 14 10H10v4H6v-4H2z" fill="currentColor" />
        </svg>
        <span className="vote-score" data-testid="score">
          {shownScore}
        </span>
        {word && <span className="vote-word">{word}</span>}
      </button>
      <VoteError error={error} />
      {signIn.prompt}
    </span>
  );
}

/** Why a vote did not happen: the server's refusal. */
export function VoteError({ error }: { error: string | null | undefined }) {
  if (!error) return null;
  return (
    <span className="error-text vote-error" role="alert">
      Vote Error: {error}
    </span>
  );
}
