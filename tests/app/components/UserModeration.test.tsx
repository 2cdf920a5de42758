// @vitest-environment jsdom
// Another user's page's row of actions: Block and Report for anyone, alike (not on one's own page), for
// a moderator Suspend / Unsuspend through the reason dialog, and for an admin Make moderator / Remove
// moderator with the server's answer. A suspended account keeps Block only.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { of } from 'rxjs';
import type { SessionState } from '../../../app/src/auth/session';
import { UserModeration } from '../../../app/src/components/UserModeration/UserModeration';
import { CruxError, type MyAccount } from '../../../app/src/data/index.js';
import { SUSPENDED_FOR_GOOD } from '../../../shared/constants';
import type { ModerationActionInput } from '../../../shared/schemas/moderation';
import type { ModeratedUser, ModerationLogEntry } from '../../../shared/types';
import { fakeData } from '../../fixtures/fake-data';
import { renderWithData, SIGNED_IN } from './with-data';

const held = vi.hoisted(() => ({ session: null as SessionState | null }));
vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: () => held.session }));

beforeEach(() => {
  held.session = SIGNED_IN;
});
afterEach(cleanup);

const account = (role: MyAccount['role']): MyAccount => ({ uid: 'uid-ada', role, suspended_until: null, suspension_reason: null });
const standing = (suspended_until: string | null = null, suspension_reason: string | null = null): ModeratedUser => ({
  uid: 'uid-bob',
  display_name: 'Bob',
  role: 'member',
  suspended_until,
  suspension_reason,
});

describe('UserModeration', () => {
  it('a member can block and report another user in one row of buttons alike, never themselves; no Suspend, no role buttons', () => {
    const moderatedUser = vi.fn(async () => standing());
    renderWithData(<UserModeration uid="uid-bob" name="Bob" />, fakeData({ myAccount$: () => of(account('member')), moderatedUser }));
    const row = screen.getByRole('group', { name: 'Actions' });
    const buttons = within(row).getAllByRole('button');
    expect(buttons.map((b) => b.textContent)).toEqual(['Block', 'Report']);
    expect(new Set(buttons.map((b) => b.className.replace(/ (block|report)-button$/, ''))).size).toBe(1);
    expect(screen.getByRole('button', { name: 'Report user Bob' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Suspend/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Make moderator' })).toBeNull();
    // A member never asks for anyone's suspension.
    expect(moderatedUser).not.toHaveBeenCalled();
    cleanup();
    renderWithData(<UserModeration uid="uid-ada" name="Ada" />, fakeData({ myAccount$: () => of(account('admin')) }));
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getByRole('link', { name: 'Blocked users' })).toBeTruthy();
  });

  it('a suspended member may still block, but is offered no Report (the server refuses it)', () => {
    const until = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const suspended: MyAccount = { ...account('member'), suspended_until: until, suspension_reason: 'Insults' };
    renderWithData(<UserModeration uid="uid-bob" name="Bob" />, fakeData({ myAccount$: () => of(suspended) }));
    const row = screen.getByRole('group', { name: 'Actions' });
    expect(
      within(row)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Block']);
  });

  it('a moderator suspends from the page: the reason and days are sent, then the row offers Unsuspend with the suspension', async () => {
    let current = standing();
    const moderatedUser = vi.fn(async () => current);
    const moderate = vi.fn(async (input: ModerationActionInput) => {
      current = standing(SUSPENDED_FOR_GOOD, input.reason);
      return { ...input, id: 'log-1' } as unknown as ModerationLogEntry;
    });
    renderWithData(
      <UserModeration uid="uid-bob" name="Bob" />,
      fakeData({ myAccount$: () => of(account('moderator')), moderatedUser, moderate }),
    );
    const suspend = await screen.findByRole('button', { name: 'Suspend Bob' });
    expect(moderatedUser).toHaveBeenCalledWith('uid-bob');
    // The same style as Block and Report beside it.
    expect(suspend.className).toBe(screen.getByRole('button', { name: 'Block Bob' }).className.replace(' block-button', ''));
    fireEvent.click(suspend);
    const dialog = screen.getByRole('dialog', { name: 'Suspend this user' });
    expect(within(dialog).getByTestId('moderation-excerpt').textContent).toBe('Bob');
    fireEvent.click(within(dialog).getByLabelText('For good'));
    fireEvent.change(within(dialog).getByLabelText('Reason (the author sees it)'), { target: { value: 'Spam ring' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(moderate).toHaveBeenCalledWith({
      action: 'suspend',
      target_type: 'user',
      target_id: 'uid-bob',
      reason: 'Spam ring',
      days: null,
    });
    expect(await screen.findByRole('button', { name: 'Unsuspend Bob' })).toBeTruthy();
    expect(screen.getByText('Suspended for good: Spam ring')).toBeTruthy();
    expect(screen.getByText('Suspend done: Spam ring')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Unsuspend Bob' }));
    fireEvent.change(screen.getByLabelText('Reason (the author sees it)'), { target: { value: 'Appeal granted' } });
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Unsuspend' }));
    await waitFor(() =>
      expect(moderate).toHaveBeenLastCalledWith({
        action: 'unsuspend',
        target_type: 'user',
        target_id: 'uid-bob',
        reason: 'Appeal granted',
      }),
    );
  });

  it('an admin makes a user a moderator and takes it back, with the result; a refusal shows its text', async () => {
    const setUserRole = vi.fn(async (uid: string, role: 'member' | 'moderator') => ({ uid, role }));
    renderWithData(
      <UserModeration uid="uid-bob" name="Bob" role="member" />,
      fakeData({ myAccount$: () => of(account('admin')), setUserRole, moderatedUser: async () => standing() }),
    );
    // An admin moderates too.
    expect(await screen.findByRole('button', { name: 'Suspend Bob' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Make moderator' }));
    await waitFor(() => expect(screen.getByText('Bob is now a moderator.').getAttribute('role')).toBe('status'));
    expect(setUserRole).toHaveBeenCalledWith('uid-bob', 'moderator');
    fireEvent.click(screen.getByRole('button', { name: 'Remove moderator' }));
    await waitFor(() => expect(screen.getByText('Bob is no longer a moderator.').getAttribute('role')).toBe('status'));
    expect(setUserRole).toHaveBeenLastCalledWith('uid-bob', 'member');

    setUserRole.mockRejectedValueOnce(new CruxError('permission-denied', 'Only admins can change roles.'));
    fireEvent.click(screen.getByRole('button', { name: 'Make moderator' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Only admins can change roles.'));
  });
});
