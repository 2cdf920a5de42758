// The response form: type chosen by Agree / Disagree / Discuss, content, and the
// optional quote and sources panels. Also used inline for Edit.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { PLACEHOLDER_CHARS, QUOTED_BLOCK_CHARS, type ResponseType } from '../../../../shared/constants';
import { MSG } from '../../../../shared/messages';
import { truncate } from '../../../../shared/rules/truncate';
import { useCreateResponse, type NewSource } from '../../hooks/useCreateResponse';
import { useDraft } from '../../hooks/useDraft';
import { useData } from '../../hooks/useData';
import { useUnsentDraft, type UnsentDraft } from '../../hooks/useUnsentDraft';
import { useEditResponse } from '../../hooks/useEditResponse';
import type { QuotedResponse } from '../../hooks/useResponseSearch';
import { useSession } from '../../hooks/useSession';
import { useWriteBlock } from '../../hooks/useWriteBlock';
import { getSession } from '../../auth/session';
import { SignInModal } from '../SignInModal/SignInModal';
import { StanceButtons } from '../Stance/Stance';
import { QuotePanel } from './QuotePanel';
import { SourcesPanel } from './SourcesPanel';
import { useMentionSuggest } from './MentionSuggest';
import { AlreadySaid } from './AlreadySaid';
import { RelativeTime } from '../RelativeTime/RelativeTime';
import './Composer.css';
import { FormattedText } from '../FormattedText/FormattedText';
import { usePlainText } from '../FormattedText/useMarkdown';
import { errorMessage } from '../../error-message';

/** Shown to a signed-out visitor before they type. */
export const SIGN_IN_NOTE = 'Sign in to post a response. What you write here is kept while you sign in.';
/** Shown once what is in the box is stored on this device (it survives a reload or going offline). */
export const DRAFT_SAVED = 'Draft saved';

interface ComposerProps {
  topicId: string;
  parentId: string | null;
  /** What is being answered (topic title or response content), for the placeholder. */
  replyingTo: string;
  type: ResponseType;
  onType: (type: ResponseType) => void;
  edit?: { responseId: string; content: string; quote: QuotedResponse | null; sources: NewSource[] };
  autoFocus?: boolean;
  /** Changes when Agree / Disagree / Discuss asks for this form again. */
  focusSignal?: number;
  onDone?: () => void;
  onCancel?: () => void;
  /** Text the box opens with (a point moved here by "Reply to it"); it wins over a stored draft of that reply. */
  initialText?: string;
  /**
   * One line until it is used (focused, typed in, asked for by Respond): the topic page's form,
   * so that on a phone the arguments start within the first screen, not under an idle form.
   */
  compact?: boolean;
}

/** How to format, said under the preview. */
export const FORMAT_HINT = 'Formatting: *emphasis*, **strong**, [link](https://…), > quote, - list, `code`.';

