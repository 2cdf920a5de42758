// The response form: type chosen by Agree / Disagree / Discuss, content, and the
// optional quote and sources panels. Also used inline for Edit.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { PLACEHOLDER_CHARS, QUOTED_BLOCK_CHARS, type ResponseType } from '../../../../shared/constants';
import { MSG } from '../../../../shared/messages';
import { truncate } from '../../../../shared/rules/truncate';
import { useCreateResponse, type NewSource } from '../../hooks/useCreateResponse';
import { useDraft } from '../../hooks/useDraft';
import { useEditResponse } from '../../hooks/useEditResponse';
import type { QuotedResponse } from '../../hooks/useResponseSearch';
import { useSession } from '../../hooks/useSession';
import { StanceButtons } from '../Stance/Stance';
import { QuotePanel } from './QuotePanel';
import { SourcesPanel } from './SourcesPanel';
import './Composer.css';

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
}

export function Composer({ topicId, parentId, replyingTo, type, onType, edit, autoFocus, focusSignal, onDone, onCancel }: ComposerProps) {
  const { user } = useSession();
  const createResponse = useCreateResponse();
  const editResponse = useEditResponse();
  const idPrefix = `composer-${edit?.responseId ?? parentId ?? 'root'}`;
  const [content, setContent] = useState(edit?.content ?? '');
  const [quote, setQuote] = useState<QuotedResponse | null>(edit?.quote ?? null);
  const [sources, setSources] = useState<NewSource[]>(edit?.sources ?? []);
  const [panel, setPanel] = useState<'quote' | 'sources' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const textRef = useRef<HTMLTextAreaElement>(null);
  const draftKey = edit ? null : parentId ? `reply:${parentId}` : `topic:${topicId}`;
  const draft = useDraft(draftKey, user?.uid ?? null, content, (saved) => setContent((current) => current || saved));
  useEffect(() => {
    if (autoFocus) textRef.current?.focus();
  }, [autoFocus, type, focusSignal]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!content.trim()) return setError(MSG.contentEmpty);
    if (!user) return setError(edit ? MSG.loginToEditResponse : MSG.loginToPostResponse);
    setError(null);
    setSaving(true);
    try {
      if (edit) await editResponse(edit.responseId, { content, quotedResponseId: quote?.id ?? null, sources });
      else await createResponse({ topicId, parentResponseId: parentId, type, content, quotedResponseId: quote?.id ?? null, sources });
      if (!edit) {
        draft.clear();
        setContent('');
        setQuote(null);
        setSources([]);
        setPanel(null);
      }
      onDone?.();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setSaving(false);
    }
  }

  const verb = type === 'for' ? 'Agree with' : type === 'against' ? 'Disagree with' : 'Discuss';
  const placeholder = edit ? 'Edit your response' : `${verb} "${truncate(replyingTo, PLACEHOLDER_CHARS)}"`;
  return (
    <form
      className={`composer composer-${type}`}
      onSubmit={submit}
      noValidate
      aria-label={edit ? 'Edit response' : parentId ? 'Reply' : 'Add a response'}
    >
      {!edit && (
        <div className="composer-types" role="group" aria-label="Response type">
          <StanceButtons active={type} onPick={onType} />
        </div>
      )}
      <label htmlFor={`${idPrefix}-content`} className="visually-hidden">
        {edit ? 'Response content' : 'Your response'}
      </label>
      <textarea
        id={`${idPrefix}-content`}
        ref={textRef}
        className="textarea"
        value={content}
        placeholder={placeholder}
        onChange={(e) => setContent(e.target.value)}
        maxLength={10_000}
      />
      {quote && (
        <div className="composer-chosen">
          <span>Quoting: “{truncate(quote.content, QUOTED_BLOCK_CHARS)}”</span>
          <button type="button" className="btn btn-small btn-ghost" onClick={() => setQuote(null)}>
            Remove quote
          </button>
        </div>
      )}
      <div className="composer-toolbar">
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
      </div>
    </form>
  );
}
