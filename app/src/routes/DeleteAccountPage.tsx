// /settings/delete-account: "Delete my account", at an address anyone can open (app stores ask for a
// web link). Signed out, it asks the person to sign in first; signed in, it shows the confirmation
// (DeleteAccountForm); once the server has deleted the account, this device's copy of it is removed,
// the person is logged out, and the page says it is done.
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { AccountContentChoice } from '../../../shared/schemas/account';
import { DeleteAccountForm } from '../components/DeleteAccount/DeleteAccountForm';
import { SignInModal } from '../components/SignInModal/SignInModal';
import { useDeleteAccount } from '../hooks/useDeleteAccount';
import { useDocumentTitle } from '../hooks/useDocumentTitle';
import { useSession } from '../hooks/useSession';
import './StaticPage.css';

export const DELETE_ACCOUNT_PATH = '/settings/delete-account';

export const DELETE_ACCOUNT_PAGE_TEXT = {
  title: 'Delete my account',
  intro: 'Deleting your Crux account cannot be undone. You choose what happens to the topics and responses you wrote.',
  signedOut: 'Sign in with the account you want to delete: you will see exactly what will happen before anything is deleted.',
  login: 'Sign in to continue',
  loginReason: 'Sign in to delete your account.',
  done: 'Your account is deleted, and you are logged out. What Crux kept of it on this device is removed too.',
  doneOtherDevices: 'Other devices where you were logged in lose access to it the next time they connect.',
  home: 'Back to the topics',
} as const;

export function DeleteAccountPage() {
  useDocumentTitle(DELETE_ACCOUNT_PAGE_TEXT.title);
  const { ready, user } = useSession();
  const deleteAccount = useDeleteAccount();
  const [signingIn, setSigningIn] = useState(false);
  // Once started, the form stays while the deletion signs the person out; then the done message.
  const [phase, setPhase] = useState<'ask' | 'deleting' | 'done'>('ask');

  async function remove(content: AccountContentChoice) {
    setPhase('deleting');
    try {
      await deleteAccount(content);
      setPhase('done');
    } catch (error) {
      setPhase('ask');
      throw error;
    }
  }

  let body;
  if (phase === 'done') {
    body = (
      <div role="status">
        <p>{DELETE_ACCOUNT_PAGE_TEXT.done}</p>
        <p>{DELETE_ACCOUNT_PAGE_TEXT.doneOtherDevices}</p>
        <p>
          <Link to="/">{DELETE_ACCOUNT_PAGE_TEXT.home}</Link>
        </p>
      </div>
    );
  } else if (user || phase === 'deleting') {
    body = <DeleteAccountForm onDelete={remove} />;
  } else if (ready) {
    body = (
      <>
        <p>{DELETE_ACCOUNT_PAGE_TEXT.signedOut}</p>
        <button type="button" className="btn" aria-haspopup="dialog" onClick={() => setSigningIn(true)}>
          {DELETE_ACCOUNT_PAGE_TEXT.login}
        </button>
        {signingIn && <SignInModal reason={DELETE_ACCOUNT_PAGE_TEXT.loginReason} onClose={() => setSigningIn(false)} />}
      </>
    );
  } else {
    body = (
      <p className="status-text" role="status">
        Loading...
      </p>
    );
  }
  return (
    <main className="page static-page delete-account-page" id="main">
      <h1>{DELETE_ACCOUNT_PAGE_TEXT.title}</h1>
      {phase !== 'done' && <p>{DELETE_ACCOUNT_PAGE_TEXT.intro}</p>}
      {body}
    </main>
  );
}
