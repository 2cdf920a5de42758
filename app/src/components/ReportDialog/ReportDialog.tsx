// Reporting a topic, a response or a user: what is reported, quoted at the top (a response's text, a
// topic's title, a user's name), then a reason (one of six) and an optional note,
// written on this device at once and sent like any write (offline too). The reporter then reads
// MSG.reportThanks; the item stays as it was until a moderator acts.
import { useId, useState, type FormEvent } from 'react';
import { REPORT_NOTE_MAX, REPORT_REASONS, type ReportReason, type ReportTargetType } from '../../../../shared/constants';
import { MSG } from '../../../../shared/messages';
import { errorMessage } from '../../error-message';
import { useReport } from '../../hooks/useReport';
import { useSession } from '../../hooks/useSession';
import { useSuspendedHere } from '../../hooks/useWriteBlock';
import { Modal } from '../Modal/Modal';
import { useSignInPrompt } from '../SignInModal/useSignInPrompt';
import { truncate } from '../../../../shared/rules/truncate';
import { usePlainText } from '../FormattedText/useMarkdown';
import './ReportDialog.css';

/** Each reason as a person reads it. */
export const REPORT_REASON_LABELS = {
  spam: 'Spam',
  harassment: 'Harassment',
  hate: 'Hate',
  misinformation: 'Misinformation',
  'off-topic': 'Off-topic',
  other: 'Other',
} satisfies Record<ReportReason, string>;

const KIND = { topic: 'topic', response: 'response', user: 'user' } satisfies Record<ReportTargetType, string>;

/** A long response is quoted up to this many characters: enough to recognise it. */
export const REPORTED_EXCERPT_CHARS = 280;

interface ReportDialogProps {
  targetType: ReportTargetType;
  targetId: string;
  /** What is reported as the reader saw it: a response's text, a topic's title, a user's name. */
  target: string;
  onClose: () => void;
}

/** What is reported, so the reporter knows which item the reason is about. */
function Reported({ targetType, target }: { targetType: ReportTargetType; target: string }) {
  const plain = usePlainText();
  if (targetType === 'user')
    return (
      <p className="report-subject" data-testid="reported">
        User: <strong>{target}</strong>
      </p>
    );
  return (
    <blockquote className="report-subject report-excerpt" data-testid="reported">
      {truncate(targetType === 'response' ? plain(target) : target, REPORTED_EXCERPT_CHARS)}
    </blockquote>
  );
}

export function ReportDialog({ targetType, targetId, target, onClose }: ReportDialogProps) {
  const report = useReport();
  const id = useId();
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [done, setDone] = useState(false);
  const title = `Report this ${KIND[targetType]}`;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!reason) {
      setError(MSG.reportReasonMissing);
      return;
    }
    setError(null);
    setSaving(true);
    try {
      await report(targetType, targetId, reason, note.trim() || null);
      setDone(true);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setSaving(false);
    }
  }

  if (done)
    return (
      <Modal title={title} onClose={onClose}>
        <p className="report-thanks" role="status">
          {MSG.reportThanks}
        </p>
        <div className="report-buttons">
          <button type="button" className="btn btn-primary report-target" onClick={onClose}>
            Done
          </button>
        </div>
      </Modal>
    );

  const noteId = `${id}-note`;
  const countId = `${id}-count`;
  return (
    <Modal title={title} onClose={onClose}>
      <form className="report-form" onSubmit={(e) => void submit(e)} noValidate>
        <Reported targetType={targetType} target={target} />
        <fieldset className="report-reasons">
          <legend>Why are you reporting it?</legend>
          {REPORT_REASONS.map((value) => (
            <label key={value} className="report-reason">
              <input
                type="radio"
                name={`${id}-reason`}
                value={value}
                checked={reason === value}
                onChange={() => {
                  setReason(value);
                  setError(null);
                }}
              />
              <span>{REPORT_REASON_LABELS[value]}</span>
            </label>
          ))}
        </fieldset>
        <div className="field">
          <label htmlFor={noteId}>Note (optional)</label>
          <textarea
            id={noteId}
            className="textarea"
            value={note}
            maxLength={REPORT_NOTE_MAX}
            aria-describedby={countId}
            onChange={(e) => setNote(e.target.value)}
          />
          <span id={countId} className="muted report-count">
            {note.length}/{REPORT_NOTE_MAX}
          </span>
        </div>
        {error && (
          <p className="error-text" role="alert">
            {error}
          </p>
        )}
        <div className="report-buttons">
          <button type="button" className="btn report-target" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary report-target" disabled={saving}>
            Report
          </button>
        </div>
      </form>
    </Modal>
  );
}

interface ReportButtonProps {
  targetType: ReportTargetType;
  targetId: string;
  /** What is reported, for screen readers: "Report response: …". */
  label: string;
  /** What is reported, quoted in the dialog (see ReportDialog). */
  target: string;
  className?: string;
  /** Opens a dialog its parent holds (one that must outlive this button, e.g. across a layout switch). */
  onOpen?: () => void;
}

/** The "Report" control: opens the dialog; signed out, the sign-in, saying why (like a vote). */
export function ReportButton({ targetType, targetId, label, target, className = 'btn btn-small btn-ghost', onOpen }: ReportButtonProps) {
  const { user } = useSession();
  const [open, setOpen] = useState(false);
  const signIn = useSignInPrompt();
  const signedOut = !user;
  // A suspended account's reports are refused: no Report to press (the banner says why).
  const suspended = useSuspendedHere();
  if (suspended) return null;
  return (
    <>
      <button
        type="button"
        className={`${className} report-button`}
        aria-label={`Report ${label}`}
        aria-haspopup="dialog"
        title={signedOut ? MSG.loginToReport : undefined}
        onClick={() => (signedOut ? signIn.ask(MSG.loginToReport) : onOpen ? onOpen() : setOpen(true))}
      >
        Report
      </button>
      {signIn.prompt}
      {open && <ReportDialog targetType={targetType} targetId={targetId} target={target} onClose={() => setOpen(false)} />}
    </>
  );
}
