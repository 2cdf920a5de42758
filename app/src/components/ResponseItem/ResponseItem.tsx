// One response: stance, quoted block (jumps to the quote), content, sources, meta,
// actions (ResponseActions: vote, Reply: Agree/Disagree/Discuss, Show All / Hide All, and the
// quieter Δ, Report, Edit, Delete) and its replies, loaded on first expand and indented 20 px per level.
import { memo, useEffect, useRef, useState, type ComponentType } from 'react';
import { QUOTED_BLOCK_CHARS, REPLY_INDENT_PX, type ResponseType } from '../../../../shared/constants';
import { truncate } from '../../../../shared/rules/truncate';
import { RelativeTime } from '../RelativeTime/RelativeTime';
import { useDeleteResponse } from '../../hooks/useDeleteResponse';
import { useReplies, type ResponseView } from '../../hooks/useReplies';
import { useSession } from '../../hooks/useSession';
import { useExpanded, useHighlighted, useReplyRequest, useTopicTree } from '../../hooks/useTopicTree';
import { Composer } from '../Composer/Composer';
import { Stance } from '../Stance/Stance';
import './ResponseItem.css';
import { authorName } from '../../../../shared/rules/author-name';
import { AuthorLink } from '../AuthorLink/AuthorLink';
import { useDebateStanding } from '../../hooks/useStance';
import { hasCommonGround } from '../../../../shared/rules/common-ground';
import { CommonGroundBadge } from '../CommonGround/CommonGround';
import { DeltaCount } from '../DeltaCredit/DeltaCredit';
import { errorMessage } from '../../error-message';
import { ModeratedText } from '../ModeratedText/ModeratedText';
import { ResponseActions } from './ResponseActions';
import { EditedMark, EditHistoryPanel } from '../EditHistory/EditHistory';
import { FormattedText } from '../FormattedText/FormattedText';
import { usePlainText } from '../FormattedText/useMarkdown';

/** Characters of a response read for its 60-character label. */
const EXCERPT_READ = 400;

export const DELETE_RESPONSE_CONFIRM = 'Delete this response and all its replies?';

/** A response's text formatted, its @mentions as links (one function: rows stay memoised). */
const formatted = (text: string) => <FormattedText text={text} />;

/**
 * The list a response's replies render in: ResponseList, which renders this row and hands itself
 * down, so the two modules that render each other do not import each other.
 */
type ReplyListComponent = ComponentType<{ responses: ResponseView[]; depth: number; emptyText: string; label: string }>;

