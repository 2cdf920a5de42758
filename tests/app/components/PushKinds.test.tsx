// @vitest-environment jsdom
// What to push: two quick changes both reach the data layer, even when the store's copy
// of the settings comes back later than the write's promise (a busy device).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { BehaviorSubject } from 'rxjs';
import { PushKinds, PUSH_KINDS_TEXT } from '../../../app/src/components/PushSettings/PushKinds';
import { DEFAULT_PUSH_SETTINGS, type PushSettings } from '../../../shared/push';
import { fakeData } from '../../fixtures/fake-data';
import { renderWithData } from './with-data';

afterEach(cleanup);

describe('PushKinds', () => {
  it('a second change made before the store has the first keeps the first', async () => {
    const stored = new BehaviorSubject<PushSettings | null>(DEFAULT_PUSH_SETTINGS);
    const setPushSettings = vi.fn(async (_settings: PushSettings) => {});
    renderWithData(<PushKinds />, fakeData({ pushSettings$: () => stored, setPushSettings }));

    await act(async () => {
      fireEvent.click(screen.getByRole('checkbox', { name: PUSH_KINDS_TEXT.replies }));
    });
    // The write has resolved; the store's copy has not moved yet.
    await act(async () => {
      fireEvent.click(screen.getByRole('checkbox', { name: PUSH_KINDS_TEXT.moderation }));
    });
    expect(setPushSettings).toHaveBeenCalledTimes(2);
    expect(setPushSettings.mock.calls[1]![0]).toMatchObject({ replies: false, moderation: false });
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: PUSH_KINDS_TEXT.replies }).checked).toBe(false);

    // The store catches up, then another device changes something: that shows.
    await act(async () => stored.next({ ...DEFAULT_PUSH_SETTINGS, replies: false, moderation: false }));
    await act(async () => stored.next({ ...DEFAULT_PUSH_SETTINGS, replies: true, moderation: false }));
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: PUSH_KINDS_TEXT.replies }).checked).toBe(true);
  });

  it('a refused write shows its message and the stored settings again', async () => {
    const stored = new BehaviorSubject<PushSettings | null>(DEFAULT_PUSH_SETTINGS);
    const setPushSettings = vi.fn(async (_settings: PushSettings) => {
      throw new Error('Please log in to update your preferences.');
    });
    renderWithData(<PushKinds />, fakeData({ pushSettings$: () => stored, setPushSettings }));
    await act(async () => {
      fireEvent.click(screen.getByRole('checkbox', { name: PUSH_KINDS_TEXT.replies }));
    });
    expect(screen.getByText('Please log in to update your preferences.')).toBeTruthy();
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: PUSH_KINDS_TEXT.replies }).checked).toBe(true);
  });

  it("waits for the profile before it takes a change (the defaults would replace the server's settings)", async () => {
    const stored = new BehaviorSubject<PushSettings | null>(null);
    renderWithData(<PushKinds />, fakeData({ pushSettings$: () => stored }));
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: PUSH_KINDS_TEXT.replies }).matches(':disabled')).toBe(true);
    await act(async () => stored.next({ ...DEFAULT_PUSH_SETTINGS, replies: false }));
    const replies = screen.getByRole<HTMLInputElement>('checkbox', { name: PUSH_KINDS_TEXT.replies });
    expect(replies.matches(':disabled')).toBe(false);
    expect(replies.checked).toBe(false);
  });
});
