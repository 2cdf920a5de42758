// @vitest-environment jsdom
// Moderation on another user's page: Report for anyone (not on one's own page), and for an admin
// Make moderator / Remove moderator with the server's answer.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { of } from 'rxjs';
import type { SessionState } from '../../../app/src/auth/session';
import { UserModeration } from '../../../app/src/components/UserModeration/UserModeration';
import { CruxError, type MyAccount } from '../../../app/src/data/index.js';
import { fakeData } from '../../fixtures/fake-data';
import { renderWithData, SIGNED_IN } from './with-data';

const held = vi.hoisted(() => ({ session: null as SessionState | null }));
vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: () => held.session }));

beforeEach(() => {
  held.session = SIGNED_IN;
});
afterEach(cleanup);

const account = (role: MyAccount['role']): MyAccount => ({ uid: 'uid-ada', role, suspended_until: null, suspension_reason: null });

describe('UserModeration', () => {
  it('a member can report another user, never themselves, and has no role buttons', () => {
    renderWithData(<UserModeration uid="uid-bob" name="Bob" />, fakeData({ myAccount$: () => of(account('member')) }));
    expect(screen.getByRole('button', { name: 'Report user Bob' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Make moderator' })).toBeNull();
    cleanup();
    renderWithData(<UserModeration uid="uid-ada" name="Ada" />, fakeData({ myAccount$: () => of(account('admin')) }));
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('an admin makes a user a moderator and takes it back, with the result; a refusal shows its text', async () => {
    const setUserRole = vi.fn(async (uid: string, role: 'member' | 'moderator') => ({ uid, role }));
    renderWithData(
      <UserModeration uid="uid-bob" name="Bob" role="member" />,
      fakeData({ myAccount$: () => of(account('admin')), setUserRole }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Make moderator' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Bob is now a moderator.'));
    expect(setUserRole).toHaveBeenCalledWith('uid-bob', 'moderator');
    fireEvent.click(screen.getByRole('button', { name: 'Remove moderator' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Bob is no longer a moderator.'));
    expect(setUserRole).toHaveBeenLastCalledWith('uid-bob', 'member');

    setUserRole.mockRejectedValueOnce(new CruxError('permission-denied', 'Only admins can change roles.'));
    fireEvent.click(screen.getByRole('button', { name: 'Make moderator' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Only admins can change roles.'));
  });
});
