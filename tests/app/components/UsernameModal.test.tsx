// @vitest-environment jsdom
// The username prompt can be closed (close button, Escape, overlay, Later), gives focus
// back, and a "Set username" button (the header's) opens it again.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { SessionState } from '../../../app/src/auth/session';
import { UsernameModal } from '../../../app/src/components/UsernameModal/UsernameModal';
import {
  resetUsernamePrompt,
  SET_USERNAME_BUTTON_ID,
  SET_USERNAME_LABEL,
  useUsernamePrompt,
} from '../../../app/src/hooks/useUsernamePrompt';

const held = vi.hoisted(() => ({ session: null as SessionState | null }));
vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: () => held.session }));
vi.mock('../../../app/src/auth/actions', () => ({ saveUsername: vi.fn(async () => {}) }));

const NAMELESS: SessionState = {
  ready: true,
  user: { uid: 'uid-new', email: 'new@example.org', displayName: null },
  profilePending: false,
};
const TITLE = 'Welcome! Please set your username.';

/** What App and Header render with the hook. */
function Shell() {
  const prompt = useUsernamePrompt();
  return (
    <>
      <button type="button">Logout</button>
      {prompt.needed && (
        <button type="button" id={SET_USERNAME_BUTTON_ID} onClick={prompt.show}>
          {SET_USERNAME_LABEL}
        </button>
      )}
      {prompt.open && <UsernameModal onClose={prompt.dismiss} />}
    </>
  );
}

beforeEach(() => {
  held.session = NAMELESS;
  resetUsernamePrompt();
  sessionStorage.clear();
});
afterEach(cleanup);

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('username prompt', () => {
  it('opens by itself for a user without a name, with the field focused', () => {
    render(<Shell />);
    expect(screen.getByRole('dialog', { name: TITLE })).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Username'));
  });

  it('closes on Escape and puts focus on the "Set username" button, which opens it again', async () => {
    render(<Shell />);
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    await flush();
    const reopen = screen.getByRole('button', { name: SET_USERNAME_LABEL });
    expect(document.activeElement).toBe(reopen);
    expect(screen.getByRole('button', { name: 'Logout' })).toBeTruthy();

    fireEvent.click(reopen);
    expect(screen.getByRole('dialog', { name: TITLE })).toBeTruthy();
    // Closing it again gives focus back to the button that opened it.
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await flush();
    expect(document.activeElement).toBe(reopen);
  });

  it('its button says what it saves ("Save username", beside Later)', () => {
    render(<Shell />);
    const dialog = screen.getByRole('dialog', { name: TITLE });
    const buttons = Array.from(dialog.querySelectorAll('form button')).map((button) => button.textContent);
    expect(buttons).toEqual(['Save username', 'Later']);
  });

  it('closes on a click on the overlay and on Later', () => {
    render(<Shell />);
    fireEvent.mouseDown(screen.getByTestId('modal-overlay'));
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: SET_USERNAME_LABEL }));
    fireEvent.click(screen.getByRole('button', { name: 'Later' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('stays closed for this user in this tab (a reload does not nag), and asks the next user', () => {
    const first = render(<Shell />);
    fireEvent.keyDown(window, { key: 'Escape' });
    first.unmount();
    render(<Shell />);
    expect(screen.queryByRole('dialog')).toBeNull();
    cleanup();
    held.session = { ...NAMELESS, user: { uid: 'uid-other', email: 'other@example.org', displayName: null } };
    render(<Shell />);
    expect(screen.getByRole('dialog', { name: TITLE })).toBeTruthy();
  });

  it('is neither needed nor open once the user has a name, or while a sign-up is setting it', () => {
    held.session = { ...NAMELESS, profilePending: true };
    const view = render(<Shell />);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByRole('button', { name: SET_USERNAME_LABEL })).toBeNull();
    view.unmount();
    held.session = { ...NAMELESS, user: { ...NAMELESS.user!, displayName: 'Ada' } };
    render(<Shell />);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByRole('button', { name: SET_USERNAME_LABEL })).toBeNull();
  });
});
