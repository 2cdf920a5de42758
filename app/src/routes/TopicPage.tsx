// Topic detail (/topics/{topicId}): header and actions, root response form, Responses list.
import { useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { ResponseType } from '../../../shared/constants';
import { MSG } from '../../../shared/messages';
import { Composer } from '../components/Composer/Composer';
import { ResponseList } from '../components/ResponseList/ResponseList';
import { TopicHeader } from '../components/TopicHeader/TopicHeader';
import { useReplies } from '../hooks/useReplies';
import { useSyncStatus } from '../hooks/useSyncStatus';
import { useTopic } from '../hooks/useTopic';
import { TopicTreeContext, useTopicTreeState } from '../hooks/useTopicTree';
import { errorMessage } from './TopicListPage';
import '../components/ResponseItem/ResponseItem.css';

export const REPLIES_NOT_ON_DEVICE = 'Replies to this topic are not on this device yet; they load when you are back online';

export function TopicPage() {
  const { topicId = '' } = useParams();
  return <TopicView key={topicId} topicId={topicId} />;
}

function TopicView({ topicId }: { topicId: string }) {
  const navigate = useNavigate();
  const { topic, error, loading } = useTopic(topicId);
  const roots = useReplies(topicId, null, Boolean(topic));
  const tree = useTopicTreeState(topicId);
  const status = useSyncStatus();
  const online = status ? status.online : navigator.onLine;
  const [type, setType] = useState<ResponseType>('for');
  const [focusKey, setFocusKey] = useState(0);
  const formRef = useRef<HTMLDivElement>(null);

  function respond(next: ResponseType) {
    setType(next);
    setFocusKey((k) => k + 1);
    formRef.current?.scrollIntoView({ behavior: 'smooth', block: 'center' });
  }

  let body;
  if (error)
    body = (
      <p className="error-text" role="alert">
        Error: {errorMessage(error)}
      </p>
    );
  else if (topic === null)
    body = (
      <>
        <h1>{MSG.topicNotFound}</h1>
        <p className="status-text">
          It may have been deleted, or the link is mistyped. <Link to="/">Go to the topic list</Link>
        </p>
      </>
    );
  else if (loading || !topic)
    body = (
      <p className="status-text" role="status">
        Loading topic...
      </p>
    );
  else {
    body = (
      <TopicTreeContext.Provider value={tree}>
        <TopicHeader topic={topic} onRespond={respond} onDeleted={() => navigate('/')} />
        <div ref={formRef}>
          <h2 className="visually-hidden">Add a response</h2>
          <Composer
            focusSignal={focusKey}
            topicId={topicId}
            parentId={null}
            replyingTo={topic.title}
            type={type}
            onType={setType}
            autoFocus={focusKey > 0}
          />
        </div>
        <h2 className="topic-section-title">Responses</h2>
        {roots.error ? (
          <p className="error-text" role="alert">
            Error: {errorMessage(roots.error)}
          </p>
        ) : roots.loading ? (
          <p className="status-text" role="status">
            Loading responses...
          </p>
        ) : roots.responses.length === 0 && !topic.responsesOnDevice && topic.responses_count > 0 ? (
          // The server has replies this device has not pulled yet: never "No responses yet.".
          <p className="status-text response-empty" role="status">
            {online ? 'Loading responses...' : REPLIES_NOT_ON_DEVICE}
          </p>
        ) : (
          <ResponseList responses={roots.responses} depth={0} emptyText="No responses yet." label="Responses" />
        )}
      </TopicTreeContext.Provider>
    );
  }

  return (
    <main className="page" id="main">
      <button type="button" className="btn btn-ghost topic-back" onClick={() => navigate('/')}>
        <span aria-hidden="true">← </span>Back to Topics
      </button>
      {body}
    </main>
  );
}
