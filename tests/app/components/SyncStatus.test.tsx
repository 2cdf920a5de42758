// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { of } from 'rxjs';
import { SessionEnded, SyncStatus } from '../../../app/src/components/SyncStatus/SyncStatus';
import type { SyncStatus as SyncStatusState } from '../../../app/src/hooks/useSyncStatus';
import { fakeData } from '../../fixtures/fake-data';
import { renderWithData } from './with-data';

afterEach(cleanup);

const SYNCED: SyncStatusState = {
  online: true,
  syncing: false,
  pending: 0,
  lastError: null,
  lastSyncedAt: null,
  isLeader: true,
  updateRequired: false,
  sessionEnded: false,
};
const renderStatus = (status: Partial<SyncStatusState>) =>
  renderWithData(<SyncStatus />, fakeData({ status$: of({ ...SYNCED, ...status }) }));

describe('SyncStatus', () => {
  it('says nothing while everything is synced', () => {
    renderStatus({});
    expect(screen.queryByTestId('sync-status')).toBeNull();
  });

  it.each([
    [{ online: false }, 'Offline'],
    [{ online: false, pending: 2 }, 'Offline · 2 to sync'],
    [{ pending: 3 }, 'Syncing 3…'],
  ])('%j → %s', (status, label) => {
    renderStatus(status);
    const pill = screen.getByTestId('sync-status');
    expect(pill.getAttribute('role')).toBe('status');
    expect(pill.textContent?.trim()).toBe(label);
  });

  it('when the server needs a newer app, alerts with its text and a Reload button the keyboard reaches', () => {
    const text = 'Crux was updated — reload to keep syncing.';
    renderStatus({ updateRequired: true, lastError: text, pending: 1 });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain(text);
    const reload = screen.getByRole('button', { name: 'Reload' });
    expect(alert.contains(reload)).toBe(true);
    expect(reload.tabIndex).toBe(0);
    reload.focus();
    expect(document.activeElement).toBe(reload);
  });

  it.each([
    [1, 'Your session has ended: sign in again to send 1 change'],
    [3, 'Your session has ended: sign in again to send 3 changes'],
  ])('a session that ended with %i queued says so and offers Sign in, never "Offline"', (pending, text) => {
    const onSignIn = vi.fn();
    const status = { ...SYNCED, online: false, pending, sessionEnded: true };
    renderWithData(
      <>
        <SyncStatus />
        <SessionEnded onSignIn={onSignIn} />
      </>,
      fakeData({ status$: of(status) }),
    );
    expect(screen.queryByTestId('sync-status')).toBeNull();
    expect(document.body.textContent).not.toContain('Offline');
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain(text);
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(onSignIn).toHaveBeenCalledOnce();
  });

  it('shows no session strip while the session is fine', () => {
    renderWithData(<SessionEnded onSignIn={() => {}} />, fakeData({ status$: of({ ...SYNCED, online: false, pending: 1 }) }));
    expect(screen.queryByTestId('session-ended')).toBeNull();
  });
});
