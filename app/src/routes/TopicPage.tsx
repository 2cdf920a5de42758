// Topic detail (/topics/{topicId}): header and actions, root response form, Responses list.
import { useEffect, useMemo, useRef, useState } from 'react';
import { distinctUntilChanged, map } from 'rxjs';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import type { ResponseType } from '../../../shared/constants';
import { MSG } from '../../../shared/messages';
import { Composer } from '../components/Composer/Composer';
import { ResponseList } from '../components/ResponseList/ResponseList';
import { TopicHeader } from '../components/TopicHeader/TopicHeader';
import { BackToTopics } from '../components/TopicHeader/TopicHeadLines';
import { useDocumentTitle } from '../hooks/useDocumentTitle';
import { ResponseOrderControl } from '../components/CommonGround/CommonGround';
import { DebateMapPanel, DebateMapToggle, useDebateMapDisclosure } from '../components/DebateMap/DebateMapPanel';
import { OpinionGroupsPanel, OpinionGroupsToggle, useOpinionGroupsDisclosure } from '../components/OpinionGroups/OpinionGroups';
import { StrongestCasePanel } from '../components/StrongestCase/StrongestCase';
import { DebateStandingContext, useStance, type DebateStanding } from '../hooks/useStance';
import { TopicWriteBlockContext, useWriteBlock } from '../hooks/useWriteBlock';
import type { ResponseOrder } from '../hooks/useReplies';
import { useData } from '../hooks/useData';
import { useObservable } from '../hooks/useObservable';
import { useReplies } from '../hooks/useReplies';
import { useSyncStatus } from '../hooks/useSyncStatus';
import { useTopic, type TopicView as TopicData } from '../hooks/useTopic';
import { TopicTreeContext, useTopicTreeState } from '../hooks/useTopicTree';
import { MentionPeopleContext, useTopicPeople } from '../hooks/useMentionPeople';
import '../components/ResponseItem/ResponseItem.css';
import { errorMessage } from '../error-message';

export const REPLIES_NOT_ON_DEVICE = 'Replies to this topic are not on this device yet; they load when you are back online';
export const LINKED_REPLY_MISSING = 'The reply this link points to is not here: it may have been deleted, or not reached this device yet.';

/** Whether the linked response is in the topic on this device (undefined while unknown). */
function useLinkedResponseHere(topicId: string, linked: string | null): boolean | undefined {
  const data = useData();
  const here$ = useMemo(
    () =>
      linked
        ? data.topicResponses$(topicId).pipe(
            map((responses) => responses.some((r) => r.id === linked)),
            distinctUntilChanged(),
          )
        : null,
    [data, topicId, linked],
  );
  return useObservable(here$).value;
}

/** The response id of a `#response-{id}` link (notifications, sources, user pages), if any. */
function linkedResponseId(hash: string): string | null {
  const match = /^#response-(.+)$/.exec(hash);
  return match ? decodeURIComponent(match[1]!) : null;
}

/**
 * The viewer's stance and the sides' sizes for every response (Δ toggle, common-ground badge): one
 * object that changes only when one of them does, so the memoised rows re-render only then.
 */
function useDebateStandingValue(standing: ReturnType<typeof useStance>, topic: TopicData | null | undefined): DebateStanding {
  const agree = topic?.stance_agree ?? 0;
  const disagree = topic?.stance_disagree ?? 0;
  const stance = standing.stance ?? null;
  const { creditDeltas } = standing;
  return useMemo(() => ({ stance, participants: { agree, disagree }, creditDeltas }), [stance, agree, disagree, creditDeltas]);
}

export function TopicPage() {
  const { topicId = '' } = useParams();
  return <TopicView key={topicId} topicId={topicId} />;
}

