// @vitest-environment jsdom
// /settings: every setting on one page, one labelled section each (account, e-mail, push, quiet
// hours, follows, blocked users, this device, my data); quiet hours read as a whole sentence;
// "Download my data" / "Import drafts" and removing the data from this device live here.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { BehaviorSubject, of } from 'rxjs';
import type { SessionState } from '../../../app/src/auth/session';
import { SettingsPage } from '../../../app/src/routes/SettingsPage';
import { exportFileName, readText } from '../../../app/src/hooks/useMyData';
import { rememberOwnDevice } from '../../../app/src/hooks/useSignOut';
import { DEFAULT_PUSH_SETTINGS, type PushSettings } from '../../../shared/push';
import type { Preferences } from '../../../shared/types';
import { fakeData } from '../../fixtures/fake-data';
import { renderWithData, SIGNED_IN, SIGNED_OUT } from './with-data';

const held = vi.hoisted(() => ({ session: null as SessionState | null }));
vi.mock('../../../app/src/auth/firebase', () => ({ loadClientConfig: async () => ({}) }));
vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: () => held.session }));

beforeEach(() => {
  held.session = SIGNED_IN;
  localStorage.clear();
});
afterEach(cleanup);

const SECTIONS = [
  'Account',
  'Email Subscriptions',
  'Push notifications',
  'Quiet hours',
  'Follows',
  'Blocked users',
  'On this device',
  'My data',
];

function settingsData(overrides: Parameters<typeof fakeData>[0] = {}) {
  const preferences: Preferences = { receive_weekly_summary: true };
  return fakeData({
    preferences$: () => of(preferences),
    pushSettings$: () => new BehaviorSubject<PushSettings | null>(DEFAULT_PUSH_SETTINGS),
    blockedUsers$: () => of([{ uid: 'uid-bob', display_name: 'Bob', updated_at: new Date().toISOString(), isPending: false }]),
    ...overrides,
  });
}

