// Topic title, category chips, meta line and action bar (vote, Agree, Disagree, Discuss, Delete).
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { ResponseType } from '../../../../shared/constants';
import { MSG } from '../../../../shared/messages';
import { RelativeTime } from '../RelativeTime/RelativeTime';
import { useDeleteTopic } from '../../hooks/useDeleteTopic';
import type { TopicView } from '../../hooks/useTopic';
import { useSession } from '../../hooks/useSession';
import { StanceButtons } from '../Stance/Stance';
import { responsesLabel } from '../TopicRow/TopicRow';
import { VoteButton } from '../VoteButton/VoteButton';
import './TopicHeader.css';
import { AuthorLink } from '../AuthorLink/AuthorLink';

export const DELETE_TOPIC_CONFIRM = 'Delete this topic and all its responses?';

interface TopicHeaderProps {
  topic: TopicView;
  onRespond: (type: ResponseType) => void;
  onDeleted: () => void;
}

export function TopicHeader({ topic, onRespond, onDeleted }: TopicHeaderProps) {
  const { user } = useSession();
  const deleteTopic = useDeleteTopic();
  const [deleteError, setDeleteError] = useState<string | null>(null);
  async function remove() {
    if (!user) return setDeleteError(MSG.loginToDeleteTopic);
    if (!window.confirm(DELETE_TOPIC_CONFIRM)) return;
    try {
      await deleteTopic(topic.id);
      onDeleted();
    } catch (e) {
      setDeleteError(e instanceof Error ? e.message : String(e));
    }
  }
  return (
    <section className="topic-header card" aria-labelledby="topic-title">
      <div className="topic-chips">
        {topic.categories.map((c) => (
          <Link key={c} className="chip" to={`/c/${encodeURIComponent(c)}`}>
            {c}
          </Link>
        ))}
      </div>
      <h1 id="topic-title" className="topic-title">
        {topic.title}
      </h1>
      <p className="topic-meta">
        <RelativeTime date={topic.created_at} /> ·{' '}
        <span>
          by <AuthorLink uid={topic.creator_uid} name={topic.username} />
        </span>{' '}
        · <span data-testid="topic-responses-count">{responsesLabel(topic.responses_count)}</span>
      </p>
      <div className="topic-actions">
        <VoteButton
          targetType="topic"
          targetId={topic.id}
          score={topic.score}
          hasUpvoted={topic.user_has_upvoted}
          label={`topic: ${topic.title}`}
        />
        <StanceButtons onPick={onRespond} />
        {user?.uid === topic.creator_uid && (
          <button type="button" className="btn btn-small btn-ghost btn-danger" onClick={() => void remove()}>
            Delete
          </button>
        )}
      </div>
      {deleteError && (
        <p className="error-text" role="alert">
          Delete Error: {deleteError}
        </p>
      )}
    </section>
  );
}
