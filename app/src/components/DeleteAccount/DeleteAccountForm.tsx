// The confirmation of "Delete my account": the person picks what happens to their topics and
// responses, reads what goes either way, and confirms by typing DELETE (a mistaken click cannot
// delete an account). It only asks; the page does the deletion (onDelete) and says when it is done.
import { useId, useState, type FormEvent } from 'react';
import type { AccountContentChoice } from '../../../../shared/schemas/account';

/** What the person types to confirm. */
export const CONFIRM_WORD = 'DELETE';

export const DELETE_ACCOUNT_TEXT = {
  choiceLegend: 'Your topics and responses',
  delete: 'Delete them',
  deleteExplain:
    'The text of every topic and response you wrote is erased. Each keeps its place, marked "Deleted with its author\'s account", so other people\'s replies under it and their quotes of it stay (without your words). A topic of yours keeps the responses others wrote.',
  anonymise: 'Keep them, anonymised',
  anonymiseExplain: 'Your topics and responses stay as they are, shown as written by "deleted user". Nothing links them to you any more.',
  always: 'Either way, these go for good:',
  alwaysItems: [
    'your votes (the points they gave others are taken back, and ranks recomputed)',
    'your stances and "changed my view" credits',
    'the topics you follow, the people you blocked and your reports',
    'your notifications and push notification devices',
    'your e-mail address and your e-mail and notification preferences',
    'your sign-in account, and everything Crux keeps of yours on this device',
  ],
  backups: 'Backups of the database keep a copy until they are rotated out (see the privacy policy).',
  confirmLabel: `Type ${CONFIRM_WORD} to confirm`,
  submit: 'Delete my account',
  busy: 'Deleting your account...',
} as const;

export function DeleteAccountForm({ onDelete }: { onDelete: (content: AccountContentChoice) => Promise<void> }) {
  const [content, setContent] = useState<AccountContentChoice | null>(null);
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const ready = content !== null && typed.trim() === CONFIRM_WORD && !busy;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!ready) return;
    setBusy(true);
    setError(null);
    try {
      await onDelete(content);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setBusy(false);
    }
  }

  return (
    <form className="delete-account-form" onSubmit={submit} aria-describedby={`${id}-always`}>
      <fieldset disabled={busy}>
        <legend>{DELETE_ACCOUNT_TEXT.choiceLegend}</legend>
        <label className="delete-account-choice">
          <input type="radio" name="content" value="delete" checked={content === 'delete'} onChange={() => setContent('delete')} />
          <span>
            <strong>{DELETE_ACCOUNT_TEXT.delete}</strong>
            <span className="muted"> {DELETE_ACCOUNT_TEXT.deleteExplain}</span>
          </span>
        </label>
        <label className="delete-account-choice">
          <input type="radio" name="content" value="anonymise" checked={content === 'anonymise'} onChange={() => setContent('anonymise')} />
          <span>
            <strong>{DELETE_ACCOUNT_TEXT.anonymise}</strong>
            <span className="muted"> {DELETE_ACCOUNT_TEXT.anonymiseExplain}</span>
          </span>
        </label>
      </fieldset>
      <div id={`${id}-always`}>
        <p>{DELETE_ACCOUNT_TEXT.always}</p>
        <ul>
          {DELETE_ACCOUNT_TEXT.alwaysItems.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
        <p className="muted">{DELETE_ACCOUNT_TEXT.backups}</p>
      </div>
      <label className="delete-account-confirm">
        {DELETE_ACCOUNT_TEXT.confirmLabel}
        <input
          type="text"
          value={typed}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          disabled={busy}
          onChange={(event) => setTyped(event.target.value)}
        />
      </label>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="btn btn-danger" disabled={!ready}>
        {busy ? DELETE_ACCOUNT_TEXT.busy : DELETE_ACCOUNT_TEXT.submit}
      </button>
    </form>
  );
}
