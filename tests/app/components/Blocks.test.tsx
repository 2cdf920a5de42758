// @vitest-environment jsdom
// Blocking in the UI: a blocked author's topics and responses (replies too) collapse to
// one line with a Show button that expands that one item and moves the focus to it; nothing collapses
// while the block list is not known; the user page's Block / Unblock button and its signed-out
// message; your own page links to the list; /settings/blocked lists the blocked users with Unblock.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { BehaviorSubject, of } from 'rxjs';
import type { SessionState } from '../../../app/src/auth/session';
import type { BlockedUserView, CruxData, RemoteCopy, ResponseView } from '../../../app/src/data/index.js';
import { blockedNote } from '../../../app/src/components/BlockButton/BlockButton';
import { BLOCKED_USERS_PATH } from '../../../app/src/components/BlockButton/blocked-users-link';
import { BLOCKED_USERS_EMPTY, BlockedUsersPage, NOT_YET_SENT } from '../../../app/src/routes/BlockedUsersPage';
import { TopicListPage } from '../../../app/src/routes/TopicListPage';
import { UserPage } from '../../../app/src/routes/UserPage';
import { blockedHidden, MSG } from '../../../shared/messages';
import type { UserProfile } from '../../../shared/types';
import { fakeData, fakeResponse, fakeTopic } from '../../fixtures/fake-data';
import { renderTopicPage } from './topic-page';
import { renderWithData, SIGNED_IN, SIGNED_OUT } from './with-data';

const session = vi.hoisted(() => ({ current: null as SessionState | null }));
vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: () => session.current }));

beforeEach(() => {
  session.current = SIGNED_IN;
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      observe() {}
      disconnect() {}
    },
  );
  Element.prototype.scrollIntoView = vi.fn();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const BOB = 'uid-bob';
const blocking = (...uids: string[]) => ({ blockedUids$: () => of(new Set(uids)) });

describe('a blocked author’s items collapse', () => {
  const tea = fakeTopic({ id: 'tea', title: 'Is tea better than coffee?', creator_uid: 'uid-ada', username: 'Ada' });
  const cats = fakeTopic({ id: 'cats', title: 'Cats or dogs?', creator_uid: BOB, username: 'Bob' });

  it('a topic in the list is one line until shown; Show expands that topic only and takes the focus to it', async () => {
    const other = fakeTopic({ id: 'mice', title: 'Are mice pets?', creator_uid: BOB, username: 'Bob' });
    renderWithData(<TopicListPage />, fakeData({ topics$: () => of([tea, cats, other]), ...blocking(BOB) }));
    await screen.findByText('Is tea better than coffee?');
    expect(screen.queryByText('Cats or dogs?')).toBeNull();
    expect(screen.queryByText('Are mice pets?')).toBeNull();
    const lines = screen.getAllByTestId('blocked-collapsed');
    expect(lines.map((line) => line.textContent)).toEqual([`${blockedHidden('Bob')}Show`, `${blockedHidden('Bob')}Show`]);
    // A real list item of the topic list, with a named button (keyboard reachable as any button).
    expect(lines[0]!.tagName).toBe('LI');
    const [show] = screen.getAllByRole('button', { name: 'Show the topic by Bob' });
    fireEvent.click(show!);
    const title = await screen.findByRole('link', { name: 'Cats or dogs?' });
    await waitFor(() => expect(document.activeElement).toBe(title));
    expect(screen.queryByText('Are mice pets?')).toBeNull();
    expect(screen.getAllByTestId('blocked-collapsed')).toHaveLength(1);
  });

  it('nothing collapses while the block list is not known, nor for a user who blocks nobody', async () => {
    renderWithData(<TopicListPage />, fakeData({ topics$: () => of([tea, cats]) }));
    await screen.findByText('Cats or dogs?');
    cleanup();
    renderWithData(<TopicListPage />, fakeData({ topics$: () => of([tea, cats]), ...blocking() }));
    await screen.findByText('Cats or dogs?');
    expect(screen.queryByTestId('blocked-collapsed')).toBeNull();
  });

  it('a response and the blocked author’s replies deeper in the thread collapse, each on its own line', async () => {
    const topic = fakeTopic({ id: 't1', responses_count: 4 });
    const hers = fakeResponse({
      id: 'r-ada',
      topic_id: 't1',
      content: 'Tea has less caffeine.',
      comment_count: 1,
      creator_uid: 'uid-ada',
      username: 'Ada',
    });
    const his = fakeResponse({ id: 'r-bob', topic_id: 't1', content: 'Coffee is stronger.', creator_uid: BOB, username: 'Bob' });
    const reply = fakeResponse({
      id: 'r-bob-reply',
      topic_id: 't1',
      parent_response_id: 'r-ada',
      content: 'Caffeine is the point.',
      creator_uid: BOB,
      username: 'Bob',
    });
    const quoting = fakeResponse({
      id: 'r-cy',
      topic_id: 't1',
      content: 'I side with the quote.',
      quoted_response_id: 'r-bob',
      quoted_response: { id: 'r-bob', content: 'Coffee is stronger.', username: 'Bob', creator_uid: BOB },
      creator_uid: 'uid-cy',
      username: 'Cy',
    });
    const roots$ = new BehaviorSubject<ResponseView[]>([hers, his, quoting]);
    renderTopicPage(topic, {
      rootResponses$: () => roots$,
      topicResponses$: () => of([hers, his, reply]),
      replies$: (id) => of(id === 'r-ada' ? [reply] : []),
      ...blocking(BOB),
    });
    await screen.findByText('Tea has less caffeine.');
    expect(screen.queryByText('Coffee is stronger.')).toBeNull();
    const line = screen.getByTestId('blocked-collapsed');
    // It keeps the response's place: links and quotes to #response-r-bob still find it.
    expect(line.id).toBe('response-r-bob');
    expect(within(line).getByText(blockedHidden('Bob'))).toBeTruthy();
    // Cy's response quoting Bob's stays, its quote saying only that it is hidden.
    const quote = within(document.getElementById('response-r-cy')!).getByTestId('quoted-block');
    expect(quote.textContent).toContain(blockedHidden('Bob'));
    expect(quote.textContent).not.toContain('Coffee is stronger.');
    // Ada's thread opened: Bob's reply in it is collapsed too.
    fireEvent.click(screen.getByRole('button', { name: 'Show All (1)' }));
    await waitFor(() => expect(screen.getAllByTestId('blocked-collapsed')).toHaveLength(2));
    expect(screen.queryByText('Caffeine is the point.')).toBeNull();
    // Show expands that one response, which takes the focus.
    fireEvent.click(within(document.getElementById('response-r-bob')!).getByRole('button', { name: 'Show the response by Bob' }));
    expect(await screen.findByText('Coffee is stronger.')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(document.getElementById('response-r-bob')));
    expect(document.getElementById('response-r-bob')!.getAttribute('data-testid')).toBe('response');
    expect(screen.queryByText('Caffeine is the point.')).toBeNull();
  });
});

