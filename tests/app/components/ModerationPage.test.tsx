// @vitest-environment jsdom
// /moderation and /moderation/log with a fake data layer — moderators only, the queue's
// cards (text, author, reasons, reporters, state), Open / Handled, an action's required reason, the
// server's refusal shown as it says it, empty, error and offline states, paging; the log.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { of } from 'rxjs';
import type { SessionState } from '../../../app/src/auth/session';
import { CruxError, type MyAccount, type SyncStatus } from '../../../app/src/data/index.js';
import { ModerationLogPage } from '../../../app/src/routes/ModerationLogPage';
import { ModerationPage, QUEUE_OFFLINE } from '../../../app/src/routes/ModerationPage';
import { MSG } from '../../../shared/messages';
import type { ModerationLogPage as LogPage, ModerationQueueItem, ModerationQueuePage } from '../../../shared/types';
import { fakeData } from '../../fixtures/fake-data';
import { renderWithData, SIGNED_IN, SIGNED_OUT } from './with-data';

const held = vi.hoisted(() => ({ session: null as SessionState | null }));
vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: () => held.session }));

beforeEach(() => {
  held.session = SIGNED_IN;
});
afterEach(cleanup);

const account = (role: MyAccount['role']): MyAccount => ({ uid: 'uid-ada', role, suspended_until: null, suspension_reason: null });
const online = (isOnline: boolean) => of({ online: isOnline } as SyncStatus);

function item(overrides: Partial<ModerationQueueItem> = {}): ModerationQueueItem {
  return {
    target_type: 'response',
    target_id: 'r1',
    status: 'open',
    target: {
      text: 'You are all idiots.',
      sources: [],
      topic_id: 't1',
      topic_title: 'Is tea better?',
      link: '/topics/t1#response-r1',
      author_uid: 'uid-bob',
      author_name: 'Bob',
      author_role: 'member',
      created_at: '2026-01-01T12:00:00.000Z',
      deleted: false,
      moderation: null,
      moderation_reason: null,
      locked: false,
      suspended_until: null,
    },
    reports: [
      {
        reporter_uid: 'uid-cy',
        reporter_name: 'Cy',
        reason: 'harassment',
        note: 'Insults',
        status: 'open',
        created_at: '2026-01-02T12:00:00.000Z',
        updated_at: '2026-01-02T12:00:00.000Z',
      },
      {
        reporter_uid: 'uid-di',
        reporter_name: 'Di',
        reason: 'hate',
        note: null,
        status: 'open',
        created_at: '2026-01-03T12:00:00.000Z',
        updated_at: '2026-01-03T12:00:00.000Z',
      },
    ],
    reporters: 2,
    first_reported_at: '2026-01-02T12:00:00.000Z',
    last_reported_at: '2026-01-03T12:00:00.000Z',
    ...overrides,
  };
}

const page = (items: ModerationQueueItem[], total = items.length): ModerationQueuePage => ({ items, total });

