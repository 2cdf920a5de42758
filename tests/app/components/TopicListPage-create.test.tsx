// @vitest-environment jsdom
// "Create" signed out says the SPEC text, offers the sign-in, and creates the topic
// once the visitor has signed in (as the composer does with a reply); closing the sign-in
// creates nothing later. Title and category stay in the box meanwhile. A suspended account reads why
// once (the app's banner) and is offered neither Create nor the rows' votes.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import type { SessionState } from '../../../app/src/auth/session';
import { of } from 'rxjs';
import type { CruxData, NewTopicInput } from '../../../app/src/data/index.js';
import { SuspensionBanner } from '../../../app/src/components/SuspensionBanner/SuspensionBanner';
import { suspendedMessage } from '../../../shared/messages';
import { DataProvider } from '../../../app/src/context/DataProvider';
import { TopicListPage } from '../../../app/src/routes/TopicListPage';
import { fakeData, fakeTopic } from '../../fixtures/fake-data';
import { SIGNED_IN, SIGNED_OUT } from './with-data';

const session = vi.hoisted(() => ({ current: null as SessionState | null }));
vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: () => session.current }));
vi.mock('../../../app/src/auth/session', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  getSession: () => session.current,
}));

beforeEach(() => {
  session.current = SIGNED_OUT;
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

/** The list page and a stand-in topic page; `rerender()` re-reads the mocked session. */
function renderPage(data: CruxData) {
  const tree = () => (
    <MemoryRouter initialEntries={['/']}>
      <DataProvider data={data}>
        <SuspensionBanner />
        <Routes>
          <Route path="/" element={<TopicListPage />} />
          <Route path="/topics/:id" element={<p>Topic page</p>} />
        </Routes>
      </DataProvider>
    </MemoryRouter>
  );
  const result = render(tree());
  return { rerender: () => result.rerender(tree()) };
}

function typeTopic(title: string, category: string) {
  fireEvent.change(screen.getByLabelText('Search or create a topic'), { target: { value: title } });
  fireEvent.change(screen.getByLabelText('Category for a new topic'), { target: { value: category } });
}

describe('Create signed out', () => {
  it('says the SPEC text, offers the sign-in, and creates the topic exactly once after signing in', async () => {
    const createTopic = vi.fn(async ({ title, category }: NewTopicInput) => fakeTopic({ id: 'new-topic', title, categories: [category] }));
    const view = renderPage(fakeData({ createTopic }));
    typeTopic('Is tea better than coffee?', 'Culture');
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByRole('alert').textContent).toBe('You must be logged in to create a topic.');
    expect(screen.getByRole('dialog', { name: 'Sign in to Crux' })).toBeTruthy();
    expect(createTopic).not.toHaveBeenCalled();

    session.current = SIGNED_IN;
    view.rerender();
    expect(screen.queryByRole('dialog')).toBeNull();
    await screen.findByText('Topic page');
    expect(createTopic).toHaveBeenCalledExactlyOnceWith({ title: 'Is tea better than coffee?', category: 'Culture' });
    view.rerender();
    await act(() => new Promise((r) => setTimeout(r, 20)));
    expect(createTopic).toHaveBeenCalledOnce();
  });

  it('also from the "Create topic … (login required)" entry of the search results', async () => {
    const createTopic = vi.fn(async () => fakeTopic({ id: 'new-topic' }));
    const view = renderPage(fakeData({ createTopic }));
    typeTopic('Is tea better than coffee?', 'Culture');
    fireEvent.click(await screen.findByRole('button', { name: 'Create topic "Is tea better than coffee?" (login required)' }));
    screen.getByRole('dialog', { name: 'Sign in to Crux' });
    session.current = SIGNED_IN;
    view.rerender();
    await waitFor(() => expect(createTopic).toHaveBeenCalledOnce());
  });

  it('creates nothing later when the visitor closes the sign-in instead; the title stays', async () => {
    const createTopic = vi.fn(async () => fakeTopic());
    const view = renderPage(fakeData({ createTopic }));
    typeTopic('Maybe later?', 'Culture');
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    session.current = SIGNED_IN;
    view.rerender();
    await act(() => new Promise((r) => setTimeout(r, 20)));
    expect(createTopic).not.toHaveBeenCalled();
    expect(screen.getByLabelText<HTMLInputElement>('Search or create a topic').value).toBe('Maybe later?');
  });

  it('an empty title asks for one and offers no sign-in', () => {
    renderPage(fakeData());
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('alert').textContent).toBe('Topic title cannot be empty.');
  });
});

describe('Suspended', () => {
  it('the banner alone says why; Create and the rows’ votes cannot be pressed, and pressing Enter creates nothing', async () => {
    session.current = SIGNED_IN;
    const until = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const createTopic = vi.fn(async () => fakeTopic());
    const topic = fakeTopic({ title: 'Is tea better?' });
    renderPage(
      fakeData({
        createTopic,
        topics$: () => of([topic]),
        myAccount$: () => of({ uid: 'uid-ada', role: 'member', suspended_until: until, suspension_reason: 'Insults' }),
      }),
    );
    expect(await screen.findByRole('button', { name: 'Upvote topic: Is tea better?' })).toHaveProperty('disabled', true);
    expect(screen.getAllByText(suspendedMessage(until, 'Insults'))).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Create' })).toHaveProperty('disabled', true);
    typeTopic('Is coffee better?', 'Food');
    fireEvent.submit(screen.getByLabelText('Search or create a topic').closest('form')!);
    expect(createTopic).not.toHaveBeenCalled();
  });
});
