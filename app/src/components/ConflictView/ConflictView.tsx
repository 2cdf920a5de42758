// A conflict in the sync problems list: someone (often the same person on another device)
// changed the item before this edit arrived. The server's text and the person's are shown
// side by side (stacked on phones); nothing is overwritten until they pick "Keep mine",
// "Keep theirs" or "Edit and merge" (a textarea prefilled with their text, then Save).
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import type { SyncProblem } from '../../hooks/useSyncProblems';
import { useResolveConflict, type ConflictChoice } from '../../hooks/useResolveConflict';
import './ConflictView.css';
import { errorMessage } from '../../error-message';

function text(state: Record<string, unknown> | null, field: string): string | null {
  const value = state?.[field];
  return typeof value === 'string' ? value : null;
}

/** The item's page, when the problem says which topic it belongs to. */
function itemLink(problem: SyncProblem): string | null {
  const state = problem.serverState ?? problem.localState;
  if (problem.collection === 'responses') {
    const topicId = text(state, 'topic_id');
    return topicId ? `/topics/${encodeURIComponent(topicId)}#response-${encodeURIComponent(problem.itemId)}` : null;
  }
  if (problem.collection === 'topics') return `/topics/${encodeURIComponent(problem.itemId)}`;
  return null;
}

export function ConflictView({ problem }: { problem: SyncProblem }) {
  const resolve = useResolveConflict();
  const headingId = useId();
  const [busy, setBusy] = useState(false);
  const [merging, setMerging] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const field = text(problem.localState, 'content') !== null ? 'content' : 'title';
  const mine = text(problem.localState, field);
  const theirs = text(problem.serverState, field);
  const deletedThere = problem.serverState?._deleted === true || problem.serverState?.deleted === true;
  const [merged, setMerged] = useState(mine ?? '');
  const link = itemLink(problem);
  const what = problem.collection === 'responses' ? 'response' : problem.collection === 'topics' ? 'topic' : 'item';

  async function choose(choice: ConflictChoice) {
    setBusy(true);
    setError(null);
    try {
      await resolve(problem.id, choice);
    } catch (e) {
      setError(errorMessage(e));
      setBusy(false);
    }
  }
  function saveMerged(event: FormEvent) {
    event.preventDefault();
    if (!merged.trim()) return setError('The merged text cannot be empty.');
    void choose({ keep: 'merged', content: merged });
  }

  return (
    <article className="sync-issue conflict" aria-labelledby={headingId} data-testid="conflict">
      <h3 id={headingId} className="conflict-title">
        Your {problem.action === 'edit' ? 'edit' : 'change'} of this {what} crossed a change made elsewhere
      </h3>
      <p className="conflict-reason">
        {problem.error} Nothing is overwritten until you choose.
        {link && (
          <>
            {' '}
            <Link to={link}>Open the {what}</Link>
          </>
        )}
      </p>
      {mine !== null && (
        <div className="conflict-sides">
          <section className="conflict-side" aria-label="On the server">
            <h4>On the server</h4>
            {deletedThere ? (
              <p className="muted">Deleted on the server.</p>
            ) : (
              <p className="conflict-text" data-testid="conflict-theirs">
                {theirs ?? ''}
              </p>
            )}
          </section>
          <section className="conflict-side" aria-label="Yours">
            <h4>Yours</h4>
            <p className="conflict-text" data-testid="conflict-mine">
              {mine}
            </p>
          </section>
        </div>
      )}
      {merging ? (
        <form className="conflict-merge" aria-label="Merge the two versions" onSubmit={saveMerged}>
          <label htmlFor={`${headingId}-merged`}>Merged text</label>
          <textarea
            id={`${headingId}-merged`}
            className="input"
            rows={5}
            value={merged}
            autoFocus
            onChange={(e) => setMerged(e.target.value)}
          />
          <span className="sync-issue-actions">
            <button type="submit" className="btn btn-small btn-primary" disabled={busy}>
              Save
            </button>
            <button type="button" className="btn btn-small btn-ghost" disabled={busy} onClick={() => setMerging(false)}>
              Cancel
            </button>
          </span>
        </form>
      ) : (
        <span className="sync-issue-actions">
          <button type="button" className="btn btn-small" disabled={busy} onClick={() => void choose({ keep: 'mine' })}>
            Keep mine
          </button>
          <button type="button" className="btn btn-small" disabled={busy} onClick={() => void choose({ keep: 'theirs' })}>
            Keep theirs
          </button>
          {mine !== null && field === 'content' && !deletedThere && (
            <button type="button" className="btn btn-small btn-ghost" disabled={busy} onClick={() => setMerging(true)}>
              Edit and merge
            </button>
          )}
        </span>
      )}
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
    </article>
  );
}
