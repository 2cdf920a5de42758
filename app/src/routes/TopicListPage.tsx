// Topic list (/ and /c/{category}): search-or-create box, sorts, category filter,
// rows with infinite scroll, and search results while text is in the box. Create signed out
// says the SPEC's "log in" text and offers the sign-in; once signed in, the topic is created
// (once) with what is in the box then, as the composer does with a reply. A visitor first reads
// what Crux is (Intro).
import { useEffect, useMemo, useRef, useState } from 'react';
import { useParams } from 'react-router-dom';
import type { Sort } from '../../../shared/constants';
import { SearchCreate, SearchResults } from '../components/SearchCreate/SearchCreate';
import { TopicFilters } from '../components/TopicFilters/TopicFilters';
import { TopicRow } from '../components/TopicRow/TopicRow';
import { BlockedCollapse } from '../components/BlockedCollapse/BlockedCollapse';
import type { TopicView } from '../hooks/useTopic';
import { InfiniteSentinel } from '../components/InfiniteSentinel/InfiniteSentinel';
import { useSession } from '../hooks/useSession';
import { useTopicList } from '../hooks/useTopicList';
import { useTopicSearch } from '../hooks/useTopicSearch';
import { useCreateTopic } from '../hooks/useCreateTopic';
import { errorMessage } from '../error-message';
import { useSuspension } from '../hooks/useMyAccount';
import { TopicWriteBlockContext, type WriteBlock } from '../hooks/useWriteBlock';
import { getSession } from '../auth/session';
import { SignInModal } from '../components/SignInModal/SignInModal';
import { Intro } from '../components/Intro/Intro';

export function TopicListPage() {
  const { category: rawCategory } = useParams();
  const category = rawCategory ?? null;
  const { user } = useSession();
  const [sort, setSort] = useState<Sort>('hot');
  const [text, setText] = useState('');
  const [newCategory, setNewCategory] = useState(category ?? '');
  // Browsing to a category preselects it for a new topic (adjusted while rendering, not in an effect).
  const [browsedCategory, setBrowsedCategory] = useState(category);
  if (browsedCategory !== category) {
    setBrowsedCategory(category);
    if (category) setNewCategory(category);
  }
  const list = useTopicList(sort, category, user?.uid ?? null);
  const search = useTopicSearch(text, sort);
  const creator = useCreateTopic(Boolean(user), () => setText(''));
  const isSearching = text.trim().length > 0;
  // A suspended account cannot start a topic or vote: Create and the rows' votes cannot be pressed,
  // and the app's banner alone says why (once a screen).
  const suspension = useSuspension();
  const block = useMemo<WriteBlock | null>(() => (suspension ? { kind: 'suspended', message: suspension } : null), [suspension]);
  const [signInOpen, setSignInOpen] = useState(false);
  // A visitor pressed Create: the topic is created once they have signed in.
  const createAfterSignIn = useRef(false);
  if (user && signInOpen) setSignInOpen(false);
  const create = () => {
    if (suspension) return;
    if (!user && text.trim()) {
      createAfterSignIn.current = true;
      setSignInOpen(true);
    }
    void creator.create(text, newCategory);
  };
  const uid = user?.uid ?? null;
  useEffect(() => {
    if (!createAfterSignIn.current || !uid) return;
    createAfterSignIn.current = false;
    // The data layer waits for the sign-in under way (data/session.ts) before creating.
    if (text.trim()) void creator.create(text, newCategory);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- fires on the sign-in, with the box of that moment
  }, [uid]);
  function closeSignIn() {
    setSignInOpen(false);
    // Closed without signing in: nothing is created later behind the visitor's back; the text stays.
    if (!getSession().user) createAfterSignIn.current = false;
  }

  return (
    <TopicWriteBlockContext.Provider value={block}>
      <main className="page" id="main">
        <h1 className="visually-hidden">{category ? `${category} topics` : 'Topics'}</h1>
        <Intro />
        <SearchCreate
          text={text}
          category={newCategory}
          onText={(t) => {
            setText(t);
            creator.clearError();
          }}
          onCategory={(c) => {
            setNewCategory(c);
            creator.clearError();
          }}
          onCreate={create}
          error={creator.error}
          disabled={creator.creating || suspension !== null}
        />
        {isSearching ? (
          <SearchResults text={text} signedIn={Boolean(user)} searching={search.searching} count={search.results.length} onCreate={create}>
            <SavedOnDeviceNote count={search.savedOnDevice} />
            <ul className="topic-list" aria-label="Matching topics">
              {search.results.map((t) => (
                <BlockedTopicRow key={t.id} topic={t} />
              ))}
            </ul>
          </SearchResults>
        ) : (
          <>
            <TopicFilters sort={sort} onSort={setSort} category={category} />
            <SavedOnDeviceNote count={list.savedOnDevice} />
            {list.error ? (
              <p className="error-text" role="alert">
                Error: {errorMessage(list.error)}
              </p>
            ) : list.initialLoading ? (
              <p className="status-text" role="status">
                Loading topics...
              </p>
            ) : list.topics.length === 0 ? (
              <p className="status-text">{category ? `No topics found for category "${category}".` : 'No topics yet. Create one above!'}</p>
            ) : (
              <ul className="topic-list" aria-label="Topics">
                {list.topics.map((t) => (
                  <BlockedTopicRow key={t.id} topic={t} />
                ))}
              </ul>
            )}
            <InfiniteSentinel onLoadMore={list.loadMore} trigger={list.topics.length} loading={list.loadingMore} />
          </>
        )}
        {signInOpen && <SignInModal onClose={closeSignIn} />}
      </main>
    </TopicWriteBlockContext.Provider>
  );
}

/** Offline a list shows what this device keeps, and says so. */
function SavedOnDeviceNote({ count }: { count: number | null }) {
  if (count === null) return null;
  return (
    <p className="status-text saved-on-device" role="status">
      {count === 1 ? 'Showing the 1 topic saved on this device' : `Showing the ${count} topics saved on this device`}
    </p>
  );
}

/** A topic row, or one line while its author is blocked: BlockedCollapse. */
function BlockedTopicRow({ topic }: { topic: TopicView }) {
  return (
    <BlockedCollapse
      uid={topic.creator_uid}
      name={topic.username}
      kind="topic"
      className="card"
      revealedSelector={`[data-topic-id="${topic.id}"] .topic-row-title`}
    >
      <TopicRow topic={topic} />
    </BlockedCollapse>
  );
}
