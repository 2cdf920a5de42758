// @vitest-environment jsdom
// Logout asks whether to remove the user's data from the device (the data layer
// hears it before Firebase signs out), no raw e-mail address, and the menu's ways in: Leaderboard
// and Settings (every setting is on that one page: no "My data" or "Blocked users" here).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useLocation } from 'react-router-dom';
import type { SessionState } from '../../../app/src/auth/session';
import { Header } from '../../../app/src/components/Header/Header';
import { UsernameModal } from '../../../app/src/components/UsernameModal/UsernameModal';
import { resetUsernamePrompt, useUsernamePrompt } from '../../../app/src/hooks/useUsernamePrompt';
import { fakeData } from '../../fixtures/fake-data';
import { renderWithData, SIGNED_IN, SIGNED_OUT } from './with-data';

const held = vi.hoisted(() => ({ session: null as SessionState | null, order: [] as string[] }));
vi.mock('../../../app/src/auth/firebase', () => ({ loadClientConfig: async () => ({}) }));
vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: () => held.session }));
vi.mock('../../../app/src/auth/session', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../app/src/auth/session')>()),
  signOut: vi.fn(async () => {
    held.order.push('firebase.signOut');
  }),
}));

beforeEach(() => {
  held.session = SIGNED_IN;
  held.order = [];
  localStorage.clear();
  resetUsernamePrompt();
});
afterEach(cleanup);

function dataRecordingSignOut() {
  const signOut = vi.fn(async (options?: { removeData?: boolean }) => {
    held.order.push(`data.signOut(${JSON.stringify(options)})`);
  });
  return { signOut, data: fakeData({ signOut }) };
}

describe('Header: sign-out', () => {
  it('Logout opens a dialog; "Also remove my data" is on by default and reaches the data layer before Firebase', async () => {
    const { data } = dataRecordingSignOut();
    renderWithData(<Header />, data);
    const logout = screen.getByRole('button', { name: 'Logout' });
    logout.focus();
    fireEvent.click(logout);
    const dialog = screen.getByRole('dialog', { name: 'Log out of Crux' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    const remove = screen.getByRole('checkbox', { name: 'Also remove my data from this device' });
    expect((remove as HTMLInputElement).checked).toBe(true);
    expect(held.order).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(held.order).toEqual(['data.signOut({"removeData":true,"byUser":true})', 'firebase.signOut']));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('"This is my own device" turns removal off and is remembered for the next sign-out', async () => {
    const { data } = dataRecordingSignOut();
    renderWithData(<Header />, data);
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    fireEvent.click(screen.getByRole('checkbox', { name: /This is my own device/ }));
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'Also remove my data from this device' }).checked).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(held.order).toEqual(['data.signOut({"removeData":false,"byUser":true})', 'firebase.signOut']));
    cleanup();

    renderWithData(<Header />, data);
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'Also remove my data from this device' }).checked).toBe(false);
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: /This is my own device/ }).checked).toBe(true);
  });

  it('Cancel (or Escape) signs nobody out and gives focus back to Logout', () => {
    const { data } = dataRecordingSignOut();
    renderWithData(<Header />, data);
    const logout = screen.getByRole('button', { name: 'Logout' });
    logout.focus();
    fireEvent.click(logout);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(logout);
    fireEvent.click(logout);
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(held.order).toEqual([]);
  });
});

describe('Header: signed out', () => {
  it('shows no Logout', () => {
    held.session = { ready: true, user: null, profilePending: false };
    renderWithData(<Header />);
    expect(screen.queryByRole('button', { name: 'Logout' })).toBeNull();
  });
});

describe('Header: the user', () => {
  it("the user's name links to their page", () => {
    held.session = SIGNED_IN;
    renderWithData(<Header />);
    expect(screen.getByTestId('header-user').getAttribute('href')).toBe('/users/uid-ada');
    expect(screen.getByTestId('header-user').textContent).toBe('Ada');
  });

  it('never shows the raw e-mail address when no username is set: a "Set username" button instead', () => {
    held.session = { ready: true, user: { uid: 'u1', email: 'ada@example.org', displayName: null }, profilePending: false };
    renderWithData(<Header />);
    expect(document.body.textContent).not.toContain('ada@example.org');
    expect(screen.queryByTestId('header-user')).toBeNull();
    screen.getByRole('button', { name: 'Set username' });
  });

  it('"Set username" opens the username modal again after it was dismissed', () => {
    held.session = { ready: true, user: { uid: 'u1', email: 'ada@example.org', displayName: null }, profilePending: false };
    function Prompt() {
      const prompt = useUsernamePrompt();
      return prompt.open ? <UsernameModal onClose={prompt.dismiss} /> : null;
    }
    renderWithData(
      <>
        <Header />
        <Prompt />
      </>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Later' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Set username' }));
    screen.getByRole('dialog', { name: 'Welcome! Please set your username.' });
  });

  it('closes the phone menu on Escape and returns focus to the burger', () => {
    renderWithData(<Header />);
    const burger = screen.getByRole('button', { name: 'Menu' });
    fireEvent.click(burger);
    expect(burger.getAttribute('aria-expanded')).toBe('true');
    const settings = screen.getByRole('link', { name: 'Settings' });
    settings.focus();
    fireEvent.keyDown(settings, { key: 'Escape' });
    expect(burger.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(burger);
  });
});

describe('Header: ways in', () => {
  function Where() {
    return <output data-testid="where">{useLocation().pathname}</output>;
  }
  const menu = () => within(screen.getByRole('navigation', { name: 'Main menu' }));

  it('signed out, the menu leads to the leaderboard', () => {
    held.session = SIGNED_OUT;
    renderWithData(
      <>
        <Header />
        <Where />
      </>,
    );
    const leaderboard = menu().getByRole('link', { name: 'Leaderboard' });
    expect(leaderboard.getAttribute('href')).toBe('/leaderboard');
    fireEvent.click(leaderboard);
    expect(screen.getByTestId('where').textContent).toBe('/leaderboard');
    expect(menu().queryByRole('link', { name: 'Email Subscriptions' })).toBeNull();
  });

  it('signed in, the menu has Leaderboard and Settings (the settings page), Logout, and no "Blocked users" or "My data"', () => {
    renderWithData(
      <>
        <Header />
        <Where />
      </>,
    );
    const names = [...screen.getByRole('navigation', { name: 'Main menu' }).querySelectorAll('a, button')].map((el) => el.textContent);
    // The user's whole name heads it (shown on a phone only, where the header has just its initial).
    expect(names).toEqual(['Ada', 'Leaderboard', 'About', 'Sources', 'Terms', 'Privacy', 'Settings', 'Logout']);
    expect(menu().queryByRole('link', { name: 'Blocked users' })).toBeNull();
    expect(menu().queryByRole('button', { name: 'My data' })).toBeNull();
    const settings = menu().getByRole('link', { name: 'Settings' });
    expect(settings.getAttribute('href')).toBe('/settings');
    fireEvent.click(settings);
    expect(screen.getByTestId('where').textContent).toBe('/settings');
  });
});
