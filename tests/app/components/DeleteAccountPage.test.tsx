// @vitest-environment jsdom
// /settings/delete-account: signed out, it asks the person to sign in first (and offers the sign-in
// dialog); signed in, the confirmation; once confirmed, the account is deleted on the server, this
// device's data removed with the logout, and the page says it is done.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { SessionState } from '../../../app/src/auth/session';
import { CONFIRM_WORD, DELETE_ACCOUNT_TEXT } from '../../../app/src/components/DeleteAccount/DeleteAccountForm';
import { DELETE_ACCOUNT_PAGE_TEXT, DeleteAccountPage } from '../../../app/src/routes/DeleteAccountPage';
import { fakeData } from '../../fixtures/fake-data';
import { renderWithData, SIGNED_IN, SIGNED_OUT } from './with-data';

const held = vi.hoisted(() => ({ session: null as SessionState | null, firebaseSignOuts: 0 }));
// Firebase itself is the one outside part: its sign-out is counted, not run.
vi.mock('../../../app/src/auth/firebase', () => ({
  loadClientConfig: async () => ({}),
  getAuthInstance: async () => ({ signOut: async () => void held.firebaseSignOuts++ }),
}));
vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: () => held.session }));

beforeEach(() => {
  held.session = SIGNED_IN;
  held.firebaseSignOuts = 0;
});
afterEach(cleanup);

describe('DeleteAccountPage', () => {
  it('signed out, asks to sign in first and opens the sign-in dialog', () => {
    held.session = SIGNED_OUT;
    renderWithData(<DeleteAccountPage />, fakeData(), '/settings/delete-account');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(DELETE_ACCOUNT_PAGE_TEXT.title);
    expect(document.body.textContent).toContain(DELETE_ACCOUNT_PAGE_TEXT.signedOut);
    expect(screen.queryByRole('button', { name: DELETE_ACCOUNT_TEXT.submit })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: DELETE_ACCOUNT_PAGE_TEXT.login }));
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('signed in, deletes the account, removes the data from this device, logs out and says it is done', async () => {
    const deleteAccount = vi.fn(async () => undefined);
    const signOut = vi.fn(async () => undefined);
    renderWithData(<DeleteAccountPage />, fakeData({ deleteAccount, signOut }), '/settings/delete-account');
    fireEvent.click(screen.getByRole('radio', { name: new RegExp(DELETE_ACCOUNT_TEXT.delete) }));
    fireEvent.change(screen.getByLabelText(DELETE_ACCOUNT_TEXT.confirmLabel), { target: { value: CONFIRM_WORD } });
    fireEvent.click(screen.getByRole('button', { name: DELETE_ACCOUNT_TEXT.submit }));
    expect((await screen.findByRole('status')).textContent).toContain(DELETE_ACCOUNT_PAGE_TEXT.done);
    expect(deleteAccount).toHaveBeenCalledWith('delete');
    expect(signOut).toHaveBeenCalledWith({ removeData: true, byUser: true });
    await waitFor(() => expect(held.firebaseSignOuts).toBe(1));
  });

  it('a refused deletion keeps the person signed in, with the reason shown', async () => {
    const deleteAccount = vi.fn(async () => {
      throw new Error('You are offline: deleting your account needs a connection.');
    });
    const signOut = vi.fn(async () => undefined);
    renderWithData(<DeleteAccountPage />, fakeData({ deleteAccount, signOut }), '/settings/delete-account');
    fireEvent.click(screen.getByRole('radio', { name: new RegExp(DELETE_ACCOUNT_TEXT.anonymise) }));
    fireEvent.change(screen.getByLabelText(DELETE_ACCOUNT_TEXT.confirmLabel), { target: { value: CONFIRM_WORD } });
    fireEvent.click(screen.getByRole('button', { name: DELETE_ACCOUNT_TEXT.submit }));
    expect((await screen.findByRole('alert')).textContent).toBe('You are offline: deleting your account needs a connection.');
    expect(signOut).not.toHaveBeenCalled();
    expect(held.firebaseSignOuts).toBe(0);
  });
});