function TopicView({ topicId }: { topicId: string }) {
  const navigate = useNavigate();
  const { topic, error } = useTopic(topicId);
  // A removed topic's title is the moderators' notice: the tab says only the site's name then.
  useDocumentTitle(topic && !topic.moderation ? topic.title : null);
  const [order, setOrder] = useState<ResponseOrder>('default');
  // Read beside the topic, not after it: the first screen of a big debate waits for neither.
  const roots = useReplies(topicId, null, true, order);
  const standing = useStance(topicId);
  // A lock or a suspension: Respond and Reply are not offered (the composer or the banner says why).
  const writeBlock = useWriteBlock(topicId);
  const debate = useDebateStandingValue(standing, topic);
  const map = useDebateMapDisclosure();
  const groups = useOpinionGroupsDisclosure();
  const tree = useTopicTreeState(topicId);
  const people = useTopicPeople(topicId, topic?.creator_uid ?? null, topic?.username ?? null);
  const status = useSyncStatus();
  const online = status ? status.online : navigator.onLine;
  const [type, setType] = useState<ResponseType>('for');
  const [focusKey, setFocusKey] = useState(0);
  const formRef = useRef<HTMLDivElement>(null);
  // A response's own address (/topics/{id}/responses/{responseId}) or a `#response-{id}` link.
  const { responseId } = useParams();
  const hashLinked = linkedResponseId(useLocation().hash);
  const linked = responseId ?? hashLinked;
  const linkedHere = useLinkedResponseHere(topicId, linked);
  const [unrendered, setUnrendered] = useState<string | null>(null);
  const scrolledTo = useRef<string | null>(null);
  const { goToResponse } = tree;
  const topicHere = Boolean(topic);
  // Not on this device although its replies were pulled (or no pull can come): say so.
  const linkMissing =
    linked !== null && topicHere && ((linkedHere === false && (Boolean(topic?.responsesOnDevice) || !online)) || unrendered === linked);

  // A link to one reply opens its thread and scrolls to it, once, as soon as the reply is on
  // this device (it may arrive with the topic's first pull).
  useEffect(() => {
    if (!linked || !linkedHere || !topicHere || scrolledTo.current === linked) return;
    scrolledTo.current = linked;
    let live = true;
    void goToResponse(linked).then((found) => {
      if (live) setUnrendered(found ? null : linked);
    });
    return () => {
      live = false;
    };
  }, [linked, linkedHere, topicHere, goToResponse]);

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
  // Only before the first topic: when the data layer takes over from the first screen (or its
  // source is re-made), the topic on screen stays and so does the composer with what is typed in
  // it and its open sign-in dialog (a remount here lost both).
  else if (!topic)
    body = (
      <p className="status-text" role="status">
        Loading topic...
      </p>
    );
  else {
    body = (
      <TopicTreeContext.Provider value={tree}>
        <DebateStandingContext.Provider value={debate}>
          <MentionPeopleContext.Provider value={people}>
            <TopicWriteBlockContext.Provider value={writeBlock}>
              <TopicHeader topic={topic} standing={standing} onRespond={respond} onDeleted={() => navigate('/')} />
              {/* Each side's best points before the composer and the long list. */}
              <StrongestCasePanel topicId={topicId} />
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
                  compact
                />
              </div>
              <div className="topic-responses-bar">
                <h2 className="topic-section-title">Responses</h2>
                <ResponseOrderControl order={order} onChange={setOrder} />
                <DebateMapToggle open={map.open} controls={map.id} onToggle={map.toggle} />
                <OpinionGroupsToggle open={groups.open} controls={groups.id} onToggle={groups.toggle} />
              </div>
              {map.open && <DebateMapPanel id={map.id} topicId={topicId} />}
              {groups.open && <OpinionGroupsPanel id={groups.id} topic={topic} online={online} />}
              {linkMissing && (
                <p className="status-text" role="status">
                  {LINKED_REPLY_MISSING}
                </p>
              )}
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
            </TopicWriteBlockContext.Provider>
          </MentionPeopleContext.Provider>
        </DebateStandingContext.Provider>
      </TopicTreeContext.Provider>
    );
  }

  return (
    <main className="page" id="main">
      <BackToTopics />
      {body}
    </main>
  );
}
