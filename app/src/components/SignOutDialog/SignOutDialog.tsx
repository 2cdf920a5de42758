// Logout asks one thing: also remove my data from this device? On by default, because a
// shared or borrowed browser must not keep one person's votes, drafts and unsent writes for
// the next; off by default once the person has said "This is my own device" (remembered
// in localStorage). Unsent changes are named, since removing the data drops them.
import { useState, type FormEvent } from 'react';
import { Modal } from '../Modal/Modal';
import { isOwnDevice, rememberOwnDevice, useSignOut } from '../../hooks/useSignOut';
import { useSyncStatus } from '../../hooks/useSyncStatus';
import './SignOutDialog.css';
import { errorMessage } from '../../error-message';

/** `removeData`: opened to remove the data (the settings page's My data), the box starts ticked. */
export function SignOutDialog({ onClose, removeData: removeFirst = false }: { onClose: () => void; removeData?: boolean }) {
  const signOut = useSignOut();
  const pending = useSyncStatus()?.pending ?? 0;
  const [ownDevice, setOwnDevice] = useState(isOwnDevice);
  const [removeData, setRemoveData] = useState(() => removeFirst || !isOwnDevice());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  function toggleOwnDevice(own: boolean) {
    setOwnDevice(own);
    setRemoveData(!own);
  }
  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    rememberOwnDevice(ownDevice);
    try {
      await signOut({ removeData });
      onClose();
    } catch (e) {
      setError(`You are logged out, but: ${errorMessage(e)}`);
      setBusy(false);
    }
  }
  return (
    <Modal title="Log out of Crux" onClose={busy ? undefined : onClose}>
      <form className="signout-form" onSubmit={submit}>
        <label className="signout-check">
          <input
            type="checkbox"
            checked={removeData}
            onChange={(e) => setRemoveData(e.target.checked)}
            aria-describedby="signout-remove-hint"
          />
          <span>Also remove my data from this device</span>
        </label>
        <p id="signout-remove-hint" className="signout-hint">
          {removeData
            ? 'Your votes, notifications, drafts and the topics kept on this browser are deleted from it; your posts stay on Crux.'
            : 'Your data stays on this browser for your next sign-in; the next person to use it cannot see it.'}
          {removeData && pending > 0 && (
            <strong className="signout-warning">
              {' '}
              {pending === 1 ? '1 change has' : `${pending} changes have`} not been sent yet and will be lost.
            </strong>
          )}
        </p>
        <label className="signout-check">
          <input type="checkbox" checked={ownDevice} onChange={(e) => toggleOwnDevice(e.target.checked)} />
          <span>This is my own device (keep my data here next time)</span>
        </label>
        {error && (
          <p className="error-text" role="alert">
            {error}
          </p>
        )}
        <div className="signout-actions">
          <button type="button" className="btn btn-ghost" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? 'Logging out…' : 'Log out'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
