// @vitest-environment jsdom
// Signing in with an e-mail no account uses (a typo, or an account a restarted Auth emulator
// forgot) says so in the specification's words, adds how to go on, and switches to sign-up with
// the e-mail kept. Other failures keep their own text and offer no switch.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { AuthError, NO_ACCOUNT_HINT } from '../../../app/src/auth/error-messages';
import { SignInModal } from '../../../app/src/components/SignInModal/SignInModal';

const held = vi.hoisted(() => ({ code: 'auth/user-not-found' }));
vi.mock('../../../app/src/auth/actions', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../app/src/auth/actions')>()),
  // What the Firebase SDK rejects with, through the widget's own error type.
  signInWithEmail: vi.fn(async () => {
    throw new AuthError({ code: held.code }, 'signIn');
  }),
}));

afterEach(cleanup);

async function signInAs(email: string) {
  render(<SignInModal onClose={() => undefined} />);
  fireEvent.click(screen.getByRole('button', { name: /Sign in with email/ }));
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: email } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret-1' } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  return screen.findByRole('alert');
}

describe('sign-in with an unknown e-mail', () => {
  it("keeps the specification's text, says how to go on, and switches to sign-up with the e-mail", async () => {
    held.code = 'auth/user-not-found';
    const alert = await signInAs('gone@example.org');
    expect(alert.textContent).toBe(`That email address doesn't match an existing account. ${NO_ACCOUNT_HINT}`);
    fireEvent.click(screen.getByRole('button', { name: 'Create an account with this e-mail' }));
    expect(screen.getByRole('dialog', { name: 'Create account' })).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Email').value).toBe('gone@example.org');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('offers no switch to sign-up for a wrong password', async () => {
    held.code = 'auth/wrong-password';
    const alert = await signInAs('known@example.org');
    expect(alert.textContent).toBe("The email and password you entered don't match");
    expect(screen.queryByRole('button', { name: 'Create an account with this e-mail' })).toBeNull();
  });
});