/** Memoised: a list re-rendered for one changed view (a vote, an edit) renders that row only. */
export const ResponseItem = memo(function ResponseItem({
  response,
  depth,
  ReplyList,
}: {
  response: ResponseView;
  depth: number;
  ReplyList: ReplyListComponent;
}) {
  const tree = useTopicTree();
  const { user } = useSession();
  const deleteResponse = useDeleteResponse();
  const expanded = useExpanded(tree, response.id);
  const highlighted = useHighlighted(tree, response.id);
  const [loadedOnce, setLoadedOnce] = useState(expanded);
  const replies = useReplies(tree.topicId, response.id, loadedOnce || expanded);
  const [replyType, setReplyType] = useState<ResponseType | null>(null);
  // "Reply to it" from another composer: this row's reply box opens with that text.
  const replyRequest = useReplyRequest(tree, response.id);
  const [carried, setCarried] = useState<{ text: string; key: number } | null>(null);
  useEffect(() => {
    if (!replyRequest) return;
    setReplyType(replyRequest.type);
    setCarried((old) => ({ text: replyRequest.text, key: (old?.key ?? 0) + 1 }));
    tree.takeReplyRequest(replyRequest);
  }, [replyRequest, tree]);
  const [editing, setEditing] = useState(false);
  const [historyOpen, setHistoryOpen] = useState(false);
  const editedMark = useRef<HTMLButtonElement>(null);
  // A first screen kept from before the edit history has no `versions`.
  const versions = response.versions ?? [];
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const isCreator = user?.uid === response.creator_uid;
  const standing = useDebateStanding();
  const commonGround = standing !== null && hasCommonGround(response, standing.participants);
  const plain = usePlainText();
  // A label's 60 characters: the first few hundred of the text are read for them, not all of it.
  const excerpt = truncate(plain(response.content.slice(0, EXCERPT_READ)), 60);

  function toggleReplies() {
    setLoadedOnce(true);
    tree.setExpanded(response.id, !expanded);
  }

  async function remove() {
    if (!window.confirm(DELETE_RESPONSE_CONFIRM)) return;
    setDeleteError(null);
    try {
      await deleteResponse(response.id);
    } catch (e) {
      setDeleteError(errorMessage(e));
    }
  }

  return (
    <li
      id={`response-${response.id}`}
      tabIndex={-1}
      data-testid="response"
      data-response-id={response.id}
      className={`response response-${response.type}${highlighted ? ' is-highlighted' : ''}`}
    >
      <article className="response-card" aria-label={`Response by ${authorName(response.username)}`}>
        <div className="response-top">
          <Stance type={response.type} />
          <span className="response-meta">
            <AuthorLink uid={response.creator_uid} name={response.username} /> · <RelativeTime date={response.created_at} />
            {/* An argument changed after people replied says so, with when (the exact time in its title);
                with earlier versions kept, the mark opens them. */}
            {response.edited_at && (
              <span className="response-edited" data-testid="response-edited">
                {' '}
                ·{' '}
                <EditedMark
                  editedAt={response.edited_at}
                  hasVersions={versions.length > 0}
                  open={historyOpen}
                  panelId={`edit-history-${response.id}`}
                  onToggle={() => setHistoryOpen(!historyOpen)}
                  buttonRef={editedMark}
                />
              </span>
            )}
          </span>
          <DeltaCount count={response.delta_count} />
          {commonGround && <CommonGroundBadge />}
        </div>
        {historyOpen && response.edited_at && versions.length > 0 && (
          <EditHistoryPanel
            id={`edit-history-${response.id}`}
            content={response.content}
            editedAt={response.edited_at}
            versions={versions}
            onClose={() => {
              setHistoryOpen(false);
              editedMark.current?.focus();
            }}
          />
        )}
        {response.quoted_response && (
          // The quote jumps to the quoted response; the author's name is a link of its own (to
          // their page, as every author name), so it sits beside the button, not inside it.
          <div className="response-quote" data-testid="quoted-block">
            <button
              type="button"
              className="response-quote-jump"
              onClick={() => void tree.goToResponse(response.quoted_response!.id)}
              aria-label={`Go to quoted response: ${truncate(plain(response.quoted_response.content), QUOTED_BLOCK_CHARS)}`}
            >
              <span className="response-quote-text">“{truncate(plain(response.quoted_response.content), QUOTED_BLOCK_CHARS)}”</span>
            </button>
            <span className="response-quote-by">
              —{' '}
              {response.quoted_response.creator_uid ? (
                <AuthorLink uid={response.quoted_response.creator_uid} name={response.quoted_response.username} />
              ) : (
                authorName(response.quoted_response.username)
              )}
            </span>
          </div>
        )}
        {editing ? (
          <Composer
            topicId={tree.topicId}
            parentId={response.parent_response_id}
            replyingTo={response.content}
            type={response.type}
            onType={() => undefined}
            autoFocus
            onDone={() => setEditing(false)}
            onCancel={() => setEditing(false)}
            edit={{
              responseId: response.id,
              content: response.content,
              quote: response.quoted_response,
              sources: response.sources.map(({ url, name, description }) => ({ url, name, description })),
            }}
          />
        ) : (
          // Removed or hidden by a moderator: the replacement text as a notice.
          <ModeratedText
            targetType="response"
            targetId={response.id}
            text={response.content}
            moderation={response.moderation}
            creatorUid={response.creator_uid}
            className="response-content"
            testId="response-content"
            as="div"
            format={formatted}
          >
            {response.sources.length > 0 && (
              <ul className="response-sources" aria-label="Sources">
                {response.sources.map((s) => (
                  <li key={s.url}>
                    <a href={s.url} target="_blank" rel="noreferrer nofollow">
                      {s.name || s.url}
                    </a>
                    {s.description && <span className="muted"> — {s.description}</span>}
                  </li>
                ))}
              </ul>
            )}
          </ModeratedText>
        )}
        <ResponseActions
          response={response}
          label={`response: ${excerpt}`}
          expanded={expanded}
          onToggleReplies={toggleReplies}
          onReply={(t) => {
            setReplyType(replyType === t ? null : t);
            // Closed: the next reply box opens empty (or with its stored draft).
            if (replyType === t) setCarried(null);
          }}
          isCreator={isCreator}
          editing={editing}
          onEdit={() => setEditing(true)}
          onDelete={() => void remove()}
          standing={standing}
        />
        {deleteError && (
          <p className="error-text" role="alert">
            Delete Error: {deleteError}
          </p>
        )}
        {replyType && (
          <Composer
            key={carried?.key ?? 0}
            initialText={carried?.text}
            topicId={tree.topicId}
            parentId={response.id}
            replyingTo={response.content}
            type={replyType}
            onType={setReplyType}
            autoFocus
            onCancel={() => {
              setReplyType(null);
              setCarried(null);
            }}
            onDone={() => {
              setReplyType(null);
              setCarried(null);
              setLoadedOnce(true);
              tree.setExpanded(response.id, true);
            }}
          />
        )}
      </article>
      {expanded && (
        <div className="response-replies" style={{ paddingLeft: REPLY_INDENT_PX }}>
          {replies.error ? (
            <p className="error-text" role="alert">
              Sub-responses Error: {String((replies.error as Error).message ?? replies.error)}
            </p>
          ) : replies.loading ? (
            <p className="status-text" role="status">
              Loading...
            </p>
          ) : (
            <ReplyList
              responses={replies.responses}
              depth={depth + 1}
              emptyText="No arguments yet for this response."
              label={`Replies to ${excerpt}`}
            />
          )}
        </div>
      )}
    </li>
  );
});
