// @vitest-environment jsdom
// Δ, common ground, the stance bar and persuasion points are explained where a touch
// or keyboard user can read them (not only in `title` tooltips): a labelled "?" button that opens
// and closes the text, with the same words as the tooltips (components/Explain/explanations.ts).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { of } from 'rxjs';
import { Route, Routes } from 'react-router-dom';
import type { SessionState } from '../../../app/src/auth/session';
import type { LeaderboardCopy, RemoteCopy } from '../../../app/src/data/index.js';
import { Explain } from '../../../app/src/components/Explain/Explain';
import {
  COMMON_GROUND_EXPLAINED,
  DELTA_EXPLAINED,
  PERSUASION_EXPLAINED,
  STANCE_BAR_EXPLAINED,
} from '../../../app/src/components/Explain/explanations';
import { LeaderboardPage } from '../../../app/src/routes/LeaderboardPage';
import { UserPage } from '../../../app/src/routes/UserPage';
import type { UserProfile } from '../../../shared/types';
import { fakeData, fakeResponse, fakeTopic } from '../../fixtures/fake-data';
import { renderTopicPage } from './topic-page';
import { renderWithData, SIGNED_OUT } from './with-data';

const session = vi.hoisted(() => ({ current: null as SessionState | null }));
vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: () => session.current }));

beforeEach(() => {
  session.current = SIGNED_OUT;
});
afterEach(cleanup);

/** The "?" named `name`, the text it controls, and whether that text shows. */
function explainer(name: string) {
  const button = screen.getByRole('button', { name });
  const id = button.getAttribute('aria-controls');
  expect(id).toBeTruthy();
  const text = document.getElementById(id!)!;
  expect(text).not.toBeNull();
  return { button, text, open: () => button.getAttribute('aria-expanded') === 'true' && !text.hidden };
}

/** Opens it, checks the words, closes it. */
function opensAndCloses(name: string, words: string, lead = '') {
  const { button, text, open } = explainer(name);
  expect(open()).toBe(false);
  expect(button.getAttribute('aria-expanded')).toBe('false');
  fireEvent.click(button);
  expect(open()).toBe(true);
  expect(text.textContent).toBe(lead + words);
  fireEvent.click(button);
  expect(open()).toBe(false);
}

describe('Explain', () => {
  it('is a labelled button in the tab order that opens and closes its text, by keyboard as by touch', () => {
    render(<Explain question="What is Common ground?" text={COMMON_GROUND_EXPLAINED} />);
    const { button, text, open } = explainer('What is Common ground?');
    // A native button: Enter and Space press it; nothing takes it out of the tab order.
    expect(button.tagName).toBe('BUTTON');
    expect(button.getAttribute('type')).toBe('button');
    expect(button.tabIndex).toBe(0);
    button.focus();
    expect(document.activeElement).toBe(button);
    expect(text.hidden).toBe(true);
    fireEvent.click(button);
    expect(open()).toBe(true);
    expect(text.textContent).toBe(COMMON_GROUND_EXPLAINED);
    // Focus stays on the button, so the same key closes it again.
    expect(document.activeElement).toBe(button);
    fireEvent.click(button);
    expect(open()).toBe(false);
  });

  it('two on one page control their own texts', () => {
    render(
      <>
        <Explain question="What is A?" text="Text A" />
        <Explain question="What is B?" text="Text B" />
      </>,
    );
    const a = explainer('What is A?');
    const b = explainer('What is B?');
    expect(a.text).not.toBe(b.text);
    fireEvent.click(a.button);
    expect(a.open()).toBe(true);
    expect(b.open()).toBe(false);
  });
});

describe('where the ideas beyond a forum are explained', () => {
  it('topic page: the stance bar, Δ and common ground', async () => {
    const topic = fakeTopic({ id: 't1', responses_count: 1, stance_agree: 2, stance_disagree: 1, minds_changed: 1 });
    renderTopicPage(topic, { rootResponses$: () => of([fakeResponse({ topic_id: 't1', content: 'A reason.' })]) });
    await screen.findByText('A reason.');
    opensAndCloses('What is the stance bar?', STANCE_BAR_EXPLAINED);
    opensAndCloses('What is Δ (delta)?', DELTA_EXPLAINED);
    opensAndCloses('What is Common ground?', COMMON_GROUND_EXPLAINED);
    // The tooltip on the order keeps the same words.
    expect(screen.getByRole('button', { name: 'Common ground' }).getAttribute('title')).toContain(COMMON_GROUND_EXPLAINED);
  });

  it('leaderboard: Persuasion, the tooltip and the text with the same words', () => {
    const copy: RemoteCopy<LeaderboardCopy> = {
      value: { entries: [{ uid: 'u1', display_name: 'Ada', points: 12, rank: 1, persuasion_points: 10 }], me: null },
      fetchedAt: new Date().toISOString(),
      loading: false,
      error: null,
      notFound: false,
      stale: false,
    };
    renderWithData(<LeaderboardPage />, fakeData({ leaderboard$: () => of(copy), uid$: of(null) }), '/leaderboard');
    opensAndCloses('What is Persuasion?', PERSUASION_EXPLAINED, 'Persuasion: ');
    expect(screen.getByText('Persuasion').getAttribute('title')).toBe(PERSUASION_EXPLAINED);
  });

  it('user page: Persuasion points', () => {
    const profile: UserProfile = {
      uid: 'uid-ada',
      display_name: 'Ada',
      points: 17,
      persuasion_points: 10,
      rank: 3,
      role: 'member',
      topics: [],
      responses: [],
    };
    const copy: RemoteCopy<UserProfile> = {
      value: profile,
      fetchedAt: new Date().toISOString(),
      loading: false,
      error: null,
      notFound: false,
      stale: false,
    };
    renderWithData(
      <Routes>
        <Route path="/users/:uid" element={<UserPage />} />
      </Routes>,
      fakeData({ userProfile$: () => of(copy) }),
      '/users/uid-ada',
    );
    opensAndCloses('What are persuasion points?', PERSUASION_EXPLAINED, 'Persuasion points: ');
    expect(screen.getByText('Persuasion points').getAttribute('title')).toBe(PERSUASION_EXPLAINED);
  });
});
