// 'Welcome! Please set your username.' for a signed-in user with no display name.
import { useState, type FormEvent } from 'react';
import { Modal } from '../Modal/Modal';
import { saveUsername } from '../../auth/actions';
import { MSG } from '../../../../shared/messages';

export function UsernameModal() {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) return setError(MSG.usernameEmpty);
    setSaving(true);
    setError(null);
    try {
      await saveUsername(name);
    } catch (e) {
      setError(e instanceof Error ? e.message : 'An error occurred while saving the username.');
      setSaving(false);
    }
  }
  return (
    <Modal title="Welcome! Please set your username.">
      <form onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="username-input">Username</label>
          <input id="username-input" className="input" value={name} onChange={(e) => setName(e.target.value)} maxLength={100} />
        </div>
        {error && (
          <p className="error-text" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="btn btn-primary" disabled={saving}>
          Save
        </button>
      </form>
    </Modal>
  );
}
