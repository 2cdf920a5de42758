// A moderator's action on one target, wherever it is offered (the queue's cards, a topic's header, a
// response's row, a user's page): the button opens a dialog asking for the required reason (the author
// sees it) and, for a suspension, its length; the server's refusal is shown as it says it. The server
// logs every action, reported or not.
import { useId, useState, type FormEvent } from 'react';
import { MAX_SUSPENSION_DAYS, MODERATION_REASON_MAX, type ModerationAction } from '../../../../shared/constants';
import { MSG } from '../../../../shared/messages';
import { errorMessage } from '../../error-message';
import { useData } from '../../hooks/useData';
import { moderationChanged } from '../../hooks/useOpenReportsCount';
import { Modal } from '../Modal/Modal';
import { usePlainText } from '../FormattedText/useMarkdown';
import './ModerationAction.css';

/** Each action's button text. */
export const ACTION_LABELS = {
  remove: 'Remove',
  restore: 'Restore',
  dismiss: 'Dismiss',
  lock: 'Lock',
  unlock: 'Unlock',
  suspend: 'Suspend',
  unsuspend: 'Unsuspend',
} satisfies Record<ModerationAction, string>;

export type ModerationTargetType = 'topic' | 'response' | 'user';

interface ActionDialogProps {
  action: ModerationAction;
  targetType: ModerationTargetType;
  targetId: string;
  /** "response", "author"...: the dialog's title names it. */
  what: string;
  /** What is acted on, quoted at the dialog's top (a topic's title, a response's text, a user's name). */
  excerpt?: string;
  onClose: () => void;
  onDone: (message: string) => void;
}

/** One action: its required reason (shown to the author), and for a suspension its length. */
export function ActionDialog({ action, targetType, targetId, what, excerpt, onClose, onDone }: ActionDialogProps) {
  const data = useData();
  const id = useId();
  const [reason, setReason] = useState('');
  const [days, setDays] = useState('7');
  const [forGood, setForGood] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const title = `${ACTION_LABELS[action]} this ${what}`;
  // A response's text is quoted as its words, without Markdown marks.
  const plain = usePlainText();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!reason.trim()) return setError(MSG.moderationReasonEmpty);
    let length: number | null = null;
    if (action === 'suspend' && !forGood) {
      length = Number(days);
      if (!Number.isInteger(length) || length < 1 || length > MAX_SUSPENSION_DAYS)
        return setError(`Give a whole number of days from 1 to ${MAX_SUSPENSION_DAYS}, or choose "for good".`);
    }
    setError(null);
    setSaving(true);
    try {
      await data.moderate({
        action,
        target_type: targetType,
        target_id: targetId,
        reason: reason.trim(),
        ...(action === 'suspend' ? { days: length } : {}),
      });
      // The header's count of open reports asks again: the action may have handled some.
      moderationChanged();
      onDone(`${ACTION_LABELS[action]} done: ${reason.trim()}`);
    } catch (e) {
      setError(errorMessage(e));
      setSaving(false);
    }
  }

  return (
    <Modal title={title} onClose={onClose}>
      <form onSubmit={(e) => void submit(e)} noValidate className="moderation-action-form">
        {excerpt && (
          <blockquote className="moderation-excerpt" data-testid="moderation-excerpt">
            {targetType === 'response' ? plain(excerpt) : excerpt}
          </blockquote>
        )}
        {action === 'suspend' && (
          <fieldset className="moderation-days">
            <legend>For how long?</legend>
            <div className="field">
              <label htmlFor={`${id}-days`}>Days</label>
              <input
                id={`${id}-days`}
                className="input"
                type="number"
                inputMode="numeric"
                min={1}
                max={MAX_SUSPENSION_DAYS}
                value={days}
                disabled={forGood}
                onChange={(e) => setDays(e.target.value)}
              />
            </div>
            <label className="moderation-check">
              <input type="checkbox" checked={forGood} onChange={(e) => setForGood(e.target.checked)} /> For good
            </label>
          </fieldset>
        )}
        <div className="field">
          <label htmlFor={`${id}-reason`}>Reason (the author sees it)</label>
          <textarea
            id={`${id}-reason`}
            className="textarea"
            required
            aria-required="true"
            maxLength={MODERATION_REASON_MAX}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
          />
        </div>
        {error && (
          <p className="error-text" role="alert">
            {error}
          </p>
        )}
        <div className="moderation-dialog-buttons">
          <button type="button" className="btn moderation-target" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary moderation-target" disabled={saving}>
            {ACTION_LABELS[action]}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** One action on one target as it is offered: its button, which opens the reason dialog; `onOpen` when a parent holds the dialog. */
interface ModerateButtonProps {
  action: ModerationAction;
  /** The accessible name after the action's word: "topic: Tea?" reads "Lock topic: Tea?". */
  label: string;
  /**
   * The button's style where it stands among others alike (by default a small one, red for Remove and
   * Suspend, as tall as its row's others: 44 px on a phone or a touch screen, as every button there).
   */
  className?: string;
  onOpen: () => void;
}

export function ModerateButton({ action, label, className, onOpen }: ModerateButtonProps) {
  const danger = action === 'remove' || action === 'suspend';
  return (
    <button
      type="button"
      className={className ?? `btn btn-small${danger ? ' btn-danger' : ''}`}
      aria-label={`${ACTION_LABELS[action]} ${label}`}
      aria-haspopup="dialog"
      onClick={onOpen}
    >
      {ACTION_LABELS[action]}
    </button>
  );
}

/** The dialog a parent opens (one that must outlive its button, e.g. a phone's menu item) and the last action's result. */
export function useModerationDialog(target: Omit<ActionDialogProps, 'action' | 'onClose' | 'onDone'>, onActed?: () => void) {
  const [acting, setActing] = useState<ModerationAction | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const dialog = acting && (
    <ActionDialog
      {...target}
      action={acting}
      onClose={() => setActing(null)}
      onDone={(message) => {
        setActing(null);
        setDone(message);
        onActed?.();
      }}
    />
  );
  const note = (
    <span className="status-text moderation-done-note" role="status">
      {done}
    </span>
  );
  return { open: setActing, dialog, note };
}

interface ModeratorActionsProps extends Omit<ActionDialogProps, 'action' | 'onClose' | 'onDone'> {
  actions: ModerationAction[];
  /** The accessible name after each action's word (see ModerateButton). */
  label: string;
}

/** A moderator's actions on one target where they read it: each button opens the reason dialog; the result is said beside them. */
export function ModeratorActions({ actions, label, ...target }: ModeratorActionsProps) {
  const { open, dialog, note } = useModerationDialog(target);
  return (
    <>
      {actions.map((action) => (
        <ModerateButton key={action} action={action} label={label} onOpen={() => open(action)} />
      ))}
      {note}
      {dialog}
    </>
  );
}
