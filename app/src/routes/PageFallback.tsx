// What shows while a page's chunk loads. On a first visit to a topic's page that is the topic's head
// (its chips, title and line), from the data the server put into the page (data/first-page.ts), drawn
// where and as the page draws it (TopicHeader's classes): on a phone the title then paints with the
// app's header, not half a second later behind the page's chunk and the Markdown renderer, and
// nothing above the first argument moves when the page arrives.
import { matchPath, useLocation } from 'react-router-dom';
import type { Topic } from '../../../shared/types';
import { BackToTopics, TopicChips, TopicLine } from '../components/TopicHeader/TopicHeadLines';

const TOPIC_ROUTES = ['/topics/:topicId', '/topics/:topicId/responses/:responseId'];

/** The topic whose page is at `pathname`, when it is `topic` (and nothing about it is moderated). */
function topicAt(pathname: string, topic: Topic | null): Topic | null {
  if (!topic || topic.moderation !== null) return null;
  const id = TOPIC_ROUTES.map((route) => matchPath(route, pathname)?.params.topicId).find((found) => found !== undefined);
  return id === topic.id ? topic : null;
}

/** The page's own box (so nothing below the header jumps), with a first visit's topic head in it. */
export function PageFallback({ firstTopic }: { firstTopic: Topic | null }) {
  const topic = topicAt(useLocation().pathname, firstTopic);
  return (
    <main className="page" id="main" aria-busy="true">
      {topic && (
        <>
          <BackToTopics />
          <section className="topic-header card" aria-labelledby="topic-title">
            <TopicChips categories={topic.categories} />
            <h1 id="topic-title" className="topic-title">
              {topic.title}
            </h1>
            <TopicLine topic={topic} />
          </section>
        </>
      )}
    </main>
  );
}
