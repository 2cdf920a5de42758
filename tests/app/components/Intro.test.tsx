// @vitest-environment jsdom
// A visitor's first screen says what Crux is, links to "How Crux works" on the About
// page, and gets out of the way once dismissed (remembered on the device) or signed in. It is there
// from the first render or not at all (no layout jump).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { of } from 'rxjs';
import type { SessionState } from '../../../app/src/auth/session';
import { HOW_CRUX_WORKS_ID, INTRO_DISMISSED_KEY, INTRO_LINK, INTRO_TEXT, INTRO_TITLE } from '../../../app/src/components/Intro/Intro';
import { AboutPage } from '../../../app/src/routes/AboutPage';
import { TopicListPage } from '../../../app/src/routes/TopicListPage';
import { DataProvider } from '../../../app/src/context/DataProvider';
import { fakeData, fakeTopic } from '../../fixtures/fake-data';
import { renderWithData, SIGNED_IN, SIGNED_OUT } from './with-data';

const held = vi.hoisted(() => ({ session: null as SessionState | null, listeners: new Set<() => void>() }));
vi.mock('../../../app/src/hooks/useSession', async () => {
  const { useSyncExternalStore } = await import('react');
  return {
    useSession: () =>
      useSyncExternalStore(
        (listener) => {
          held.listeners.add(listener);
          return () => held.listeners.delete(listener);
        },
        () => held.session,
      ),
  };
});
const setSession = (session: SessionState) =>
  act(() => {
    held.session = session;
    held.listeners.forEach((listener) => listener());
  });

beforeEach(() => {
  held.session = SIGNED_OUT;
  localStorage.clear();
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      observe() {}
      disconnect() {}
    },
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const topics = [fakeTopic({ title: 'Is tea better than coffee?' })];
const showList = () => renderWithData(<TopicListPage />, fakeData({ topics$: () => of(topics) }));
const intro = () => screen.queryByRole('region', { name: INTRO_TITLE });

describe('Intro on the topic list', () => {
  it('a visitor sees what Crux is, a link to How Crux works and a labelled Dismiss button, above the search box', () => {
    showList();
    const region = intro();
    expect(region).not.toBeNull();
    expect(region!.textContent).toContain(INTRO_TEXT);
    expect(INTRO_TEXT).toMatch(/where you stand before and after/);
    expect(INTRO_TEXT).toMatch(/Δ/);
    expect(INTRO_TEXT).toMatch(/common ground/);
    expect(screen.getByRole('link', { name: INTRO_LINK }).getAttribute('href')).toBe(`/about#${HOW_CRUX_WORKS_ID}`);
    const dismiss = screen.getByRole('button', { name: 'Dismiss the introduction' });
    expect(dismiss.textContent).toBe('Dismiss');
    // Before the list and the search box in the page's order (read first, tabbed to first).
    const searchBox = screen.getByRole('search');
    expect(region!.compareDocumentPosition(searchBox) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Is tea better than coffee?' })).toBeTruthy();
  });

  it('Dismiss hides it and it stays dismissed on the next visit', () => {
    showList();
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss the introduction' }));
    expect(intro()).toBeNull();
    expect(localStorage.getItem(INTRO_DISMISSED_KEY)).not.toBeNull();
    cleanup();
    showList();
    expect(intro()).toBeNull();
    // The list is still there.
    expect(screen.getByRole('link', { name: 'Is tea better than coffee?' })).toBeTruthy();
  });

  it('a signed-in user never sees it', () => {
    held.session = SIGNED_IN;
    showList();
    expect(intro()).toBeNull();
    expect(screen.queryByText(INTRO_TEXT)).toBeNull();
  });

  it('signing in hides it, and it stays away after signing out', () => {
    showList();
    expect(intro()).not.toBeNull();
    setSession(SIGNED_IN);
    expect(intro()).toBeNull();
    setSession(SIGNED_OUT);
    cleanup();
    showList();
    expect(intro()).toBeNull();
  });

  it('is never inserted after the first render: while a session is being restored it stays away', () => {
    held.session = { ready: false, user: null, profilePending: false };
    showList();
    expect(intro()).toBeNull();
    // Firebase restores no one: still nothing pushed in above the list on this visit.
    setSession(SIGNED_OUT);
    expect(intro()).toBeNull();
  });

  it('the link opens the About page at "How Crux works"', () => {
    // jsdom has no scrolling: the test records what would be scrolled to.
    const scrolled: string[] = [];
    HTMLElement.prototype.scrollIntoView = function (this: HTMLElement) {
      scrolled.push(this.id);
    };
    render(
      <MemoryRouter initialEntries={['/']}>
        <DataProvider data={fakeData({ topics$: () => of(topics) })}>
          <Routes>
            <Route path="/" element={<TopicListPage />} />
            <Route path="/about" element={<AboutPage />} />
          </Routes>
        </DataProvider>
      </MemoryRouter>,
    );
    fireEvent.click(screen.getByRole('link', { name: INTRO_LINK }));
    const section = screen.getByRole('heading', { level: 2, name: 'How Crux works' });
    expect(section.id).toBe(HOW_CRUX_WORKS_ID);
    expect(scrolled).toEqual([HOW_CRUX_WORKS_ID]);
    delete (HTMLElement.prototype as Partial<HTMLElement>).scrollIntoView;
  });
});