describe('the debate map of a topic with a blocked author', () => {
  it('keeps their responses in place, saying only that they are hidden', async () => {
    const topic = fakeTopic({ id: 't1', responses_count: 2 });
    const hers = fakeResponse({ id: 'm-ada', topic_id: 't1', content: 'Tea has less caffeine.', creator_uid: 'uid-ada', username: 'Ada' });
    const his = fakeResponse({ id: 'm-bob', topic_id: 't1', content: 'Coffee is stronger.', creator_uid: BOB, username: 'Bob' });
    renderTopicPage(topic, { rootResponses$: () => of([hers, his]), topicResponses$: () => of([hers, his]), ...blocking(BOB) });
    fireEvent.click(await screen.findByRole('button', { name: 'Debate map' }));
    const region = screen.getByRole('region', { name: 'Debate map' });
    await within(region).findByRole('group', { name: 'Debate map: 2 responses' }, { timeout: 5000 });
    fireEvent.click(within(region).getByRole('button', { name: 'Outline' }));
    const outline = within(region).getByRole('navigation', { name: 'Outline of the debate' });
    expect(within(outline).getByRole('link', { name: /Tea has less caffeine/ })).toBeTruthy();
    expect(
      within(outline)
        .getByRole('link', { name: new RegExp(blockedHidden('Bob').replace('.', '\\.')) })
        .getAttribute('href'),
    ).toBe('#response-m-bob');
    expect(region.textContent).not.toContain('Coffee is stronger.');
  });
});