describe('/settings', () => {
  it('has one labelled section per setting, in order, each with its controls', async () => {
    renderWithData(<SettingsPage />, settingsData());
    screen.getByRole('heading', { level: 1, name: 'Settings' });
    const regions = screen.getAllByRole('region');
    expect(
      regions.map((r) => r.getAttribute('aria-labelledby') && document.getElementById(r.getAttribute('aria-labelledby')!)!.textContent),
    ).toEqual(SECTIONS);
    const section = (name: string) => within(screen.getByRole('region', { name }));
    expect(section('Account').getByRole('link', { name: 'Ada' }).getAttribute('href')).toBe('/users/uid-ada');
    section('Account').getByRole('button', { name: 'Logout' });
    await section('Email Subscriptions').findByText('You are subscribed to the weekly summary e-mails.');
    section('Email Subscriptions').getByRole('button', { name: 'Unsubscribe' });
    section('Push notifications').getByRole('group', { name: 'What to push' });
    section('Quiet hours').getByRole('checkbox', { name: 'Pause push notifications during quiet hours' });
    section('Follows').getByRole('checkbox', { name: 'Follow the topics I create or reply to' });
    await section('Blocked users').findByRole('button', { name: 'Unblock Bob' });
    expect(section('On this device').getByRole('link', { name: 'Storage on this device' }).getAttribute('href')).toBe('/settings/device');
    section('My data').getByRole('button', { name: 'Download my data' });
    section('My data').getByLabelText('Import drafts');
    section('My data').getByRole('button', { name: 'Remove my data from this device' });
    // The old unfinished sentence is gone everywhere.
    expect(document.body.textContent).not.toContain('no push between');
  });

  it('quiet hours on: "Don\'t send push notifications from [start] to [end]", both times labelled', () => {
    const pushSettings$ = () =>
      new BehaviorSubject<PushSettings | null>({
        ...DEFAULT_PUSH_SETTINGS,
        quiet_hours: { start: '22:00', end: '07:00', time_zone: 'UTC' },
      });
    renderWithData(<SettingsPage />, settingsData({ pushSettings$ }));
    const quiet = within(screen.getByRole('region', { name: 'Quiet hours' }));
    const start = quiet.getByLabelText<HTMLInputElement>('Quiet hours start');
    const end = quiet.getByLabelText<HTMLInputElement>('Quiet hours end');
    expect([start.value, end.value]).toEqual(['22:00', '07:00']);
    expect(start.parentElement!.textContent).toBe("Don't send push notifications fromto(UTC time)");
    expect(start.compareDocumentPosition(end) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('a link to one section (/settings#blocked, from your own page) scrolls to it', () => {
    const scrolled: string[] = [];
    // jsdom has no scrolling: the call itself is what is checked.
    Object.defineProperty(Element.prototype, 'scrollIntoView', {
      configurable: true,
      value: function (this: Element) {
        scrolled.push(this.id);
      },
    });
    try {
      renderWithData(<SettingsPage />, settingsData(), '/settings#blocked');
      expect(scrolled).toEqual(['blocked']);
    } finally {
      Reflect.deleteProperty(Element.prototype, 'scrollIntoView');
    }
  });

  it('signed out: says to log in, and keeps what belongs to the device', () => {
    held.session = SIGNED_OUT;
    const blockedUsers$ = vi.fn(() => of([]));
    renderWithData(<SettingsPage />, settingsData({ blockedUsers$ }));
    screen.getByText('Log in to change your account, e-mail and notification settings.');
    expect(screen.getAllByRole('region').map((r) => r.getAttribute('id'))).toEqual(['device']);
    expect(blockedUsers$).not.toHaveBeenCalled();
  });

  it('while the session is still being restored: loading, not the signed-out page', () => {
    held.session = { ready: false, user: null, profilePending: false };
    renderWithData(<SettingsPage />, settingsData({}));
    expect(screen.getByRole('status').textContent).toBe('Loading settings...');
    expect(screen.queryByText('Log in to change your account, e-mail and notification settings.')).toBeNull();
    expect(screen.queryAllByRole('region')).toEqual([]);
  });

  it('"Remove my data from this device" opens the logout dialog with removal ticked, even on a device called own', async () => {
    rememberOwnDevice(true);
    renderWithData(<SettingsPage />, settingsData());
    fireEvent.click(screen.getByRole('button', { name: 'Remove my data from this device' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Log out of Crux' }));
    expect(dialog.getByRole<HTMLInputElement>('checkbox', { name: 'Also remove my data from this device' }).checked).toBe(true);
    fireEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
    // Plain Logout keeps the device's own choice.
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'Also remove my data from this device' }).checked).toBe(false);
  });
});

describe('/settings: my data', () => {
  it('"Download my data" saves the export as crux-my-data-<date>.json', async () => {
    const exportMyData = vi.fn(fakeData().exportMyData);
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:crux-export');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const clicked: HTMLAnchorElement[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    renderWithData(<SettingsPage />, settingsData({ exportMyData }));
    fireEvent.click(screen.getByRole('button', { name: 'Download my data' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(clicked[0]!.download).toBe(exportFileName());
    expect(exportFileName(new Date(2026, 0, 2))).toBe('crux-my-data-2026-01-02.json');
    const blob = createObjectURL.mock.calls[0]![0];
    expect(JSON.parse(await readText(blob))).toMatchObject({ format: 'crux-export', version: 1 });
    await screen.findByText('Your data was downloaded.');
    click.mockRestore();
  });

  it('"Import drafts" hands the chosen file to the data layer and says how many came in', async () => {
    const importDrafts = vi.fn(async () => 2);
    renderWithData(<SettingsPage />, settingsData({ importDrafts }));
    const file = new File([JSON.stringify({ format: 'crux-export', drafts: [] })], 'crux-my-data.json', { type: 'application/json' });
    fireEvent.change(screen.getByLabelText('Import drafts'), { target: { files: [file] } });
    expect((await screen.findByText('2 drafts imported.')).closest('[role="status"]')).not.toBeNull();
    expect(importDrafts).toHaveBeenCalledExactlyOnceWith({ format: 'crux-export', drafts: [] });
  });

  it('says so when the file is not an export', async () => {
    const importDrafts = vi.fn(async () => 0);
    renderWithData(<SettingsPage />, settingsData({ importDrafts }));
    fireEvent.change(screen.getByLabelText('Import drafts'), { target: { files: [new File(['not json'], 'x.json')] } });
    await screen.findByText('This file is not a Crux export (it is not JSON).');
    expect(importDrafts).not.toHaveBeenCalled();
  });
});
