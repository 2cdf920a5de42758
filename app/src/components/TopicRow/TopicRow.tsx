// One row of the topic list: upvote + score, title, relative time, author, response count.
import '../ModeratedText/ModeratedText.css';
import { Link } from 'react-router-dom';
import type { TopicView } from '../../hooks/useTopic';
import { RelativeTime } from '../RelativeTime/RelativeTime';
import { VoteButton } from '../VoteButton/VoteButton';
import './TopicRow.css';
import { AuthorLink } from '../AuthorLink/AuthorLink';

export function responsesLabel(count: number): string {
  return `${count} ${count === 1 ? 'response' : 'responses'}`;
}

export function TopicRow({ topic }: { topic: TopicView }) {
  return (
    <li className="topic-row card" data-testid="topic-row" data-topic-id={topic.id}>
      <VoteButton
        targetType="topic"
        targetId={topic.id}
        score={topic.score}
        hasUpvoted={topic.user_has_upvoted}
        label={`topic: ${topic.title}`}
      />
      <div className="topic-row-body">
        {/* A removed or hidden topic's title is the notice that replaced it: read as one. */}
        <Link to={`/topics/${topic.id}`} className={topic.moderation ? 'topic-row-title moderated-text' : 'topic-row-title'}>
          {topic.title}
        </Link>
        <div className="topic-row-meta">
          {topic.categories.map((c) => (
            <span key={c} className="chip">
              {c}
            </span>
          ))}
          <RelativeTime date={topic.created_at} />
          <span>
            by <AuthorLink uid={topic.creator_uid} name={topic.username} />
          </span>
          <span>{responsesLabel(topic.responses_count)}</span>
        </div>
      </div>
    </li>
  );
}