describe('the user page’s Block button', () => {
  const bob: UserProfile = {
    uid: BOB,
    display_name: 'Bob',
    points: 1,
    persuasion_points: 0,
    rank: 2,
    role: 'member',
    topics: [],
    responses: [],
  };
  const copy = (value: UserProfile): RemoteCopy<UserProfile> => ({
    value,
    fetchedAt: new Date().toISOString(),
    loading: false,
    error: null,
    notFound: false,
    stale: false,
  });
  function showPage(overrides: Partial<CruxData>, uid = BOB) {
    const data = fakeData({
      userProfile$: (asked) => of(copy({ ...bob, uid: asked, display_name: asked === BOB ? 'Bob' : 'Ada' })),
      ...overrides,
    });
    renderWithData(
      <Routes>
        <Route path="/users/:uid" element={<UserPage />} />
      </Routes>,
      data,
      `/users/${uid}`,
    );
    return data;
  }

  it('blocks through the data layer with the name shown, then offers Unblock and says what a block does', async () => {
    const blocked$ = new BehaviorSubject<ReadonlySet<string>>(new Set());
    const blockUser = vi.fn(async () => blocked$.next(new Set([BOB])));
    const unblockUser = vi.fn(async () => blocked$.next(new Set()));
    showPage({ blockUser, unblockUser, blockedUids$: () => blocked$ });
    fireEvent.click(await screen.findByRole('button', { name: 'Block Bob' }));
    expect(blockUser).toHaveBeenCalledExactlyOnceWith(BOB, 'Bob');
    const unblock = await screen.findByRole('button', { name: 'Unblock Bob' });
    expect(unblock.textContent).toBe('Unblock');
    expect(screen.getByTestId('block-status').textContent).toBe(blockedNote('Bob'));
    // The block is written: the button takes a click again.
    await waitFor(() => expect(unblock.getAttribute('aria-disabled')).toBe('false'));
    fireEvent.click(unblock);
    expect(unblockUser).toHaveBeenCalledExactlyOnceWith(BOB);
    expect((await screen.findByRole('button', { name: 'Block Bob' })).textContent).toBe('Block');
    expect(screen.getByTestId('block-status').textContent).toBe('');
  });

  it('shows the data layer’s refusal', async () => {
    showPage({ blockUser: vi.fn(async () => Promise.reject(new Error(MSG.blockSelf))), ...blocking() });
    fireEvent.click(await screen.findByRole('button', { name: 'Block Bob' }));
    expect((await screen.findByRole('alert')).textContent).toBe(MSG.blockSelf);
  });

  it('signed out: a click opens the sign-in saying why and asks nothing of the data layer', async () => {
    session.current = SIGNED_OUT;
    const blockUser = vi.fn(async () => undefined);
    showPage({ blockUser });
    // Not a disabled button with a tooltip: a way in.
    const button = await screen.findByRole('button', { name: 'Block Bob' });
    expect(button.getAttribute('aria-disabled')).toBe('false');
    fireEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Sign in to Crux' });
    expect(within(dialog).getByRole('alert').textContent).toBe(MSG.loginToBlock);
    expect(blockUser).not.toHaveBeenCalled();
    fireEvent.click(button);
    expect(screen.getAllByText(MSG.loginToBlock)).toHaveLength(1);
  });

  it('on your own page: no Block button, a link to your blocked users', async () => {
    showPage(blocking(), 'uid-ada');
    const link = await screen.findByRole('link', { name: 'Blocked users' });
    expect(link.getAttribute('href')).toBe(BLOCKED_USERS_PATH);
    expect(screen.queryByRole('button', { name: /block/i })).toBeNull();
  });
});

describe('/settings/blocked', () => {
  const users: BlockedUserView[] = [
    { uid: BOB, display_name: 'Bob', updated_at: new Date().toISOString(), isPending: true },
    { uid: 'uid-cy', display_name: null, updated_at: new Date().toISOString(), isPending: false },
  ];

  it('lists the blocked users, marks an unsent block, and unblocks one per row', async () => {
    const unblockUser = vi.fn(async () => undefined);
    renderWithData(<BlockedUsersPage />, fakeData({ blockedUsers$: () => of(users), unblockUser }));
    const rows = await screen.findAllByTestId('blocked-user');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByRole('link', { name: 'Bob' }).getAttribute('href')).toBe(`/users/${BOB}`);
    expect(rows[0]!.textContent).toContain(NOT_YET_SENT);
    expect(rows[1]!.textContent).not.toContain(NOT_YET_SENT);
    fireEvent.click(within(rows[1]!).getByRole('button', { name: 'Unblock Anonymous' }));
    expect(unblockUser).toHaveBeenCalledExactlyOnceWith('uid-cy');
  });

  it('says when nobody is blocked, and signed out says to log in', async () => {
    renderWithData(<BlockedUsersPage />, fakeData({ blockedUsers$: () => of([]) }));
    expect(await screen.findByText(BLOCKED_USERS_EMPTY)).toBeTruthy();
    cleanup();
    session.current = SIGNED_OUT;
    const blockedUsers$ = vi.fn(() => of(users));
    renderWithData(<BlockedUsersPage />, fakeData({ blockedUsers$ }));
    expect(screen.getByText(MSG.loginToBlock)).toBeTruthy();
    expect(blockedUsers$).not.toHaveBeenCalled();
  });
});
