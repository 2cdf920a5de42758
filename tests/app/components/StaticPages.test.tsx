// @vitest-environment jsdom
// About, Terms, Privacy (static text in the bundle), the not-found page, and "Topic not found.":
// each has a heading and a way home. Privacy and Terms name the Support link only when SUPPORT_URL is set.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen } from '@testing-library/react';
import { of } from 'rxjs';
import { AboutPage } from '../../../app/src/routes/AboutPage';
import { NotFoundPage } from '../../../app/src/routes/NotFoundPage';
import { PrivacyPage } from '../../../app/src/routes/PrivacyPage';
import { TermsPage } from '../../../app/src/routes/TermsPage';
import { TopicPage } from '../../../app/src/routes/TopicPage';
import { Route, Routes } from 'react-router-dom';
import { fakeData } from '../../fixtures/fake-data';
import { renderWithData } from './with-data';

const held = vi.hoisted(() => ({ config: {} }));
vi.mock('../../../app/src/auth/firebase', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  loadClientConfig: async () => held.config,
}));

beforeEach(() => {
  held.config = {};
});
afterEach(cleanup);

const homeLink = () => screen.getByRole('link', { name: /Back to Topics/ });

describe('static pages', () => {
  it('About says what Crux is for', () => {
    renderWithData(<AboutPage />, fakeData(), '/about');
    expect(screen.getByRole('heading', { level: 1, name: 'About Crux' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'What it is for' })).toBeTruthy();
    expect(document.body.textContent).toContain('get to the heart of a disagreement');
    expect(homeLink().getAttribute('href')).toBe('/');
  });

  it('Terms: people under 16 are not intended users; last updated July 19, 2025', () => {
    renderWithData(<TermsPage />, fakeData(), '/terms');
    expect(screen.getByRole('heading', { level: 1, name: 'Terms and Conditions' })).toBeTruthy();
    expect(screen.getByText('Last updated: July 19, 2025')).toBeTruthy();
    expect(document.body.textContent).toContain('people under 16 are not intended users');
    expect(homeLink().getAttribute('href')).toBe('/');
  });

  it('Privacy: requests are answered within one month; last updated July 19, 2025', () => {
    renderWithData(<PrivacyPage />, fakeData(), '/privacy');
    expect(screen.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeTruthy();
    expect(screen.getByText('Last updated: July 19, 2025')).toBeTruthy();
    expect(document.body.textContent).toContain('Requests are answered within one month.');
    expect(homeLink().getAttribute('href')).toBe('/');
  });

  it('Privacy and Terms send requests through Support when SUPPORT_URL is set, opening in a new tab safely', async () => {
    held.config = { supportUrl: 'mailto:help@crux.example' };
    for (const [Page, sentence] of [
      [PrivacyPage, 'Send them to us through Support (opens in a new tab).'],
      [TermsPage, 'Questions about these terms: ask us through Support (opens in a new tab).'],
    ] as const) {
      renderWithData(<Page />);
      const support = await screen.findByRole('link', { name: 'Support (opens in a new tab)' });
      expect(support.getAttribute('href')).toBe('mailto:help@crux.example');
      expect(support.getAttribute('target')).toBe('_blank');
      expect(support.getAttribute('rel')).toBe('noopener noreferrer');
      expect(document.body.textContent).toContain(sentence);
      cleanup();
    }
  });

  it('Privacy and Terms point to no Support link when SUPPORT_URL is unset', async () => {
    for (const Page of [PrivacyPage, TermsPage]) {
      renderWithData(<Page />);
      await act(async () => {});
      expect(screen.queryByRole('link', { name: /Support/ })).toBeNull();
      expect(document.body.textContent).not.toMatch(/support/i);
      cleanup();
    }
    renderWithData(<PrivacyPage />);
    await act(async () => {});
    // The rest of the paragraph reads on.
    expect(document.body.textContent).toContain('Requests are answered within one month. People under 16 are not intended users of Crux');
  });
});

describe('not found', () => {
  it('an unknown route has a heading and a way home', () => {
    renderWithData(<NotFoundPage />, fakeData(), '/no/such/page');
    expect(screen.getByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
    expect(homeLink().getAttribute('href')).toBe('/');
    expect(document.body.textContent).not.toContain('coming soon');
  });

  it('"Topic not found." is a heading with a link to the topic list', () => {
    renderWithData(
      <Routes>
        <Route path="/topics/:topicId" element={<TopicPage />} />
      </Routes>,
      fakeData({ topic$: () => of(null), rootResponses$: () => of([]), topicResponses$: () => of([]) }),
      '/topics/missing',
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Topic not found.' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the topic list' }).getAttribute('href')).toBe('/');
  });
});
