// @vitest-environment jsdom
// Moderation in the existing screens: the header's way to the queue with its open-reports count
// (moderators only, polled, named for screen readers), a removed or hidden text as a notice with
// the original for its author and moderators, a locked topic's and a suspended account's composer,
// and the moderation notices' words.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { of } from 'rxjs';
import type { SessionState } from '../../../app/src/auth/session';
import { Composer } from '../../../app/src/components/Composer/Composer';
import { Header } from '../../../app/src/components/Header/Header';
import { ModeratedText } from '../../../app/src/components/ModeratedText/ModeratedText';
import { SuspensionBanner } from '../../../app/src/components/SuspensionBanner/SuspensionBanner';
import type { MyAccount, NotificationItem } from '../../../app/src/data/api';
import { moderationChanged, OPEN_REPORTS_POLL_MS } from '../../../app/src/hooks/useOpenReportsCount';
import { NotificationsPage, notificationText } from '../../../app/src/routes/NotificationsPage';
import { SUSPENDED_FOR_GOOD } from '../../../shared/constants';
import { MSG, removalNotice, removedByModerator, restoreNotice, suspendedMessage } from '../../../shared/messages';
import { fakeData, fakeTopic } from '../../fixtures/fake-data';
import { renderWithData, SIGNED_IN } from './with-data';

const held = vi.hoisted(() => ({ session: null as SessionState | null }));
vi.mock('../../../app/src/auth/firebase', () => ({ loadClientConfig: async () => ({}) }));
vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: () => held.session }));
vi.mock('../../../app/src/auth/session', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  getSession: () => held.session,
}));

beforeEach(() => {
  held.session = SIGNED_IN;
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const account = (role: MyAccount['role'], suspended_until: string | null = null, suspension_reason: string | null = null): MyAccount => ({
  uid: 'uid-ada',
  role,
  suspended_until,
  suspension_reason,
});

describe('Header: the moderators’ way to the queue', () => {
  it('a moderator sees Moderation with the open reports count, asked again on a timer, on focus and after an action', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let total = 3;
    const moderationQueue = vi.fn(async () => ({ items: [], total }));
    renderWithData(<Header />, fakeData({ myAccount$: () => of(account('moderator')), moderationQueue }));
    const [link] = await screen.findAllByRole('link', { name: 'Moderation, 3 open reports' });
    expect(link!.getAttribute('href')).toBe('/moderation');
    expect(screen.getByTestId('moderation-badge').textContent).toBe('3');
    expect(moderationQueue).toHaveBeenCalledWith('open', 0, 0);
    // Both badges share one request.
    expect(moderationQueue).toHaveBeenCalledTimes(1);
    // The phone's menu has the same way.
    expect(screen.getAllByRole('link', { name: 'Moderation, 3 open reports' })).toHaveLength(2);

    total = 1;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(OPEN_REPORTS_POLL_MS);
    });
    expect(await screen.findAllByRole('link', { name: 'Moderation, 1 open report' })).toHaveLength(2);

    total = 0;
    const calls = moderationQueue.mock.calls.length;
    act(() => void window.dispatchEvent(new Event('focus')));
    await waitFor(() => expect(moderationQueue.mock.calls.length).toBeGreaterThan(calls));
    expect((await screen.findAllByRole('link', { name: 'Moderation' })).length).toBe(2);
    expect(screen.queryByTestId('moderation-badge')).toBeNull();

    total = 5;
    act(() => moderationChanged());
    expect(await screen.findAllByRole('link', { name: 'Moderation, 5 open reports' })).toHaveLength(2);
  });

  it('a member sees no way to the queue, and nothing is asked', () => {
    const moderationQueue = vi.fn();
    renderWithData(<Header />, fakeData({ myAccount$: () => of(account('member')), moderationQueue }));
    expect(screen.queryByRole('link', { name: /^Moderation/ })).toBeNull();
    expect(moderationQueue).not.toHaveBeenCalled();
  });
});

