// 'Welcome! Please set your username.' for a signed-in user with no display name. It can be closed
// (close button, Escape, a click on the overlay): the header's "Set username" button opens it again.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Modal } from '../Modal/Modal';
import { saveUsername } from '../../auth/actions';
import { MSG } from '../../../../shared/messages';
import './UsernameModal.css';

export function UsernameModal({ onClose }: { onClose: () => void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  // After the Modal's own focus (its close button): the field is what the person came for.
  useEffect(() => inputRef.current?.focus(), []);
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
    <Modal title="Welcome! Please set your username." onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="username-input">Username</label>
          <input
            id="username-input"
            ref={inputRef}
            className="input"
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={100}
            autoComplete="nickname"
            aria-invalid={Boolean(error)}
            aria-describedby={error ? 'username-error' : undefined}
          />
        </div>
        {error && (
          <p id="username-error" className="error-text" role="alert">
            {error}
          </p>
        )}
        <div className="username-actions">
          <button type="submit" className="btn btn-primary" disabled={saving}>
            Save username
          </button>
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Later
          </button>
        </div>
      </form>
    </Modal>
  );
}
