// The sign-in widget in a modal: provider list (Google, e-mail, Twitter), e-mail
// sign-in, sign-up (name, e-mail, password) and password recovery.
import { useState, type FormEvent } from 'react';
import { Modal } from '../Modal/Modal';
import {
  checkEmail,
  checkPassword,
  sendRecoveryEmail,
  signInWithEmail,
  signInWithProvider,
  signUpWithEmail,
  WIDGET,
} from '../../auth/actions';
import { AuthError, NO_ACCOUNT_HINT } from '../../auth/error-messages';
import './SignInModal.css';
import { errorMessage } from '../../error-message';

type View = 'providers' | 'signIn' | 'signUp' | 'recover' | 'recoverSent';

/** `reason`: why the sign-in opened (a signed-out vote or report), said at its top. */
export function SignInModal({ onClose, reason }: { onClose: () => void; reason?: string }) {
  const [view, setView] = useState<View>('providers');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const [formError, setFormError] = useState<string | null>(null);
  // The e-mail given matched no account: the error says how to go on, with a switch to sign-up.
  const [noAccount, setNoAccount] = useState(false);
  const [busy, setBusy] = useState(false);

  function go(next: View) {
    setErrors({});
    setFormError(null);
    setNoAccount(false);
    setView(next);
  }

  async function attempt(action: () => Promise<void>, closeAfter = true) {
    setBusy(true);
    setFormError(null);
    setNoAccount(false);
    try {
      await action();
      if (closeAfter) onClose();
    } catch (e) {
      setFormError(errorMessage(e));
      setNoAccount(e instanceof AuthError && e.code === 'user-not-found');
    } finally {
      setBusy(false);
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const next: Record<string, string | null> = { email: checkEmail(email) };
    if (view === 'signIn') next.password = password ? null : WIDGET.passwordRequired;
    if (view === 'signUp') {
      next.name = name.trim() ? null : WIDGET.nameRequired;
      next.password = await checkPassword(password).catch((e: Error) => e.message);
    }
    setErrors(next);
    if (Object.values(next).some(Boolean)) return;
    if (view === 'signIn') await attempt(() => signInWithEmail(email, password));
    if (view === 'signUp') await attempt(() => signUpWithEmail(name, email, password));
    if (view === 'recover')
      await attempt(async () => {
        await sendRecoveryEmail(email);
        go('recoverSent');
      }, false);
  }

  const field = (id: string, label: string, value: string, set: (v: string) => void, type = 'text', autoComplete?: string) => (
    <div className="field">
      <label htmlFor={`signin-${id}`}>{label}</label>
      <input
        id={`signin-${id}`}
        className="input"
        type={type}
        value={value}
        autoComplete={autoComplete}
        aria-invalid={Boolean(errors[id])}
        aria-describedby={errors[id] ? `signin-${id}-error` : undefined}
        onChange={(e) => {
          set(e.target.value);
          setErrors((prev) => ({ ...prev, [id]: null }));
        }}
      />
      {errors[id] && (
        <span id={`signin-${id}-error`} className="error-text">
          {errors[id]}
        </span>
      )}
    </div>
  );

  const titles: Record<View, string> = {
    providers: 'Sign in to Crux',
    signIn: 'Sign in with email',
    signUp: 'Create account',
    recover: 'Recover password',
    recoverSent: 'Check your email',
  };

  return (
    <Modal title={titles[view]} onClose={onClose}>
      {reason && (
        <p className="signin-reason" role="alert">
          {reason}
        </p>
      )}
      {view === 'providers' && (
        <div className="signin-providers">
          <button type="button" className="btn signin-provider" disabled={busy} onClick={() => attempt(() => signInWithProvider('google'))}>
            <span aria-hidden="true" className="signin-logo">
              G
            </span>{' '}
            Sign in with Google
          </button>
          <button type="button" className="btn signin-provider" onClick={() => go('signIn')}>
            <span aria-hidden="true" className="signin-logo">
              ✉
            </span>{' '}
            Sign in with email
          </button>
          <button
            type="button"
            className="btn signin-provider"
            disabled={busy}
            onClick={() => attempt(() => signInWithProvider('twitter'))}
          >
            <span aria-hidden="true" className="signin-logo">
              𝕏
            </span>{' '}
            Sign in with Twitter
          </button>
        </div>
      )}
      {view === 'recoverSent' && (
        <>
          <p>Follow the instructions sent to {email.trim()} to recover your password.</p>
          <button type="button" className="btn btn-primary" onClick={() => go('signIn')}>
            Done
          </button>
        </>
      )}
      {(view === 'signIn' || view === 'signUp' || view === 'recover') && (
        <form onSubmit={submit} noValidate>
          {view === 'recover' && <p className="muted">Get instructions sent to this email that explain how to reset your password.</p>}
          {field('email', 'Email', email, setEmail, 'email', 'email')}
          {view === 'signUp' && field('name', 'First & last name', name, setName, 'text', 'name')}
          {view !== 'recover' &&
            field(
              'password',
              view === 'signUp' ? 'Choose password' : 'Password',
              password,
              setPassword,
              'password',
              view === 'signUp' ? 'new-password' : 'current-password',
            )}
          {formError && (
            <p className="error-text" role="alert">
              {formError}
              {noAccount && view === 'signIn' && `. ${NO_ACCOUNT_HINT}`}
            </p>
          )}
          {noAccount && view === 'signIn' && (
            // The e-mail typed stays in the sign-up form: only a name is left to give.
            <button type="button" className="btn signin-switch" onClick={() => go('signUp')}>
              Create an account with this e-mail
            </button>
          )}
          <div className="signin-actions">
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {view === 'signIn' ? 'Sign in' : view === 'signUp' ? 'Create account' : 'Send'}
            </button>
            {view === 'signIn' && (
              <>
                <button type="button" className="btn btn-ghost" onClick={() => go('signUp')}>
                  Create account
                </button>
                <button type="button" className="btn btn-ghost" onClick={() => go('recover')}>
                  Trouble signing in?
                </button>
              </>
            )}
            {view !== 'signIn' && (
              <button type="button" className="btn btn-ghost" onClick={() => go('signIn')}>
                Cancel
              </button>
            )}
          </div>
        </form>
      )}
    </Modal>
  );
}
