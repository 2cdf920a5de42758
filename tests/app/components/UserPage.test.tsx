// @vitest-environment jsdom
// /users/{uid}: loading, not found (heading and a way home), error, filled, empty lists.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { of, throwError, type Observable } from 'rxjs';
import { Route, Routes } from 'react-router-dom';
import type { RemoteCopy } from '../../../app/src/data/index.js';
import { joinPresent, NO_RANK_YET, UserPage, USER_NOT_FOUND } from '../../../app/src/routes/UserPage';
import type { UserProfile } from '../../../shared/types';
import { fakeData } from '../../fixtures/fake-data';
import { renderWithData } from './with-data';

afterEach(cleanup);

const ada: UserProfile = {
  uid: 'uid-ada',
  display_name: 'Ada',
  points: 17,
  persuasion_points: 10,
  rank: 3,
  role: 'member',
  topics: [{ id: 't1', title: 'Is tea better than coffee?', created_at: new Date().toISOString(), score: 2, responses_count: 1 }],
  responses: [
    {
      id: 'r1',
      topic_id: 't2',
      topic_title: 'Cats or dogs',
      type: 'against',
      content: 'Dogs need walks.',
      created_at: new Date().toISOString(),
      score: 0,
    },
  ],
};

function copy(value: UserProfile | null, overrides: Partial<RemoteCopy<UserProfile>> = {}): RemoteCopy<UserProfile> {
  return {
    value,
    fetchedAt: value ? new Date().toISOString() : null,
    loading: false,
    error: null,
    notFound: false,
    stale: false,
    ...overrides,
  };
}

function show(userProfile$: (uid: string) => Observable<RemoteCopy<UserProfile>>, uid = 'uid-ada') {
  const spy = vi.fn(userProfile$);
  renderWithData(
    <Routes>
      <Route path="/users/:uid" element={<UserPage />} />
    </Routes>,
    fakeData({ userProfile$: spy }),
    `/users/${uid}`,
  );
  return spy;
}

describe('UserPage', () => {
  it('shows "Loading user..." first and asks for the uid of the address', () => {
    const spy = vi.fn(() => of(copy(null, { loading: true })));
    renderWithData(
      <Routes>
        <Route path="/users/:uid" element={<UserPage />} />
      </Routes>,
      fakeData({ userProfile$: spy }),
      '/users/uid-bob',
    );
    expect(spy).toHaveBeenCalledWith('uid-bob');
    expect(screen.getByRole('status').textContent).toBe('Loading user...');
  });

  it('not found: a heading and a link home', () => {
    show(() => of(copy(null, { notFound: true })));
    expect(screen.getByRole('heading', { level: 1, name: USER_NOT_FOUND })).toBeTruthy();
    expect(screen.getByRole('link', { name: /Back to Topics/ }).getAttribute('href')).toBe('/');
  });

  it('an error without a copy', () => {
    show(() => of(copy(null, { error: 'Error loading user: 500', stale: true })));
    expect(screen.getByRole('alert').textContent).toBe('Error loading user: 500');
  });

  it('the data layer failing shows "Error: …"', () => {
    show(() => throwError(() => new Error('No database')));
    expect(screen.getByRole('alert').textContent).toBe('Error: No database');
  });

  it('name, points, persuasion points, rank, topics and responses as links', () => {
    show(() => of(copy(ada)));
    expect(screen.getByRole('heading', { level: 1, name: 'Ada' })).toBeTruthy();
    expect(screen.getByText('Points').nextElementSibling?.textContent).toBe('17');
    // The part earned by Δ credits, explained on hover.
    const persuasion = screen.getByText('Persuasion points');
    expect(persuasion.closest('dt')?.nextElementSibling?.textContent).toBe('10');
    expect(persuasion.getAttribute('title')).toMatch(/credit a response with changing their view/);
    expect(screen.getByText('Rank').nextElementSibling?.textContent).toBe('3');
    expect(screen.getByRole('link', { name: 'Is tea better than coffee?' }).getAttribute('href')).toBe('/topics/t1');
    expect(screen.getByRole('link', { name: 'Dogs need walks.' }).getAttribute('href')).toBe('/topics/t2#response-r1');
    expect(screen.getByText(/Disagrees · on “Cats or dogs”/)).toBeTruthy();
    // Each item's line joins what is there: no separator before the first part or after the last.
    const metas = screen.getAllByTestId('user-item-meta').map((meta) => meta.textContent);
    expect(metas).toHaveLength(2);
    for (const meta of metas) expect(meta).not.toMatch(/^\s*·|·\s*$/);
    expect(metas[1]).toMatch(/^Disagrees · on “Cats or dogs” · /);
  });

  it('joinPresent leaves out what is not there', () => {
    renderWithData(<p data-testid="joined">{joinPresent([null, 'Agrees', '', false, 'on “Tea”', undefined])}</p>);
    expect(screen.getByTestId('joined').textContent).toBe('Agrees · on “Tea”');
  });

  // The leaderboard lists only users with points; one with none has no rank yet.
  it('no rank for a user with no points', () => {
    show(() => of(copy({ ...ada, points: 0, persuasion_points: 0, rank: 7 })));
    expect(screen.getByText('Points').nextElementSibling?.textContent).toBe('0');
    expect(screen.getByText('Rank').nextElementSibling?.textContent).toBe(NO_RANK_YET);
  });

  it('empty lists and the offline copy', () => {
    show(() => of(copy({ ...ada, display_name: null, topics: [], responses: [] }, { stale: true })));
    expect(screen.getByRole('heading', { level: 1, name: 'Anonymous' })).toBeTruthy();
    expect(screen.getByText('No topics yet.')).toBeTruthy();
    expect(screen.getByText('No responses yet.')).toBeTruthy();
    expect(screen.getByText(/Last copy on this device\. Updated/)).toBeTruthy();
  });

  it("shows a response's words without their Markdown marks once the renderer has loaded", async () => {
    const formatted: UserProfile = {
      ...ada,
      responses: [{ ...ada.responses[0]!, content: 'Dogs **need** [walks](https://example.org/walks).' }],
    };
    show(() => of(copy(formatted)));
    const link = await screen.findByRole('link', { name: 'Dogs need walks.' });
    expect(link.getAttribute('href')).toBe('/topics/t2#response-r1');
    expect(link.textContent).not.toMatch(/\*\*|\]\(/);
  });
});