describe('ModerationPage', () => {
  it('members and visitors read that only moderators can do this, and nothing is asked', () => {
    const moderationQueue = vi.fn();
    renderWithData(<ModerationPage />, fakeData({ myAccount$: () => of(account('member')), moderationQueue }), '/moderation');
    expect(screen.getByRole('status').textContent).toBe(MSG.moderatorsOnly);
    cleanup();
    held.session = SIGNED_OUT;
    renderWithData(<ModerationPage />, fakeData({ moderationQueue }), '/moderation');
    expect(screen.getByText(MSG.moderatorsOnly)).toBeTruthy();
    expect(moderationQueue).not.toHaveBeenCalled();
  });

  it('shows each reported item with its text, author, reports, reporters and times', async () => {
    const moderationQueue = vi.fn(async () => page([item()]));
    renderWithData(<ModerationPage />, fakeData({ myAccount$: () => of(account('moderator')), moderationQueue }), '/moderation');
    const card = await screen.findByTestId('queue-item');
    expect(moderationQueue).toHaveBeenCalledWith('open', 20, 0);
    expect(within(card).getByTestId('queue-text').textContent).toBe('You are all idiots.');
    expect(within(card).getByRole('heading').textContent).toContain('2 reporters');
    expect(within(card).getByRole('link', { name: 'Bob' }).getAttribute('href')).toBe('/users/uid-bob');
    expect(within(card).getByRole('link', { name: 'In “Is tea better?”' }).getAttribute('href')).toBe('/topics/t1#response-r1');
    const reports = within(card).getByRole('list', { name: 'Reports' });
    expect(reports.textContent).toContain('Harassment');
    expect(reports.textContent).toContain('“Insults”');
    expect(reports.textContent).toContain('Hate');
    expect(within(reports).getByRole('link', { name: 'Cy' })).toBeTruthy();
    expect(card.textContent).toContain('First reported');
    const actions = within(card).getByRole('group', { name: 'Actions' });
    expect(
      within(actions)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Remove', 'Dismiss', 'Suspend author']);
  });

  it('a removed topic offers Restore and Unlock, and shows its state', async () => {
    const topic = item({
      target_type: 'topic',
      target_id: 't1',
      target: {
        ...item().target,
        text: 'Buy cheap tea',
        moderation: 'removed',
        moderation_reason: 'Spam',
        locked: true,
        link: '/topics/t1',
      },
    });
    renderWithData(
      <ModerationPage />,
      fakeData({ myAccount$: () => of(account('admin')), moderationQueue: async () => page([topic]) }),
      '/moderation',
    );
    const card = await screen.findByTestId('queue-item');
    expect(within(card).getByRole('list', { name: 'State' }).textContent).toContain('Removed: Spam');
    expect(within(card).getByRole('list', { name: 'State' }).textContent).toContain('Locked');
    const actions = within(card).getByRole('group', { name: 'Actions' });
    expect(
      within(actions)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Restore', 'Unlock', 'Dismiss', 'Suspend author']);
  });

  it('an action asks for a reason, sends it, and reloads the queue', async () => {
    const moderationQueue = vi.fn(async () => page([item()]));
    const moderate = vi.fn(async () => ({}) as never);
    renderWithData(<ModerationPage />, fakeData({ myAccount$: () => of(account('moderator')), moderationQueue, moderate }), '/moderation');
    fireEvent.click(await screen.findByRole('button', { name: 'Remove' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove this response' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(within(dialog).getByRole('alert').textContent).toBe(MSG.moderationReasonEmpty);
    expect(moderate).not.toHaveBeenCalled();
    fireEvent.change(within(dialog).getByLabelText('Reason (the author sees it)'), { target: { value: ' Personal attack ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByText('Remove done: Personal attack').getAttribute('role')).toBe('status');
    expect(moderate).toHaveBeenCalledWith({ action: 'remove', target_type: 'response', target_id: 'r1', reason: 'Personal attack' });
    await waitFor(() => expect(moderationQueue).toHaveBeenCalledTimes(2));
  });

  it('suspends an author for days or for good, and shows the server’s refusal as it says it', async () => {
    const moderate = vi.fn(async () => {
      throw new CruxError('permission-denied', MSG.cannotActOnAdmin);
    });
    renderWithData(
      <ModerationPage />,
      fakeData({ myAccount$: () => of(account('moderator')), moderationQueue: async () => page([item()]), moderate }),
      '/moderation',
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Suspend author' }));
    const dialog = screen.getByRole('dialog', { name: 'Suspend this author' });
    fireEvent.change(within(dialog).getByLabelText('Days'), { target: { value: '3' } });
    fireEvent.change(within(dialog).getByLabelText('Reason (the author sees it)'), { target: { value: 'Insults' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toBe(MSG.cannotActOnAdmin));
    expect(moderate).toHaveBeenLastCalledWith({ action: 'suspend', target_type: 'user', target_id: 'uid-bob', reason: 'Insults', days: 3 });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'For good' }));
    expect(within(dialog).getByLabelText<HTMLInputElement>('Days').disabled).toBe(true);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    await waitFor(() => expect(moderate).toHaveBeenCalledTimes(2));
    expect(moderate).toHaveBeenLastCalledWith({
      action: 'suspend',
      target_type: 'user',
      target_id: 'uid-bob',
      reason: 'Insults',
      days: null,
    });
  });

  it('Open / Handled, empty, error and offline states, and paging', async () => {
    const moderationQueue = vi.fn(async (status: string, _limit: number, offset: number) =>
      status === 'handled' ? page([]) : page([item({ target_id: `r${offset}` })], 45),
    );
    renderWithData(<ModerationPage />, fakeData({ myAccount$: () => of(account('moderator')), moderationQueue }), '/moderation');
    await screen.findByTestId('queue-item');
    expect(screen.getByText('1–1 of 45')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(moderationQueue).toHaveBeenLastCalledWith('open', 20, 20));
    expect(screen.getByRole('button', { name: 'Open' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Handled' }));
    expect(await screen.findByText('No handled reports.')).toBeTruthy();
    expect(moderationQueue).toHaveBeenLastCalledWith('handled', 20, 0);
    cleanup();

    renderWithData(
      <ModerationPage />,
      fakeData({ myAccount$: () => of(account('moderator')), moderationQueue: async () => page([]) }),
      '/moderation',
    );
    expect(await screen.findByText('No open reports.')).toBeTruthy();
    cleanup();

    renderWithData(
      <ModerationPage />,
      fakeData({
        myAccount$: () => of(account('moderator')),
        moderationQueue: async () => {
          throw new CruxError('internal', 'The server had a problem; try again.');
        },
      }),
      '/moderation',
    );
    expect((await screen.findByRole('alert')).textContent).toContain('The server had a problem; try again.');
    cleanup();

    renderWithData(
      <ModerationPage />,
      fakeData({
        myAccount$: () => of(account('moderator')),
        status$: online(false),
        moderationQueue: async () => {
          throw new CruxError('unavailable', 'You are offline: moderation needs a connection.');
        },
      }),
      '/moderation',
    );
    expect(await screen.findByText(QUEUE_OFFLINE)).toBeTruthy();
  });
});

describe('ModerationLogPage', () => {
  it('lists actions newest first: who, what, why, when', async () => {
    const log: LogPage = {
      items: [
        {
          id: 'l2',
          moderator_uid: 'uid-mod',
          moderator_name: 'Mo',
          action: 'suspend',
          target_type: 'user',
          target_id: 'uid-bob',
          reason: 'Insults',
          days: 3,
          created_at: '2026-01-03T12:00:00.000Z',
          target_name: 'Bob Builder',
          target_topic_id: null,
        },
        {
          id: 'l3',
          moderator_uid: 'uid-mod',
          moderator_name: 'Mo',
          action: 'lock',
          target_type: 'topic',
          target_id: 't1',
          reason: 'Going in circles',
          days: null,
          created_at: '2026-01-02T13:00:00.000Z',
          target_name: 'Should cities ban cars?',
          target_topic_id: null,
        },
        {
          id: 'l1',
          moderator_uid: null,
          moderator_name: null,
          action: 'hide',
          target_type: 'response',
          target_id: 'r1',
          reason: 'Reported by 3 people',
          days: null,
          created_at: '2026-01-02T12:00:00.000Z',
          target_name: `Cars are ${'really '.repeat(20)}bad`,
          target_topic_id: 't1',
        },
        {
          id: 'l0',
          moderator_uid: 'uid-mod',
          moderator_name: 'Mo',
          action: 'remove',
          target_type: 'response',
          target_id: 'r-gone',
          reason: 'Spam',
          days: null,
          created_at: '2026-01-01T12:00:00.000Z',
          target_name: null,
          target_topic_id: null,
        },
      ],
      total: 4,
    };
    const moderationLog = vi.fn(async () => log);
    renderWithData(<ModerationLogPage />, fakeData({ myAccount$: () => of(account('moderator')), moderationLog }), '/moderation/log');
    const entries = await screen.findAllByTestId('log-entry');
    expect(moderationLog).toHaveBeenCalledWith(50, 0);
    // Each names what it was about and links to it.
    expect(entries[0]!.textContent).toContain('Mo suspended Bob Builder for 3 days');
    expect(entries[0]!.textContent).toContain('“Insults”');
    expect(within(entries[0]!).getByRole('link', { name: 'Bob Builder' }).getAttribute('href')).toBe('/users/uid-bob');
    expect(entries[1]!.textContent).toContain('Mo locked the topic “Should cities ban cars?”');
    expect(within(entries[1]!).getByRole('link', { name: '“Should cities ban cars?”' }).getAttribute('href')).toBe('/topics/t1');
    expect(entries[2]!.textContent).toContain('Crux hid (automatically) the response “Cars are really');
    const response = within(entries[2]!).getByRole('link', { name: /^“Cars are really/ });
    expect(response.getAttribute('href')).toBe('/topics/t1#response-r1');
    // A long text is cut in the log, with an ellipsis.
    expect(response.textContent.length).toBeLessThan(90);
    expect(response.textContent).toMatch(/…”$/);
    // A target that is gone is still said in words.
    expect(entries[3]!.textContent).toContain('Mo removed a response');
  });

  it('members read that only moderators can do this', () => {
    renderWithData(<ModerationLogPage />, fakeData({ myAccount$: () => of(account('member')) }), '/moderation/log');
    expect(screen.getByText(MSG.moderatorsOnly)).toBeTruthy();
  });
});
