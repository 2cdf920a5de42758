// Follow / Following on a topic page, and the list of followed topics on the user's own
// page. Following a topic brings a notification (and a push, when on) for each new root response in
// it; the user follows what they create or reply to unless their notification settings say otherwise.
import { Link } from 'react-router-dom';
import { useFollows, useFollowToggle } from '../../hooks/useFollows';
import { useData } from '../../hooks/useData';
import { useSuspendedHere } from '../../hooks/useWriteBlock';
import './FollowButton.css';

export const FOLLOW_TEXT = {
  follow: 'Follow',
  following: 'Following',
  hint: 'Get notified of new responses in this topic',
  pending: 'Not yet synced',
  heading: 'Topics you follow',
  privateNote: 'Only you can see this list.',
  none: 'You do not follow any topic yet. Use Follow on a topic to hear of its new responses.',
  unfollow: (title: string) => `Unfollow ${title}`,
} as const;

export function FollowButton({ topicId, title }: { topicId: string; title: string }) {
  const { following, known, isPending, busy, error, toggle } = useFollowToggle(topicId, title);
  // A suspended account may unfollow but not follow: Follow is not offered, Following still is.
  const suspended = useSuspendedHere();
  if (suspended && !following) return null;
  return (
    <>
      <button
        type="button"
        className="btn btn-small"
        aria-pressed={following}
        aria-describedby={`follow-hint-${topicId}`}
        disabled={!known || busy}
        onClick={() => void toggle()}
        title={isPending ? FOLLOW_TEXT.pending : FOLLOW_TEXT.hint}
        data-testid="follow-button"
      >
        {following ? (
          <>
            <span aria-hidden="true">✓ </span>
            {FOLLOW_TEXT.following}
          </>
        ) : (
          FOLLOW_TEXT.follow
        )}
      </button>
      <span id={`follow-hint-${topicId}`} className="visually-hidden">
        {FOLLOW_TEXT.hint}
      </span>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
    </>
  );
}

/** The signed-in user's followed topics (their own page only: private), readable offline. */
export function FollowedTopics() {
  const data = useData();
  const { follows } = useFollows();
  const live = (follows ?? []).filter((f) => f.following);
  return (
    <section aria-labelledby="user-follows" className="followed-topics">
      <h2 id="user-follows">{FOLLOW_TEXT.heading}</h2>
      <p className="muted">{FOLLOW_TEXT.privateNote}</p>
      {follows === undefined ? null : live.length === 0 ? (
        <p className="muted">{FOLLOW_TEXT.none}</p>
      ) : (
        <ul className="user-items">
          {live.map((f) => (
            <li key={f.topic_id} className="followed-topic">
              <Link to={`/topics/${encodeURIComponent(f.topic_id)}`}>{f.title ?? 'A topic'}</Link>
              {f.isPending && <span className="muted"> · {FOLLOW_TEXT.pending}</span>}
              <button
                type="button"
                className="btn btn-small btn-ghost"
                aria-label={FOLLOW_TEXT.unfollow(f.title ?? 'this topic')}
                onClick={() => void data.unfollowTopic(f.topic_id)}
              >
                Unfollow
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
