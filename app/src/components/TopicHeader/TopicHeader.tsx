// Topic title, category chips, meta line, action bar (vote, Agree, Disagree, Discuss, Follow, Share,
// Delete; for moderators Lock / Unlock and Remove / Restore, without waiting for a report), the
// viewer's stance on the question and the balance of the debate (folded behind one button on a phone).
import { useState } from 'react';
import type { ResponseType } from '../../../../shared/constants';
import { MSG } from '../../../../shared/messages';
import { useDeleteTopic } from '../../hooks/useDeleteTopic';
import type { TopicView } from '../../hooks/useTopic';
import { useSession } from '../../hooks/useSession';
import { ReplyChoices } from '../Stance/Stance';
import { useTopicWriteBlock } from '../../hooks/useWriteBlock';
import { VoteButton } from '../VoteButton/VoteButton';
import './TopicHeader.css';
import { TopicChips, TopicLine } from './TopicHeadLines';
import { useResponseBalance } from '../../hooks/useResponseBalance';
import type { TopicStance } from '../../hooks/useStance';
import { BALANCE_LOADING, BALANCE_NOT_ON_DEVICE, BalanceBars } from '../BalanceBars/BalanceBars';
import { useSyncStatus } from '../../hooks/useSyncStatus';
import { WhereIStand } from '../WhereIStand/WhereIStand';
import { errorMessage } from '../../error-message';
import { ModeratedText } from '../ModeratedText/ModeratedText';
import { ReportButton } from '../ReportDialog/ReportDialog';
import { FollowButton } from '../FollowButton/FollowButton';
import { ShareButton } from '../ShareButton/ShareButton';
import { StandingDisclosure } from '../StandingDisclosure/StandingDisclosure';
import { useIsModerator } from '../../hooks/useMyAccount';
import { ModeratorActions } from '../ModerationAction/ModerationAction';

export const DELETE_TOPIC_CONFIRM = 'Delete this topic and all its responses?';

interface TopicHeaderProps {
  topic: TopicView;
  onRespond: (type: ResponseType) => void;
  onDeleted: () => void;
  /** The viewer's stance on the topic (read once by the page, shared with its responses). */
  standing: TopicStance;
}

export function TopicHeader({ topic, onRespond, onDeleted, standing }: TopicHeaderProps) {
  const { user } = useSession();
  const moderator = useIsModerator();
  const { balance } = useResponseBalance(topic.id);
  const writeBlock = useTopicWriteBlock();
  const status = useSyncStatus();
  const online = status ? status.online : navigator.onLine;
  // The server has replies this device has not pulled: the bar counts none of them, so it says so
  // (as the page below does) rather than 0 / 0 / 0 beside "1 response".
  const repliesElsewhere = !topic.responsesOnDevice && topic.responses_count > 0;
  const stances = { agree: topic.stance_agree ?? 0, disagree: topic.stance_disagree ?? 0, unsure: topic.stance_unsure ?? 0 };
  const deleteTopic = useDeleteTopic();
  const [deleteError, setDeleteError] = useState<string | null>(null);
  async function remove() {
    if (!user) return setDeleteError(MSG.loginToDeleteTopic);
    if (!window.confirm(DELETE_TOPIC_CONFIRM)) return;
    try {
      await deleteTopic(topic.id);
      onDeleted();
    } catch (e) {
      setDeleteError(errorMessage(e));
    }
  }
  return (
    <section className="topic-header card" aria-labelledby="topic-title">
      <TopicChips categories={topic.categories} />
      {topic.locked && (
        <p className="topic-locked-badge" data-testid="topic-locked">
          <span aria-hidden="true">🔒</span> Locked
        </p>
      )}
      <ModeratedText
        as="h1"
        id="topic-title"
        targetType="topic"
        targetId={topic.id}
        text={topic.title}
        moderation={topic.moderation}
        creatorUid={topic.creator_uid}
        className="topic-title"
      />
      <TopicLine topic={topic} />
      <div className="topic-actions">
        <VoteButton
          targetType="topic"
          targetId={topic.id}
          score={topic.score}
          hasUpvoted={topic.user_has_upvoted}
          label={`topic: ${topic.title}`}
        />
        {!writeBlock && <ReplyChoices label="Respond" onPick={onRespond} />}
        {user && !topic.moderation && <FollowButton topicId={topic.id} title={topic.title} />}
        {!topic.moderation && !topic.isPending && <ShareButton title={topic.title} path={`/topics/${topic.id}`} />}
        {user?.uid !== topic.creator_uid && !topic.isPending && (
          <ReportButton targetType="topic" targetId={topic.id} label={`topic: ${topic.title}`} target={topic.title} />
        )}
        {user?.uid === topic.creator_uid && (
          <button type="button" className="btn btn-small btn-ghost btn-danger" onClick={() => void remove()}>
            Delete
          </button>
        )}
        {moderator && !topic.isPending && (
          <ModeratorActions
            actions={[topic.locked ? 'unlock' : 'lock', topic.moderation ? 'restore' : 'remove']}
            targetType="topic"
            targetId={topic.id}
            what="topic"
            label={`topic: ${topic.title}`}
            excerpt={topic.title}
          />
        )}
      </div>
      {deleteError && (
        <p className="error-text" role="alert">
          Delete Error: {deleteError}
        </p>
      )}
      <StandingDisclosure counts={stances} mine={user ? (standing.stance?.stance ?? null) : null}>
        <WhereIStand standing={standing} />
        <BalanceBars
          balance={balance}
          stances={stances}
          mindsChanged={topic.minds_changed ?? 0}
          responsesNote={repliesElsewhere ? (online ? BALANCE_LOADING : BALANCE_NOT_ON_DEVICE) : null}
        />
      </StandingDisclosure>
    </section>
  );
}
