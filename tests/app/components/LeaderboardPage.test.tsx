// @vitest-environment jsdom
// /leaderboard: loading, error, empty, filled (competition ranking, own row marked, own rank
// outside the top 100, persuasion points) and the last copy read offline with its age.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { of, throwError } from 'rxjs';
import type { LeaderboardCopy, RemoteCopy } from '../../../app/src/data/index.js';
import { LEADERBOARD_EMPTY, LeaderboardPage } from '../../../app/src/routes/LeaderboardPage';
import type { LeaderboardEntry } from '../../../shared/types';
import { fakeData } from '../../fixtures/fake-data';
import { renderWithData } from './with-data';

afterEach(cleanup);

const entry = (uid: string, display_name: string | null, points: number, rank: number): LeaderboardEntry => ({
  uid,
  display_name,
  points,
  rank,
});

function copy(value: LeaderboardCopy | null, overrides: Partial<RemoteCopy<LeaderboardCopy>> = {}): RemoteCopy<LeaderboardCopy> {
  return {
    value,
    fetchedAt: value ? new Date(Date.now() - 5 * 60_000).toISOString() : null,
    loading: false,
    error: null,
    notFound: false,
    stale: false,
    ...overrides,
  };
}

const show = (state: RemoteCopy<LeaderboardCopy>, uid: string | null = null) =>
  renderWithData(<LeaderboardPage />, fakeData({ leaderboard$: () => of(state), uid$: of(uid) }), '/leaderboard');

const rows = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .queryAllByRole('cell')
        .map((cell) => cell.textContent),
    );