export function Composer({
  topicId,
  parentId,
  replyingTo,
  type,
  onType,
  edit,
  autoFocus,
  focusSignal,
  onDone,
  onCancel,
  initialText,
  compact = false,
}: ComposerProps) {
  const { ready: sessionReady, user } = useSession();
  const uid = user?.uid ?? null;
  const data = useData();
  const createResponse = useCreateResponse();
  const editResponse = useEditResponse();
  const idPrefix = `composer-${edit?.responseId ?? parentId ?? 'root'}`;
  const [content, setContent] = useState(edit?.content ?? initialText ?? '');
  const [quote, setQuote] = useState<QuotedResponse | null>(edit?.quote ?? null);
  const [sources, setSources] = useState<NewSource[]>(edit?.sources ?? []);
  // The response as the editor opened on it (the props follow later pulls, the form does not): what
  // the edit is made on, so a change another device made meanwhile is a conflict, not overwritten.
  const [editedFrom] = useState(() => edit && { content: edit.content, quotedResponseId: edit.quote?.id ?? null, sources: edit.sources });
  const [panel, setPanel] = useState<'quote' | 'sources' | null>(null);
  // The text as it will read (formatted), in place of the box; the box stays mounted, caret and all.
  const [previewing, setPreviewing] = useState(false);
  const plain = usePlainText();
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [signInOpen, setSignInOpen] = useState(false);
  const [used, setUsed] = useState(false);
  // A signed-out visitor pressed Post: the reply is sent once they have signed in.
  const postAfterSignIn = useRef(false);
  const textRef = useRef<HTMLTextAreaElement>(null);
  // A locked topic or a suspended account: the reason instead of the form.
  const blocked = useWriteBlock(topicId, Boolean(edit));
  const mentions = useMentionSuggest({ content, setContent, textRef, idPrefix, selfUid: uid });

  // What is in the box belongs to whoever typed it: when that person signs out (or another signs
  // in), the box empties; their stored draft stays theirs. A visitor's text is kept through sign-in.
  const [owner, setOwner] = useState(uid);
  if (owner !== uid) {
    setOwner(uid);
    if (owner !== null && !edit) {
      setContent('');
      setQuote(null);
      setSources([]);
      setPanel(null);
      setError(null);
    }
  }
  if (uid && signInOpen) setSignInOpen(false);

  const draftKey = edit ? null : parentId ? `reply:${parentId}` : `topic:${topicId}`;
  const draft = useDraft(draftKey, uid, content, (saved) => setContent((current) => current || saved));
  // Another account's draft for this place (the same person under a new uid, most often): offered
  // once who is here is known and their own draft is back in the box.
  const unsent = useUnsentDraft(draftKey, uid, uid ? draft.ready : sessionReady);
  // Restored by a visitor: it becomes theirs when they sign in (or goes when they post).
  const restoredFrom = useRef<UnsentDraft | null>(null);
  // Restored while signed in: its move to this user, which a post's deletion of the draft must follow.
  const adopting = useRef<Promise<void> | null>(null);

  function restoreUnsent() {
    const found = unsent.draft;
    if (!found) return;
    // Below what is in the box already: nothing typed is replaced.
    const text = content.trim() ? `${content}\n\n${found.text}` : found.text;
    setContent(text);
    unsent.taken();
    if (uid) adopting.current = data.adoptDraft(found.owner, found.key, text).catch(() => undefined);
    else restoredFrom.current = found;
  }

  /** The restored draft went out with a post: it is deleted, after its move to this user if one is under way. */
  function forgetRestored() {
    const from = restoredFrom.current;
    restoredFrom.current = null;
    if (from) void data.discardDraft(from.owner, from.key).catch(() => undefined);
    const moving = adopting.current;
    adopting.current = null;
    if (moving && draftKey) void moving.then(() => data.deleteDraft(draftKey)).catch(() => undefined);
  }
  useEffect(() => {
    if (autoFocus) textRef.current?.focus();
  }, [autoFocus, type, focusSignal]);

  async function send() {
    const submitted = { content, quote, sources };
    setError(null);
    setSaving(true);
    // Emptied at once: whatever is typed from now on is the next reply and must stay.
    if (!edit) {
      draft.clear();
      forgetRestored();
      setContent('');
      setQuote(null);
      setSources([]);
      setPanel(null);
      setPreviewing(false);
    }
    try {
      if (edit) await editResponse(edit.responseId, { content, quotedResponseId: quote?.id ?? null, sources, editedFrom });
      else
        await createResponse({
          topicId,
          parentResponseId: parentId,
          type,
          content: submitted.content,
          quotedResponseId: submitted.quote?.id ?? null,
          sources: submitted.sources,
        });
      onDone?.();
    } catch (e) {
      // Refused: the reply comes back (before anything typed since) with the reason.
      if (!edit) {
        setContent((current) => (current.trim() ? `${submitted.content}\n\n${current}` : submitted.content));
        setQuote((current) => current ?? submitted.quote);
        setSources((current) => [...submitted.sources, ...current.filter((s) => !submitted.sources.some((x) => x.url === s.url))]);
      }
      setError(errorMessage(e));
    } finally {
      setSaving(false);
    }
  }

  // A draft a visitor restored is the signed-in user's now (unless it is about to be posted).
  useEffect(() => {
    const from = restoredFrom.current;
    if (!from || !uid || !draft.ready || postAfterSignIn.current) return;
    restoredFrom.current = null;
    adopting.current = data.adoptDraft(from.owner, from.key, content).catch(() => undefined);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- fires on the sign-in, with the text of that moment
  }, [uid, draft.ready]);

  // Posted once, as soon as the visitor's sign-in has opened their database and restored their draft.
  useEffect(() => {
    if (!postAfterSignIn.current || !uid || !draft.ready) return;
    postAfterSignIn.current = false;
    if (content.trim()) void Promise.resolve().then(send);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- fires on the sign-in, with the text of that moment
  }, [uid, draft.ready]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    if (!content.trim()) return setError(MSG.contentEmpty);
    if (!user) {
      setError(edit ? MSG.loginToEditResponse : MSG.loginToPostResponse);
      if (!edit) {
        postAfterSignIn.current = true;
        setSignInOpen(true);
      }
      return;
    }
    void send();
  }

  function closeSignIn() {
    setSignInOpen(false);
    // Closed without signing in: nothing is sent later behind the visitor's back; the text stays.
    if (!getSession().user) postAfterSignIn.current = false;
  }

  const verb = type === 'for' ? 'Agree with' : type === 'against' ? 'Disagree with' : 'Discuss';
  const placeholder = edit ? 'Edit your response' : `${verb} "${truncate(replyingTo, PLACEHOLDER_CHARS)}"`;
  const signedOut = sessionReady && !user && !edit;
  const noteId = `${idPrefix}-signin-note`;
  // Once open it stays open (a control never vanishes under the pointer when focus moves on). A
  // draft offered back opens it too: the one-line form would hide the offer until the box was used.
  const open = !compact || used || Boolean(focusSignal) || content !== '' || quote !== null || sources.length > 0 || unsent.draft !== null;
  // A suspension is said once, by the app's banner; a lock here, where the form would be.
  if (blocked?.kind === 'suspended') return null;
  if (blocked)
    return (
      <p className="composer-blocked" role="note" data-testid="composer-blocked">
        {blocked.message}
      </p>
    );
  return (
    <>
      <form
        className={`composer composer-${type}${open ? '' : ' composer-compact'}`}
        onSubmit={submit}
        onFocus={() => setUsed(true)}
        noValidate
        aria-label={edit ? 'Edit response' : parentId ? 'Reply' : 'Add a response'}
      >
        {!edit && (
          // The type of the response being written: the form's mode, one joined control on its top.
          <div className="composer-types reply-choices-buttons" role="group" aria-label="Response type">
            <StanceButtons active={type} onPick={onType} />
          </div>
        )}
        {signedOut && (
          <div className="composer-signin">
            <p id={noteId}>{SIGN_IN_NOTE}</p>
            <button type="button" className="btn btn-small" onClick={() => setSignInOpen(true)}>
              Sign in to post
            </button>
          </div>
        )}
        {unsent.draft && (
          <div className="composer-unsent" role="group" aria-label="Unsent draft">
            <p>
              You have an unsent draft from <RelativeTime date={unsent.draft.updated_at} />.
            </p>
            <button type="button" className="btn btn-small" onClick={restoreUnsent}>
              Restore
            </button>
            <button type="button" className="btn btn-small btn-ghost" onClick={() => void unsent.discard().catch(() => undefined)}>
              Discard
            </button>
          </div>
        )}
        <label htmlFor={`${idPrefix}-content`} className="visually-hidden">
          {edit ? 'Response content' : 'Your response'}
        </label>
        {/* The box and its @mention list, which overlays what follows. */}
        <div className="composer-field">
          <textarea
            id={`${idPrefix}-content`}
            ref={textRef}
            hidden={previewing}
            className="textarea"
            value={content}
            placeholder={placeholder}
            aria-describedby={signedOut ? noteId : undefined}
            {...mentions.textareaProps}
            onChange={(e) => {
              setContent(e.target.value);
              mentions.track(e);
            }}
            maxLength={10_000}
          />
          {previewing ? (
            <div className="composer-preview" role="region" aria-label="Preview" data-testid="composer-preview">
              {content.trim() ? <FormattedText text={content} /> : <p className="muted">Nothing to preview yet.</p>}
              <p className="composer-format-hint">{FORMAT_HINT}</p>
            </div>
          ) : (
            mentions.list
          )}
        </div>
        {quote && (
          <div className="composer-chosen">
            <span>Quoting: “{truncate(plain(quote.content), QUOTED_BLOCK_CHARS)}”</span>
            <button type="button" className="btn btn-small btn-ghost" onClick={() => setQuote(null)}>
              Remove quote
            </button>
          </div>
        )}
        <div className="composer-toolbar">
          <button type="button" className="btn btn-small" aria-pressed={previewing} onClick={() => setPreviewing(!previewing)}>
            Preview
          </button>
          <button
            type="button"
            className="btn btn-small"
            aria-expanded={panel === 'quote'}
            onClick={() => setPanel(panel === 'quote' ? null : 'quote')}
          >
            Quote a response
          </button>
          <button
            type="button"
            className="btn btn-small"
            aria-expanded={panel === 'sources'}
            onClick={() => setPanel(panel === 'sources' ? null : 'sources')}
          >
            Sources{sources.length ? ` (${sources.length})` : ''}
          </button>
        </div>
        {panel === 'quote' && (
          <QuotePanel
            topicId={topicId}
            excludeId={edit?.responseId}
            idPrefix={idPrefix}
            onPick={(q) => {
              setQuote(q);
              setPanel(null);
            }}
          />
        )}
        {panel === 'sources' && <SourcesPanel topicId={topicId} sources={sources} onChange={setSources} idPrefix={idPrefix} />}
        {error && (
          <p className="error-text" role="alert">
            {error}
          </p>
        )}
        <div className="composer-actions">
          <button type="submit" className="btn btn-primary" disabled={saving}>
            {edit ? 'Save' : 'Post response'}
          </button>
          {onCancel && (
            <button type="button" className="btn btn-ghost" onClick={onCancel}>
              Cancel
            </button>
          )}
          {!edit && (
            // Always in the layout (no jump when it appears); announced politely, once per save. A
            // live region, not role="status", so the page's own loading status stays the only one.
            <span className="composer-draft-status" aria-live="polite" data-testid="draft-status">
              {draft.saved ? DRAFT_SAVED : ''}
            </span>
          )}
        </div>
        {!edit && (
          // Under the buttons, so a hint appearing never moves "Post response" while typing.
          <AlreadySaid
            topicId={topicId}
            text={content}
            parentId={parentId}
            type={type}
            // The text moves to the reply box; a chosen quote or sources stay here, never lost.
            onMoved={() => {
              draft.clear();
              setContent('');
            }}
          />
        )}
      </form>
      {/* Outside the form: React events bubble through portals, its submit must not post the reply. */}
      {signInOpen && <SignInModal onClose={closeSignIn} />}
    </>
  );
}
