// Writes the server refused or overruled: shown under the header with the
// server's reason. A refused write is retried or discarded (DESIGN.md §5); a
// conflict shows both versions and waits for the person's choice (ConflictView).
import { useState } from 'react';
import { useSyncProblems } from '../../hooks/useSyncProblems';
import { ConflictView } from '../ConflictView/ConflictView';
import './SyncStatus.css';
import { errorMessage } from '../../error-message';
import type { SyncAction } from '../../data/collections/index';

/** Each action a sync problem can name (a new one without its label does not compile). */
const ACTIONS = {
  create: 'A new item',
  edit: 'An edit',
  delete: 'A deletion',
  vote: 'A vote',
  read: 'A read mark',
  preferences: 'A preference change',
  stance: 'A stance',
  block: 'A block',
  unblock: 'An unblock',
  report: 'A report',
} satisfies Record<SyncAction, string>;
// A problem stored by an older version may name an action no longer made.
const labels: Partial<Record<string, string>> = ACTIONS;

export function SyncIssues() {
  const { problems: issues, retry, discard } = useSyncProblems();
  const [error, setError] = useState<string | null>(null);
  if (issues.length === 0) return null;
  const act = (run: () => Promise<void>) => run().catch((e: unknown) => setError(errorMessage(e)));
  return (
    <section className="sync-issues" aria-label="Changes that could not be saved">
      {issues.map((issue) =>
        issue.kind === 'conflict' ? (
          <ConflictView key={issue.id} problem={issue} />
        ) : (
          <div key={issue.id} className="sync-issue">
            <span>
              {labels[issue.action] ?? 'A change'} could not be saved: {issue.error}
            </span>
            <span className="sync-issue-actions">
              <button type="button" className="btn btn-small" onClick={() => act(() => retry(issue.id))}>
                Retry
              </button>
              <button type="button" className="btn btn-small btn-ghost" onClick={() => act(() => discard(issue.id))}>
                Discard
              </button>
            </span>
          </div>
        ),
      )}
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
