// A response's edit history: the "edited" mark as a button that shows or hides the list of its
// versions, newest first, each with a word diff against the one before it. Added and removed words
// are <ins> and <del> with words for screen readers ("added", "removed"), and struck through or
// underlined, so colour is never the only sign. Everything comes from the response as stored on the
// device: readable offline.
import { useId, type Ref } from 'react';
import { EDIT_GRACE_MS, wordDiff, type DiffPart } from '../../../../shared/rules/edit-history';
import type { ResponseVersion } from '../../../../shared/types';
import { RelativeTime } from '../RelativeTime/RelativeTime';
import './EditHistory.css';

const GRACE_MINUTES = Math.round(EDIT_GRACE_MS / 60_000);

/** "edited 3 hours ago": a button when earlier versions are kept, plain text otherwise. */
export function EditedMark({
  editedAt,
  hasVersions,
  open,
  panelId,
  onToggle,
  buttonRef,
}: {
  editedAt: string;
  hasVersions: boolean;
  open: boolean;
  panelId: string;
  onToggle: () => void;
  /** The panel's "Hide" gives focus back to the mark. */
  buttonRef?: Ref<HTMLButtonElement>;
}) {
  if (!hasVersions) {
    return (
      <>
        edited <RelativeTime date={editedAt} />
      </>
    );
  }
  return (
    <button
      ref={buttonRef}
      type="button"
      className="edited-mark"
      aria-expanded={open}
      aria-controls={panelId}
      title={open ? 'Hide the earlier versions' : 'Show the earlier versions'}
      onClick={onToggle}
    >
      edited <RelativeTime date={editedAt} />
    </button>
  );
}

function Diff({ parts }: { parts: DiffPart[] }) {
  return (
    <p className="edit-diff" data-testid="edit-diff">
      {parts.map((part, index) =>
        part.kind === 'same' ? (
          <span key={index}>{part.text}</span>
        ) : part.kind === 'added' ? (
          <ins key={index}>
            <span className="visually-hidden">[added: </span>
            {part.text}
            <span className="visually-hidden">]</span>
          </ins>
        ) : (
          <del key={index}>
            <span className="visually-hidden">[removed: </span>
            {part.text}
            <span className="visually-hidden">]</span>
          </del>
        ),
      )}
    </p>
  );
}

/** One entry of the list: a text, when it was saved, and what changed from the one before (when shown). */
interface Entry {
  label: string;
  content: string;
  at: string;
  before: string | null;
  /** Versions between this one and the one shown before it that do not travel (publicVersions): its changes span them. */
  skipped: string | null;
}

/** "Versions 2–4 are not shown" when the versions before `version` jump from `previous` (null: none skipped). */
function skippedBetween(previous: number, version: number): string | null {
  if (version - previous <= 1) return null;
  return version - previous === 2
    ? `Version ${previous + 1} is not shown: these changes include it.`
    : `Versions ${previous + 1}–${version - 1} are not shown: these changes include them.`;
}

/**
 * The versions, newest first: the current text, then each kept earlier one. The oldest shown is
 * plain text (nothing before it is shown); the others show their changes against the one before.
 */
export function EditHistoryPanel({
  id,
  content,
  editedAt,
  versions,
  onClose,
}: {
  id: string;
  content: string;
  editedAt: string;
  versions: readonly ResponseVersion[];
  onClose: () => void;
}) {
  const headingId = useId();
  const entries: Entry[] = [];
  const latest = versions[versions.length - 1];
  entries.push({ label: 'Current version', content, at: editedAt, before: latest ? latest.content : null, skipped: null });
  for (let i = versions.length - 1; i >= 0; i--) {
    const version = versions[i]!;
    entries.push({
      label: version.version === 1 ? 'Version 1 (as posted)' : `Version ${version.version}`,
      content: version.content,
      at: version.created_at,
      before: i > 0 ? versions[i - 1]!.content : null,
      skipped: i > 0 ? skippedBetween(versions[i - 1]!.version, version.version) : null,
    });
  }
  return (
    <section id={id} className="edit-history" aria-labelledby={headingId} data-testid="edit-history">
      <h3 id={headingId} className="edit-history-title">
        Edit history
      </h3>
      <p className="edit-history-note muted">Newest first. Changes within {GRACE_MINUTES} minutes of posting count as the first version.</p>
      <ol className="edit-history-list">
        {entries.map((entry) => (
          <li key={entry.label} className="edit-history-entry">
            <p className="edit-history-when">
              <strong>{entry.label}</strong> · <RelativeTime date={entry.at} />
            </p>
            {entry.skipped && <p className="edit-history-skipped muted">{entry.skipped}</p>}
            {entry.before === null ? <p className="edit-diff">{entry.content}</p> : <Diff parts={wordDiff(entry.before, entry.content)} />}
          </li>
        ))}
      </ol>
      <button type="button" className="edit-history-close" onClick={onClose}>
        Hide edit history
      </button>
    </section>
  );
}