describe('ModeratedText', () => {
  const removed = removedByModerator('Personal attack');

  it('a live text shows as it is, with what goes under it', () => {
    renderWithData(
      <ModeratedText targetType="response" targetId="r1" text="Tea wins." moderation={null} creatorUid="uid-bob" testId="text">
        <p>sources</p>
      </ModeratedText>,
    );
    expect(screen.getByTestId('text').className).not.toContain('moderated-text');
    expect(screen.getByText('sources')).toBeTruthy();
  });

  it('a removed text reads as a muted notice; another member has no way to the original', () => {
    const moderatedOriginal = vi.fn();
    renderWithData(
      <ModeratedText targetType="response" targetId="r1" text={removed} moderation="removed" creatorUid="uid-bob" testId="text">
        <p>sources</p>
      </ModeratedText>,
      fakeData({ myAccount$: () => of(account('member')), moderatedOriginal }),
    );
    expect(screen.getByTestId('text').textContent).toBe(removed);
    expect(screen.getByTestId('text').className).toContain('moderated-text');
    expect(screen.queryByText('sources')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('its author reads their own text, marked as seen by them and moderators only', async () => {
    const moderatedOriginal = vi.fn(async () => ({
      target_type: 'response' as const,
      target_id: 'r1',
      text: 'You are all wrong and rude.',
      sources: [{ id: 's1', url: 'https://example.org/x', name: 'X', description: null }],
      quoted_response_id: null,
      moderation: 'removed' as const,
      moderation_reason: 'Personal attack',
    }));
    renderWithData(
      <ModeratedText targetType="response" targetId="r1" text={removed} moderation="removed" creatorUid="uid-ada" />,
      fakeData({ myAccount$: () => of(account('member')), moderatedOriginal }),
    );
    const show = screen.getByRole('button', { name: 'Show my text' });
    expect(show.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(show);
    const note = await screen.findByRole('note', { name: 'Removed — only you and moderators can see this' });
    expect(note.textContent).toContain('You are all wrong and rude.');
    expect(screen.getByRole('link', { name: 'X' }).getAttribute('href')).toBe('https://example.org/x');
    expect(moderatedOriginal).toHaveBeenCalledWith('response', 'r1');
    fireEvent.click(screen.getByRole('button', { name: 'Hide' }));
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('a moderator gets "Show original" of a hidden topic title; a refusal shows its text', async () => {
    const moderatedOriginal = vi.fn(async () => {
      throw new Error(MSG.moderatorsOnly);
    });
    renderWithData(
      <ModeratedText as="h1" targetType="topic" targetId="t1" text={MSG.hiddenPendingReview} moderation="hidden" creatorUid="uid-bob" />,
      fakeData({ myAccount$: () => of(account('moderator')), moderatedOriginal }),
    );
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(MSG.hiddenPendingReview);
    fireEvent.click(screen.getByRole('button', { name: 'Show original' }));
    expect((await screen.findByRole('alert')).textContent).toBe(MSG.moderatorsOnly);
  });
});

describe('Composer: locked topics and suspended accounts', () => {
  const composer = <Composer topicId="t1" parentId={null} replyingTo="Is tea better?" type="for" onType={() => undefined} />;

  it('a locked topic says so instead of the form', () => {
    renderWithData(composer, fakeData({ topic$: () => of(fakeTopic({ id: 't1', locked: true })) }));
    expect(screen.getByTestId('composer-blocked').textContent).toBe(MSG.topicLocked);
    expect(screen.queryByRole('form')).toBeNull();
    expect(screen.queryByLabelText('Your response')).toBeNull();
  });

  it('an open topic has the form', () => {
    renderWithData(composer, fakeData({ topic$: () => of(fakeTopic({ id: 't1', locked: false })) }));
    expect(screen.queryByTestId('composer-blocked')).toBeNull();
    expect(screen.getByLabelText('Your response')).toBeTruthy();
  });

  it('a suspended account reads why once, in the banner (the composer offers no form); a past suspension is over', () => {
    const until = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const data = fakeData({ topic$: () => of(fakeTopic({ id: 't1' })), myAccount$: () => of(account('member', until, 'Insults')) });
    renderWithData(
      <>
        <SuspensionBanner />
        {composer}
      </>,
      data,
    );
    expect(screen.getByTestId('suspension-banner').textContent).toBe(suspendedMessage(until, 'Insults'));
    expect(screen.getAllByText(suspendedMessage(until, 'Insults'))).toHaveLength(1);
    expect(screen.queryByTestId('composer-blocked')).toBeNull();
    expect(screen.queryByLabelText('Your response')).toBeNull();
    cleanup();

    renderWithData(<SuspensionBanner />, fakeData({ myAccount$: () => of(account('member', SUSPENDED_FOR_GOOD, 'Spam')) }));
    expect(screen.getByTestId('suspension-banner').textContent).toBe('Your account is suspended: Spam');
    cleanup();

    renderWithData(
      <>
        <SuspensionBanner />
        {composer}
      </>,
      fakeData({ topic$: () => of(fakeTopic({ id: 't1' })), myAccount$: () => of(account('member', '2020-01-01T00:00:00.000Z', 'Old')) }),
    );
    expect(screen.queryByTestId('suspension-banner')).toBeNull();
    expect(screen.getByLabelText('Your response')).toBeTruthy();
  });
});

describe('Notifications: a moderator’s removal and restoration', () => {
  const base = {
    actor_display_name: 'A moderator',
    target_id: 't1',
    response_deleted: false,
    created_at: new Date().toISOString(),
    is_read: false,
  };

  it('words', () => {
    expect(notificationText({ type: 'moderation_removed', target_summary: 'Spam', response_id: 'r1' })).toBe(
      removalNotice('response', 'Spam'),
    );
    expect(notificationText({ type: 'moderation_removed', target_summary: 'Spam', response_id: '' })).toBe(removalNotice('topic', 'Spam'));
    expect(notificationText({ type: 'moderation_restored', target_summary: '', response_id: 'r1' })).toBe(restoreNotice('response'));
    expect(notificationText({ type: 'moderation_restored', target_summary: '', response_id: '' })).toBe(restoreNotice('topic'));
  });

  it('on the page, without an actor’s name, leading to the item', async () => {
    const list: NotificationItem[] = [
      { ...base, id: 'n1', type: 'moderation_removed', target_summary: 'Personal attack', response_id: 'r1' },
      { ...base, id: 'n2', type: 'moderation_restored', target_summary: '', response_id: '' },
    ];
    renderWithData(<NotificationsPage />, fakeData({ notifications$: () => of(list) }));
    const items = await screen.findAllByRole('button', { name: /moderator/ });
    expect(items[0]!.textContent).toContain('A moderator removed your response: Personal attack');
    // No actor's name in bold before it: the notice says who acted.
    expect(items[0]!.querySelector('.notification-actor')).toBeNull();
    expect(items[1]!.textContent).toContain('A moderator restored your topic.');
  });
});
