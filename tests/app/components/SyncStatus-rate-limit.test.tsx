// @vitest-environment jsdom
// The pill while the server asks to slow down (429): it counts down to the retry,
// the changes stay queued, and it goes back to the usual label when the wait is over.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen } from '@testing-library/react';
import { BehaviorSubject } from 'rxjs';
import { rateLimitText, SyncStatus } from '../../../app/src/components/SyncStatus/SyncStatus';
import type { SyncStatus as SyncStatusState } from '../../../app/src/hooks/useSyncStatus';
import { fakeData } from '../../fixtures/fake-data';
import { renderWithData } from './with-data';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const BASE: SyncStatusState = {
  online: true,
  syncing: false,
  pending: 2,
  lastError: null,
  lastSyncedAt: null,
  isLeader: true,
  updateRequired: false,
  sessionEnded: false,
};

describe('SyncStatus when rate limited', () => {
  it('rounds the wait up to whole seconds', () => {
    expect(rateLimitText(12_000)).toBe('Slow down — trying again in 12 s');
    expect(rateLimitText(1)).toBe('Slow down — trying again in 1 s');
    expect(rateLimitText(1_001)).toBe('Slow down — trying again in 2 s');
  });

  it('counts down to the retry, then shows the queued changes again', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const status$ = new BehaviorSubject<SyncStatusState>({ ...BASE, rateLimitedUntil: 1_000_000 + 3_000 });
    renderWithData(<SyncStatus />, fakeData({ status$ }));
    const pill = screen.getByTestId('sync-status');
    expect(pill.getAttribute('role')).toBe('status');
    expect(pill.textContent?.trim()).toBe('Slow down — trying again in 3 s');
    act(() => {
      vi.advanceTimersByTime(1_000);
    });
    expect(screen.getByTestId('sync-status').textContent?.trim()).toBe('Slow down — trying again in 2 s');
    act(() => {
      vi.advanceTimersByTime(2_000);
    });
    expect(screen.getByTestId('sync-status').textContent?.trim()).toBe('Syncing 2…');
    act(() => status$.next({ ...BASE, pending: 0, rateLimitedUntil: null }));
    expect(screen.queryByTestId('sync-status')).toBeNull();
  });

  it('offline wins over the wait', () => {
    vi.useFakeTimers({ now: 5_000 });
    const status$ = new BehaviorSubject<SyncStatusState>({ ...BASE, online: false, rateLimitedUntil: 10_000 });
    renderWithData(<SyncStatus />, fakeData({ status$ }));
    expect(screen.getByTestId('sync-status').textContent?.trim()).toBe('Offline · 2 to sync');
  });
});
