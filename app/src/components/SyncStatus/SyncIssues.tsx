// Writes the server refused or overruled, under the header. A refused write names its item
// ("Your reply to “…” in “…”"), shows the person's text and the server's reason, and offers
// only what can work (problem-wording.ts): Retry when a second attempt could succeed, "Post as
// a reply to the topic" when the response replied to was deleted, "Post it as <me>" for a write
// of another account whose session ended here, Copy text, and Discard, which asks first. A
// conflict shows both versions and waits for the person's choice (ConflictView).
import { useId, useMemo, useState } from 'react';
import { of } from 'rxjs';
import { useData } from '../../hooks/useData';
import { useObservable } from '../../hooks/useObservable';
import { useSession } from '../../hooks/useSession';
import { useSyncProblems, type SyncProblem } from '../../hooks/useSyncProblems';
import { ConflictView } from '../ConflictView/ConflictView';
import { Modal } from '../Modal/Modal';
import { errorMessage } from '../../error-message';
import { choiceLabel, describeProblem, discardWarning, type ProblemChoice, type ProblemContext } from './problem-wording';
import './SyncStatus.css';

const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** The topic and the response (replied to or voted on) a problem is about, by id. */
function placeOf(problem: SyncProblem): { topicId: string | null; responseId: string | null } {
  const local = problem.localState;
  if (problem.collection === 'topics') return { topicId: problem.itemId, responseId: null };
  if (problem.collection === 'responses') return { topicId: str(local.topic_id), responseId: str(local.parent_response_id) };
  if (problem.collection === 'votes') {
    if (local.target_type === 'topic') return { topicId: str(local.target_id), responseId: null };
    return { topicId: str(local.topic_id), responseId: str(local.target_id) };
  }
  if (problem.collection === 'stances') return { topicId: str(local.topic_id), responseId: null };
  return { topicId: null, responseId: null };
}

/** The device's copy of the problem's surroundings (never asks the server). */
function useContext(problem: SyncProblem, uid: string | null): ProblemContext {
  const data = useData();
  const { topicId, responseId } = placeOf(problem);
  const topic$ = useMemo(() => (topicId ? data.topic$(topicId) : of(null)), [data, topicId]);
  const responses$ = useMemo(() => (topicId && responseId ? data.topicResponses$(topicId) : of([])), [data, topicId, responseId]);
  const topic = useObservable(topic$).value;
  const responses = useObservable(responses$).value;
  const target = responseId ? responses?.find((r) => r.id === responseId) : undefined;
  return {
    uid,
    topicTitle: topic === undefined ? undefined : (topic?.title ?? null),
    targetExcerpt: responseId ? (target?.content ?? null) : undefined,
  };
}

function RefusedWrite({ problem }: { problem: SyncProblem }) {
  const data = useData();
  const { user } = useSession();
  const { retry, discard } = useSyncProblems();
  const headingId = useId();
  const ctx = useContext(problem, user?.uid ?? null);
  const wording = describeProblem(problem, ctx);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function run(task: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await task();
    } catch (e) {
      setError(errorMessage(e));
      setBusy(false);
    }
  }
  async function copy() {
    setError(null);
    try {
      await navigator.clipboard.writeText(wording.text ?? '');
      setNote('Copied.');
    } catch {
      setNote('Copying is not allowed here: select the text above and copy it.');
    }
  }
  function choose(choice: ProblemChoice) {
    switch (choice) {
      case 'retry':
      case 'post-as-me':
        return void run(() => retry(problem.id));
      case 'post-to-topic': {
        // The reply goes to the topic itself; a quote of the deleted response goes with it.
        const patch: Record<string, unknown> = { parent_response_id: null };
        if (problem.localState.quoted_response_id === problem.localState.parent_response_id) patch.quoted_response_id = null;
        return void run(() => data.fixProblem(problem.id, patch));
      }
      case 'copy':
        return void copy();
      case 'discard':
        return setConfirming(true);
    }
  }

  return (
    <article className="sync-issue" aria-labelledby={headingId} data-testid="sync-issue">
      <h2 id={headingId} className="sync-issue-subject">
        {wording.subject}
      </h2>
      <p className="sync-issue-reason">{wording.reason}</p>
      {wording.text && <blockquote className="sync-issue-text">{wording.text}</blockquote>}
      <div className="sync-issue-actions">
        {wording.choices.map((choice) => (
          <button
            key={choice}
            type="button"
            className={`btn btn-small${choice === 'discard' || choice === 'copy' ? ' btn-ghost' : ''}`}
            disabled={busy}
            onClick={() => choose(choice)}
          >
            {choiceLabel(choice, user?.displayName ?? null)}
          </button>
        ))}
      </div>
      <p className="sync-issue-note" role="status">
        {note}
      </p>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      {confirming && (
        <Modal title="Discard this change?" onClose={() => setConfirming(false)}>
          <p>{discardWarning(wording)}</p>
          <div className="sync-issue-confirm">
            <button type="button" className="btn" onClick={() => setConfirming(false)}>
              Keep it
            </button>
            <button
              type="button"
              className="btn btn-danger"
              onClick={() => {
                setConfirming(false);
                void run(() => discard(problem.id));
              }}
            >
              Discard
            </button>
          </div>
        </Modal>
      )}
    </article>
  );
}

export function SyncIssues() {
  const { problems } = useSyncProblems();
  if (problems.length === 0) return null;
  return (
    <section className="sync-issues" aria-label="Changes that could not be saved">
      {problems.map((problem) =>
        problem.kind === 'conflict' ? (
          <ConflictView key={problem.id} problem={problem} />
        ) : (
          <RefusedWrite key={problem.id} problem={problem} />
        ),
      )}
    </section>
  );
}
