// "This was already said": after a pause in typing, up to three responses of the topic
// that make much the same point (shared/rules/similarity.ts, over the device's copy: offline too),
// each with "Upvote it instead" and "Reply to it". Only a hint: the writer may still post. Once the
// word vectors have come (hooks/useWordVectors.ts) it also knows a point made in other words.
import { useContext, useEffect, useId, useMemo, useState } from 'react';
import { MSG } from '../../../../shared/messages';
import { authorName } from '../../../../shared/rules/author-name';
import {
  buildSimilarityIndex,
  MIN_SIMILARITY_WORDS,
  normaliseWords,
  primeTermsCache,
  SIMILARITY_DEBOUNCE_MS,
  type SimilarityIndex,
  type Terms,
} from '../../../../shared/rules/similarity';
import type { WordVectors } from '../../../../shared/rules/word-vectors';
import { truncate } from '../../../../shared/rules/truncate';
import type { ResponseType } from '../../../../shared/constants';
import { useBlockedUids } from '../../hooks/useBlocks';
import { useDebouncedValue } from '../../hooks/useDebouncedValue';
import type { ResponseView } from '../../hooks/useReplies';
import { useSession } from '../../hooks/useSession';
import { useTopicResponses } from '../../hooks/useTopicResponses';
import { TopicTreeContext } from '../../hooks/useTopicTree';
import { useVote } from '../../hooks/useVote';
import { useWordVectors } from '../../hooks/useWordVectors';
import { useSignInPrompt } from '../SignInModal/useSignInPrompt';
import { usePlainText } from '../FormattedText/useMarkdown';

export const ALREADY_SAID = 'This was already said';
export const ALREADY_SAID_NOTE =
  'Responses here that seem to make the same point, found by the words they share and what those words mean. ' +
  'It can miss a point put very differently, or flag one that uses the same words to say something else: ' +
  'you can upvote or answer one of them, or post yours anyway.';
export const UPVOTE_INSTEAD = 'Upvote it instead';
export const UPVOTED_INSTEAD = 'Upvoted';
export const REPLY_TO_IT = 'Reply to it';
const HINT_CHARS = 140;
/** Each response text's terms, shared by every composer of the session (a vote leaves texts as they were). */
const TERMS_CACHE = new Map<string, Terms>();
/** Past this many texts the cache starts again (a long session across many big debates). */
const TERMS_CACHE_MAX = 50_000;
/** An idle slice's length: short enough never to be felt while typing. */
const PRIME_SLICE_MS = 8;

type IdleWindow = Window & { requestIdleCallback?: (run: () => void) => number; cancelIdleCallback?: (id: number) => void };

/**
 * From the first character typed, works out the topic's texts' terms in idle slices, so that the
 * comparison after the pause builds its index from the cache in one short step (a 10,000-response
 * topic: docs/BENCHMARKS.md).
 */
function usePrimedTerms(texts: readonly string[] | null, vectors: WordVectors | null) {
  useEffect(() => {
    if (!texts) return;
    if (TERMS_CACHE.size > TERMS_CACHE_MAX) TERMS_CACHE.clear();
    const w = window as IdleWindow;
    let handle: number | null = null;
    const slice = () => {
      const end = performance.now() + PRIME_SLICE_MS;
      const done = primeTermsCache(texts, TERMS_CACHE, () => performance.now() > end, vectors);
      handle = done ? null : w.requestIdleCallback ? w.requestIdleCallback(slice) : window.setTimeout(slice, 0);
    };
    slice();
    return () => {
      if (handle === null) return;
      if (w.cancelIdleCallback) w.cancelIdleCallback(handle);
      else window.clearTimeout(handle);
    };
  }, [texts, vectors]);
}

interface AlreadySaidProps {
  topicId: string;
  text: string;
  /** The response being answered: never offered as "already said" in its own reply box. */
  parentId: string | null;
  /** The type being written, kept when the point moves to a reply. */
  type: ResponseType;
  /** The writer chose to answer `responseId` instead: the text moves to that reply. */
  onMoved: () => void;
}

/** Same texts in the same order: a vote re-emits the list with every text as it was. */
function sameTexts(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((text, i) => text === b[i]);
}

/**
 * Indexes the topic's texts, again only when a text changed (a response added, edited or removed),
 * never for a vote: a list with the same texts gets the previous index back. Uses the primed cache.
 */
