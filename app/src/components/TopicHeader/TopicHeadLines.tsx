// The lines of a topic's head that need nothing but the topic: the way back, its chips and its line
// (when, by whom, how many responses). The topic page's head (TopicHeader) and a first visit's head
// drawn before the page's chunk (routes/PageFallback.tsx) share them, so the two look the same.
import { Link, useNavigate } from 'react-router-dom';
import type { Category } from '../../../../shared/constants';
import { AuthorLink } from '../AuthorLink/AuthorLink';
import { RelativeTime } from '../RelativeTime/RelativeTime';
import { responsesLabel } from '../TopicRow/TopicRow';
import './TopicHeader.css';

export function BackToTopics() {
  const navigate = useNavigate();
  return (
    <button type="button" className="btn btn-ghost topic-back" onClick={() => navigate('/')}>
      <span aria-hidden="true">← </span>Back to Topics
    </button>
  );
}

export function TopicChips({ categories }: { categories: readonly Category[] }) {
  return (
    <div className="topic-chips">
      {categories.map((c) => (
        <Link key={c} className="chip" to={`/c/${encodeURIComponent(c)}`}>
          {c}
        </Link>
      ))}
    </div>
  );
}

interface TopicLineProps {
  topic: { created_at: string; creator_uid: string; username: string | null; responses_count: number };
}

export function TopicLine({ topic }: TopicLineProps) {
  return (
    <p className="topic-meta">
      <RelativeTime date={topic.created_at} /> ·{' '}
      <span>
        by <AuthorLink uid={topic.creator_uid} name={topic.username} />
      </span>{' '}
      · <span data-testid="topic-responses-count">{responsesLabel(topic.responses_count)}</span>
    </p>
  );
}
