// @vitest-environment jsdom
// What to push, quiet hours, auto-follow (three sections of the settings page, one set of push
// settings): two quick changes both reach the data layer, even in two sections and when the store's
// copy of the settings comes back later than the write's promise (a busy device).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { BehaviorSubject } from 'rxjs';
import { AutoFollow, PushKinds, PUSH_KINDS_TEXT, QuietHours } from '../../../app/src/components/PushSettings/PushKinds';
import { usePushPreferences } from '../../../app/src/components/PushSettings/usePushPreferences';
import { DEFAULT_PUSH_SETTINGS, type PushSettings } from '../../../shared/push';
import { fakeData } from '../../fixtures/fake-data';
import { renderWithData } from './with-data';

afterEach(cleanup);

/** The three parts as the settings page has them: one usePushPreferences() for all. */
function Parts() {
  const prefs = usePushPreferences();
  return (
    <>
      <PushKinds prefs={prefs} />
      <QuietHours prefs={prefs} />
      <AutoFollow prefs={prefs} />
    </>
  );
}

describe('PushKinds', () => {
  it('a second change made before the store has the first keeps the first', async () => {
    const stored = new BehaviorSubject<PushSettings | null>(DEFAULT_PUSH_SETTINGS);
    const setPushSettings = vi.fn(async (_settings: PushSettings) => {});
    renderWithData(<Parts />, fakeData({ pushSettings$: () => stored, setPushSettings }));

    await act(async () => {
      fireEvent.click(screen.getByRole('checkbox', { name: PUSH_KINDS_TEXT.replies }));
    });
    // The write has resolved; the store's copy has not moved yet.
    await act(async () => {
      fireEvent.click(screen.getByRole('checkbox', { name: PUSH_KINDS_TEXT.moderation }));
    });
    // Another section, same settings: it builds on both changes too.
    await act(async () => {
      fireEvent.click(screen.getByRole('checkbox', { name: PUSH_KINDS_TEXT.quietToggle }));
    });
    expect(setPushSettings).toHaveBeenCalledTimes(3);
    expect(setPushSettings.mock.calls[1]![0]).toMatchObject({ replies: false, moderation: false });
    expect(setPushSettings.mock.calls[2]![0]).toMatchObject({
      replies: false,
      moderation: false,
      quiet_hours: { start: '22:00', end: '07:00' },
    });
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: PUSH_KINDS_TEXT.replies }).checked).toBe(false);

    // The store catches up, then another device changes something: that shows.
    await act(async () => stored.next({ ...DEFAULT_PUSH_SETTINGS, replies: false, moderation: false }));
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: PUSH_KINDS_TEXT.quietToggle }).checked).toBe(false);
    await act(async () => stored.next({ ...DEFAULT_PUSH_SETTINGS, replies: true, moderation: false }));
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: PUSH_KINDS_TEXT.replies }).checked).toBe(true);
  });

  it('quiet hours read as one sentence: "Don\'t send push notifications from [start] to [end]"', async () => {
    const stored = new BehaviorSubject<PushSettings | null>({
      ...DEFAULT_PUSH_SETTINGS,
      quiet_hours: { start: '22:00', end: '07:00', time_zone: 'Europe/Paris' },
    });
    const setPushSettings = vi.fn(async (_settings: PushSettings) => {});
    const { container } = renderWithData(<Parts />, fakeData({ pushSettings$: () => stored, setPushSettings }));
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'Pause push notifications during quiet hours' }).checked).toBe(true);
    const start = screen.getByLabelText<HTMLInputElement>('Quiet hours start');
    const end = screen.getByLabelText<HTMLInputElement>('Quiet hours end');
    const sentence = start.closest('p')!;
    expect(end.closest('p')).toBe(sentence);
    expect(sentence.textContent).toBe("Don't send push notifications fromto(Europe/Paris time)");
    expect([...sentence.childNodes].map((n) => (n instanceof HTMLInputElement ? `[${n.value}]` : n.textContent)).join(' ')).toBe(
      "Don't send push notifications from [22:00] to [07:00] (Europe/Paris time)",
    );
    expect(container.textContent).not.toContain('no push between');
    await act(async () => {
      fireEvent.change(end, { target: { value: '06:30' } });
    });
    expect(setPushSettings.mock.calls[0]![0].quiet_hours).toEqual({ start: '22:00', end: '06:30', time_zone: 'Europe/Paris' });
  });

  it('a refused write shows its message in the section that made it, and the stored settings again', async () => {
    const stored = new BehaviorSubject<PushSettings | null>(DEFAULT_PUSH_SETTINGS);
    const setPushSettings = vi.fn(async (_settings: PushSettings) => {
      throw new Error('Please log in to update your preferences.');
    });
    renderWithData(<Parts />, fakeData({ pushSettings$: () => stored, setPushSettings }));
    await act(async () => {
      fireEvent.click(screen.getByRole('checkbox', { name: PUSH_KINDS_TEXT.replies }));
    });
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual(['Please log in to update your preferences.']);
    expect(screen.getByRole('alert').closest('fieldset')).toBe(screen.getByRole('group', { name: PUSH_KINDS_TEXT.legend }));
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: PUSH_KINDS_TEXT.replies }).checked).toBe(true);
  });

  it("waits for the profile before it takes a change (the defaults would replace the server's settings)", async () => {
    const stored = new BehaviorSubject<PushSettings | null>(null);
    renderWithData(<Parts />, fakeData({ pushSettings$: () => stored }));
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: PUSH_KINDS_TEXT.replies }).matches(':disabled')).toBe(true);
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: PUSH_KINDS_TEXT.followOnReply }).matches(':disabled')).toBe(true);
    await act(async () => stored.next({ ...DEFAULT_PUSH_SETTINGS, replies: false }));
    const replies = screen.getByRole<HTMLInputElement>('checkbox', { name: PUSH_KINDS_TEXT.replies });
    expect(replies.matches(':disabled')).toBe(false);
    expect(replies.checked).toBe(false);
  });
});
