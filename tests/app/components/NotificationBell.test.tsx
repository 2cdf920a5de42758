// @vitest-environment jsdom
// The header's unread badge and points-and-rank link, live from the data layer;
// signed out neither shows; Discord / Support come from configuration and open safely.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen } from '@testing-library/react';
import { BehaviorSubject, of } from 'rxjs';
import type { SessionState } from '../../../app/src/auth/session';
import type { UserScore } from '../../../shared/types';
import { Header } from '../../../app/src/components/Header/Header';
import { fakeData } from '../../fixtures/fake-data';
import { renderWithData, SIGNED_IN, SIGNED_OUT } from './with-data';

const held = vi.hoisted(() => ({ session: null as SessionState | null, config: {} }));
vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: () => held.session }));
vi.mock('../../../app/src/auth/firebase', () => ({ loadClientConfig: async () => held.config }));

beforeEach(() => {
  held.session = SIGNED_IN;
  held.config = {};
});
afterEach(cleanup);

describe('Header: notifications badge and score', () => {
  it('the badge and the score follow the data layer live', () => {
    const unread$ = new BehaviorSubject(0);
    const score$ = new BehaviorSubject<UserScore | null>(null);
    renderWithData(<Header />, fakeData({ unreadCount$: () => unread$, score$: () => score$ }));
    const bell = screen.getByRole('link', { name: 'Notifications' });
    expect(bell.getAttribute('href')).toBe('/notifications');
    expect(screen.queryByTestId('unread-badge')).toBeNull();
    expect(screen.queryByTestId('header-score')).toBeNull();
    act(() => {
      unread$.next(2);
      score$.next({ uid: 'uid-ada', points: 12, rank: 3 });
    });
    screen.getByRole('link', { name: 'Notifications, 2 unread' });
    expect(screen.getByTestId('unread-badge').textContent).toBe('2');
    const score = screen.getByRole('link', { name: '12 points, rank 3: leaderboard' });
    expect(score.textContent).toBe('12 pts · #3');
    expect(score.getAttribute('href')).toBe('/leaderboard');
    act(() => {
      unread$.next(0);
      score$.next(null);
    });
    expect(screen.queryByTestId('unread-badge')).toBeNull();
    expect(screen.queryByTestId('header-score')).toBeNull();
  });

  // The leaderboard lists only users with points, so a user with none has no rank to
  // show ("0 pts · #7" disagreed with it, as "#1" did on an empty leaderboard).
  it('no rank while the user has no points; the rank once they have some', () => {
    const score$ = new BehaviorSubject<UserScore | null>({ uid: 'uid-ada', points: 0, rank: 7 });
    renderWithData(<Header />, fakeData({ score$: () => score$ }));
    const score = screen.getByRole('link', { name: '0 points: leaderboard' });
    expect(score.textContent).toBe('0 pts');
    expect(score.getAttribute('href')).toBe('/leaderboard');
    // The server's "#1" for the only user there is, on an empty leaderboard: still no rank.
    act(() => score$.next({ uid: 'uid-ada', points: 0, rank: 1 }));
    expect(screen.getByTestId('header-score').textContent).toBe('0 pts');
    // Fewer than none (downvotes): not on the leaderboard either.
    act(() => score$.next({ uid: 'uid-ada', points: -2, rank: 9 }));
    expect(screen.getByRole('link', { name: '-2 points: leaderboard' }).textContent).toBe('-2 pts');
    act(() => score$.next({ uid: 'uid-ada', points: 1, rank: 2 }));
    expect(screen.getByRole('link', { name: '1 point, rank 2: leaderboard' }).textContent).toBe('1 pt · #2');
  });

  it('signed out: no bell, no score', () => {
    held.session = SIGNED_OUT;
    renderWithData(<Header />, fakeData({ unreadCount$: () => of(3), score$: () => of({ uid: 'x', points: 1, rank: 1 }) }));
    expect(screen.queryByRole('link', { name: /Notifications/ })).toBeNull();
    expect(screen.queryByTestId('header-score')).toBeNull();
  });
});

describe('Header: external links from configuration', () => {
  it('hidden when unset', async () => {
    renderWithData(<Header />);
    await act(async () => {});
    expect(screen.queryByRole('link', { name: /Discord/ })).toBeNull();
    expect(screen.queryByRole('link', { name: /Support/ })).toBeNull();
  });

  it('shown from DISCORD_URL / SUPPORT_URL, opening in a new tab safely', async () => {
    held.config = { discordUrl: 'https://discord.gg/crux', supportUrl: 'mailto:help@crux.example' };
    renderWithData(<Header />);
    const discord = await screen.findByRole('link', { name: 'Discord (opens in a new tab)' });
    expect(discord.getAttribute('href')).toBe('https://discord.gg/crux');
    expect(discord.getAttribute('target')).toBe('_blank');
    expect(discord.getAttribute('rel')).toBe('noopener noreferrer');
    const support = screen.getByRole('link', { name: 'Support (opens in a new tab)' });
    expect(support.getAttribute('href')).toBe('mailto:help@crux.example');
  });
});
