// A response's vote: agree (the upvote, with the score), disagree or pass, one at a time, as a
// segmented control captioned "Your vote". It must not read as the reply types next to it (Agree /
// Disagree / Discuss write an argument) nor as the stance (where one stands on the topic): a caption,
// arrows and one joined pill, where the reply types are separate buttons with ✔ ✖ ◆.
import { VOTE_VALUES } from '../../../../shared/constants';
import { MSG } from '../../../../shared/messages';
import type { ResponseView } from '../../hooks/useReplies';
import { useOpinionVote } from '../../hooks/useOpinionVote';
import { useSession } from '../../hooks/useSession';
import { useSuspendedHere } from '../../hooks/useWriteBlock';
import { VoteButton, VoteError } from './VoteButton';
import { useSignInPrompt } from '../SignInModal/useSignInPrompt';
import './VoteButton.css';

interface ResponseVoteProps {
  response: ResponseView;
  /** "response: <excerpt>", for the buttons' accessible names. */
  label: string;
}

export function ResponseVote({ response, label }: ResponseVoteProps) {
  const { user } = useSession();
  const stored = response.user_vote ?? (response.user_has_upvoted ? VOTE_VALUES.agree : null);
  const { value, pending, error, choose } = useOpinionVote(response.id, stored);
  const signedOut = !user;
  const suspended = useSuspendedHere();
  const signIn = useSignInPrompt();
  const option = (kind: 'disagree' | 'pass', text: string, icon: string | null, name: string) => {
    const pressed = value === VOTE_VALUES[kind];
    return (
      <button
        type="button"
        className={`vote-option vote-${kind}${pressed ? ' is-chosen' : ''}`}
        aria-pressed={pressed}
        aria-label={name}
        title={signedOut ? MSG.loginToVote : undefined}
        disabled={pending || suspended}
        aria-disabled={pending}
        aria-haspopup={signedOut ? 'dialog' : undefined}
        onClick={() => (signedOut ? signIn.ask(MSG.loginToVote) : void choose(VOTE_VALUES[kind]))}
      >
        {icon && (
          <span className="vote-option-icon" aria-hidden="true">
            {icon}
          </span>
        )}
        {text}
      </button>
    );
  };
  return (
    <div className="response-vote" role="group" aria-label={`Your vote on ${label}`}>
      <span className="response-vote-caption" aria-hidden="true">
        Your vote
      </span>
      <span className="response-vote-options">
        <VoteButton
          targetType="response"
          targetId={response.id}
          score={response.score}
          hasUpvoted={response.user_has_upvoted}
          label={label}
          word="Agree"
        />
        {option('disagree', 'Disagree', '▼', `Vote disagree with ${label}`)}
        {option('pass', 'Pass', null, `Vote pass on ${label} (read, no opinion)`)}
      </span>
      <VoteError error={error} />
      {signIn.prompt}
    </div>
  );
}