function createTextIndexer() {
  let last: { texts: readonly string[]; vectors: WordVectors | null; index: SimilarityIndex<string> } | null = null;
  return (texts: readonly string[], vectors: WordVectors | null): SimilarityIndex<string> => {
    if (last && last.vectors === vectors && sameTexts(last.texts, texts)) return last.index;
    last = { texts, vectors, index: buildSimilarityIndex(texts, (text) => text, TERMS_CACHE, vectors) };
    return last.index;
  };
}

export function AlreadySaid({ topicId, text, parentId, type, onMoved }: AlreadySaidProps) {
  const typed = useDebouncedValue(text, SIMILARITY_DEBOUNCE_MS);
  // Nothing is read before the writer starts, nor compared until the draft says enough to be a point.
  const started = text.trim() !== '';
  const enough = normaliseWords(typed).length >= MIN_SIMILARITY_WORDS;
  const { responses } = useTopicResponses(topicId, started || enough);
  const blocked = useBlockedUids();
  // Moderated text is a notice, and blocked authors are hidden: neither is offered.
  const candidates = useMemo(
    () => responses.filter((r) => !r.moderation && r.id !== parentId && !blocked.has(r.creator_uid)),
    [responses, parentId, blocked],
  );
  const texts = useMemo(() => (candidates.length > 0 ? candidates.map((r) => r.content) : null), [candidates]);
  const vectors = useWordVectors(started);
  usePrimedTerms(started ? texts : null, vectors);
  const [indexer] = useState(createTextIndexer);
  const index = useMemo(() => (enough && texts ? indexer(texts, vectors) : null), [enough, texts, vectors, indexer]);
  const matches = useMemo(
    () => (index && text.trim() ? index.similarTo(typed).map((m) => candidates[m.position]!) : []),
    [index, typed, text, candidates],
  );
  const titleId = useId();
  return (
    // Always mounted and polite: the hint is announced when it appears, never steals focus.
    <div className="already-said-live" aria-live="polite" data-testid="already-said">
      {matches.length > 0 && (
        <section className="already-said" aria-labelledby={titleId}>
          <h3 className="already-said-title" id={titleId}>
            <span aria-hidden="true">↺ </span>
            {ALREADY_SAID}
          </h3>
          <p className="already-said-note">{ALREADY_SAID_NOTE}</p>
          <ul className="already-said-list">
            {matches.map((item) => (
              <SimilarResponse key={item.id} response={item} draft={text} type={type} onMoved={onMoved} />
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

function SimilarResponse({
  response,
  draft,
  type,
  onMoved,
}: {
  response: ResponseView;
  draft: string;
  type: ResponseType;
  onMoved: () => void;
}) {
  const tree = useContext(TopicTreeContext);
  const { user } = useSession();
  const vote = useVote('response', response.id, response.user_has_upvoted);
  const textId = useId();
  const plain = usePlainText();
  const own = user?.uid === response.creator_uid;
  // Signed out the button stays focusable (aria-disabled): a press opens the sign-in, as VoteButton does.
  const signIn = useSignInPrompt();
  async function reply() {
    if (!tree) return;
    // To the response first (its thread opened), then its reply box opens there and takes the focus
    // and the text; if it cannot be shown, the text stays where it is.
    if (!(await tree.goToResponse(response.id))) return;
    tree.requestReply(response.id, type, draft);
    onMoved();
  }
  return (
    <li className="already-said-item" data-response-id={response.id}>
      <p className="already-said-text" id={textId}>
        “{truncate(plain(response.content), HINT_CHARS)}” <span className="already-said-by">— {authorName(response.username)}</span>
      </p>
      <div className="already-said-actions">
        {!own && (
          <button
            type="button"
            className="btn btn-small"
            aria-pressed={vote.upvoted}
            aria-describedby={textId}
            disabled={vote.pending}
            aria-disabled={vote.pending}
            aria-haspopup={!user ? 'dialog' : undefined}
            onClick={() => (user ? void vote.toggle() : signIn.ask(MSG.loginToVote))}
          >
            {vote.upvoted ? UPVOTED_INSTEAD : UPVOTE_INSTEAD}
          </button>
        )}
        {tree && (
          <button type="button" className="btn btn-small" aria-describedby={textId} onClick={() => void reply()}>
            {REPLY_TO_IT}
          </button>
        )}
      </div>
      {signIn.prompt}
      {vote.error && (
        <p className="error-text" role="alert">
          Vote Error: {vote.error}
        </p>
      )}
    </li>
  );
}
