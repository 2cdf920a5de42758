// Upvote toggle with score: disabled while pending or signed out.
import { useState } from 'react';
import type { TargetType } from '../../../../shared/constants';
import { MSG } from '../../../../shared/messages';
import { useSession } from '../../hooks/useSession';
import { useVote } from '../../hooks/useVote';
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
  // Signed out the button is aria-disabled (still focusable) so a click can say why.
  const [hint, setHint] = useState(false);
  return (
    <span className="vote">
      <button
        type="button"
        className={`vote-button${hasUpvoted ? ' is-upvoted' : ''}`}
        aria-pressed={hasUpvoted}
        aria-label={`${hasUpvoted ? 'Remove upvote from' : 'Upvote'} ${label}`}
        title={signedOut ? MSG.loginToVote : undefined}
        disabled={pending}
        aria-disabled={signedOut || pending}
        onClick={() => (signedOut ? setHint(true) : void toggle())}
      >
        <svg aria-hidden="true" viewBox="0 0 16 16" width="14" height="14">
          <path d="M8 2 14 10H10v4H6v-4H2z" fill="currentColor" />
        </svg>
        <span className="vote-score" data-testid="score">
          {shownScore}
        </span>
        {word && <span className="vote-word">{word}</span>}
      </button>
      <VoteErrors signedOutHint={signedOut && hint} error={error} />
    </span>
  );
}

/** Why a vote did not happen: "log in to vote" after a signed-out click, or the server's refusal. */
export function VoteErrors({ signedOutHint, error }: { signedOutHint: boolean; error: string | null | undefined }) {
  return (
    <>
      {signedOutHint && (
        <span className="error-text vote-error" role="alert">
          {MSG.loginToVote}
        </span>
      )}
      {error && (
        <span className="error-text vote-error" role="alert">
          Vote Error: {error}
        </span>
      )}
    </>
  );
}