describe('LeaderboardPage', () => {
  it('shows "Loading leaderboard..." until the first copy arrives', () => {
    renderWithData(<LeaderboardPage />, fakeData(), '/leaderboard');
    expect(screen.getByRole('heading', { level: 1, name: 'Leaderboard' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Loading leaderboard...');
  });

  it('shows the fetch error when there is no copy', () => {
    show(copy(null, { error: 'Error loading leaderboard: 500 boom', stale: true }));
    expect(screen.getByRole('alert').textContent).toBe('Error loading leaderboard: 500 boom');
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows "Error: …" when the data layer fails', () => {
    renderWithData(<LeaderboardPage />, fakeData({ leaderboard$: () => throwError(() => new Error('No database')) }));
    expect(screen.getByRole('alert').textContent).toBe('Error: No database');
  });

  it(`says "${LEADERBOARD_EMPTY}" when nobody has points`, () => {
    show(copy({ entries: [], me: null }));
    expect(screen.getByText(LEADERBOARD_EMPTY)).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('lists Rank, User, Points in competition ranking with links to user pages', () => {
    show(
      copy({
        entries: [entry('u1', 'Ada', 5, 1), entry('u2', 'Bob', 3, 2), entry('u3', null, 3, 2), entry('u4', 'Dee', 1, 4)],
        me: null,
      }),
    );
    const headers = screen.getAllByRole('columnheader').map((th) => th.textContent);
    // Persuasion has its "?" (Explain).
    expect(headers).toEqual(['Rank', 'User', 'Points', 'Persuasion?']);
    expect(rows()).toEqual([
      ['1', 'Ada', '5', '0'],
      ['2', 'Bob', '3', '0'],
      ['2', 'Anonymous', '3', '0'],
      ['4', 'Dee', '1', '0'],
    ]);
    expect(screen.getByRole('link', { name: 'Bob' }).getAttribute('href')).toBe('/users/u2');
    expect(document.querySelector('[aria-current]')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('Updated 5 minutes ago');
  });

  it("shows each user's persuasion points (the part of points earned by Δ), 0 when the copy has none", () => {
    show(copy({ entries: [{ ...entry('u1', 'Ada', 15, 1), persuasion_points: 10 }, entry('u2', 'Bob', 3, 2)], me: null }));
    expect(rows()).toEqual([
      ['1', 'Ada', '15', '10'],
      ['2', 'Bob', '3', '0'],
    ]);
    expect(screen.getByRole('columnheader', { name: 'Persuasion' }).querySelector('abbr')?.getAttribute('title')).toBe(
      'Points earned when people credit a response with changing their view (5 per Δ); part of the points.',
    );
  });

  it("marks the signed-in user's row with aria-current and '(you)'", () => {
    show(
      copy({ entries: [entry('u1', 'Ada', 5, 1), entry('uid-ada', 'Me', 3, 2)], me: { uid: 'uid-ada', points: 3, rank: 2 } }),
      'uid-ada',
    );
    const mine = screen.getAllByRole('row').find((row) => row.getAttribute('aria-current') === 'true')!;
    expect(mine.textContent).toBe('2Me (you)30');
    expect(screen.getAllByRole('row').filter((row) => row.hasAttribute('aria-current'))).toHaveLength(1);
  });

  it('shows the own rank below the table when outside the top 100, with its persuasion points', () => {
    show(copy({ entries: [entry('u1', 'Ada', 5, 1)], me: { uid: 'uid-ada', points: 5, rank: 150, persuasion_points: 5 } }), 'uid-ada');
    expect(rows()).toEqual([
      ['1', 'Ada', '5', '0'],
      ['150', 'You', '5', '5'],
    ]);
    cleanup();
    // A copy kept before scores carried persuasion points: unknown, never a made-up 0.
    show(copy({ entries: [entry('u1', 'Ada', 5, 1)], me: { uid: 'uid-ada', points: 4, rank: 150 } }), 'uid-ada');
    expect(rows()).toEqual([
      ['1', 'Ada', '5', '0'],
      ['150', 'You', '4', '—not known'],
    ]);
    const mine = screen.getAllByRole('row').find((row) => row.getAttribute('aria-current') === 'true')!;
    expect(within(mine).getByRole('link').getAttribute('href')).toBe('/users/uid-ada');
  });

  it("never shows another user's kept score as the signed-in user's", () => {
    show(copy({ entries: [entry('u1', 'Ada', 5, 1)], me: { uid: 'someone-else', points: 4, rank: 150 } }), 'uid-ada');
    expect(rows()).toEqual([['1', 'Ada', '5', '0']]);
  });

  // The list holds only users with points; one with none gets no "#n" below it (the
  // header shows "0 pts" alone), and an empty list stays empty.
  it('no own row, and no rank, for a signed-in user with no points', () => {
    show(copy({ entries: [entry('u1', 'Ada', 5, 1)], me: { uid: 'uid-ada', points: 0, rank: 2, persuasion_points: 0 } }), 'uid-ada');
    expect(rows()).toEqual([['1', 'Ada', '5', '0']]);
    expect(screen.getAllByRole('row').filter((row) => row.hasAttribute('aria-current'))).toHaveLength(0);
    cleanup();
    show(copy({ entries: [], me: { uid: 'uid-ada', points: 0, rank: 1, persuasion_points: 0 } }), 'uid-ada');
    expect(screen.getByText(LEADERBOARD_EMPTY)).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('reads the last copy offline with its age', () => {
    show(copy({ entries: [entry('u1', 'Ada', 5, 1)], me: null }, { stale: true }));
    expect(rows()).toEqual([['1', 'Ada', '5', '0']]);
    expect(screen.getByRole('status').textContent).toBe('Last copy on this device. Updated 5 minutes ago');
  });

  it('keeps showing the last copy while a refresh runs or after it failed', () => {
    show(copy({ entries: [entry('u1', 'Ada', 5, 1)], me: null }, { stale: true, error: 'Error loading leaderboard: 503' }));
    expect(rows()).toEqual([['1', 'Ada', '5', '0']]);
    expect(screen.getByRole('alert').textContent).toBe('Error loading leaderboard: 503');
  });
});
