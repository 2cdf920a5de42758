// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { cloneElement, useState, type ReactElement } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { BehaviorSubject, of } from 'rxjs';
import type { ResponseType } from '../../../shared/constants';
import type { SessionState } from '../../../app/src/auth/session';
import { Composer, DRAFT_SAVED, SIGN_IN_NOTE } from '../../../app/src/components/Composer/Composer';
import type { CruxData, Draft } from '../../../app/src/data/index.js';
import { DataProvider } from '../../../app/src/context/DataProvider';
import { fakeData, fakeResponse } from '../../fixtures/fake-data';
import { renderWithData, SIGNED_IN, SIGNED_OUT } from './with-data';

const session = vi.hoisted(() => {
  const held: { current: SessionState | null } = { current: null };
  return held;
});
vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: () => session.current }));
vi.mock('../../../app/src/auth/session', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  getSession: () => session.current,
}));

beforeEach(() => {
  session.current = SIGNED_OUT;
});
afterEach(cleanup);

function Harness({
  replyingTo,
  parentId = null,
  initialType = 'for',
  compact = false,
}: {
  replyingTo: string;
  parentId?: string | null;
  initialType?: ResponseType;
  compact?: boolean;
}) {
  const [type, setType] = useState<ResponseType>(initialType);
  return <Composer topicId="t1" parentId={parentId} replyingTo={replyingTo} type={type} onType={setType} compact={compact} />;
}

describe('Composer', () => {
  it('refuses blank content with the SPEC text before anything is sent', () => {
    const createResponse = vi.fn();
    renderWithData(<Harness replyingTo="Is tea better than coffee?" />, fakeData({ createResponse }));
    fireEvent.change(screen.getByLabelText('Your response'), { target: { value: '   \n  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Post response' }));
    expect(screen.getByRole('alert').textContent).toBe('Content cannot be empty.');
    expect(createResponse).not.toHaveBeenCalled();
  });

  it('asks a signed-out visitor to log in instead of posting', () => {
    const createResponse = vi.fn();
    renderWithData(<Harness replyingTo="Tea?" />, fakeData({ createResponse }));
    fireEvent.change(screen.getByLabelText('Your response'), { target: { value: 'Tea wins.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Post response' }));
    expect(screen.getByRole('alert').textContent).toBe('You must be logged in to post a response.');
    expect(createResponse).not.toHaveBeenCalled();
  });

  it('takes its type from Agree / Disagree / Discuss and says so in the placeholder', () => {
    renderWithData(<Harness replyingTo="Is tea better than coffee?" />);
    const box = screen.getByLabelText('Your response');
    expect(box.getAttribute('placeholder')).toBe('Agree with "Is tea better than coffee?"');
    fireEvent.click(screen.getByRole('button', { name: /Disagree/ }));
    expect(box.getAttribute('placeholder')).toBe('Disagree with "Is tea better than coffee?"');
    expect(screen.getByRole('button', { name: /Disagree/ }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: /Discuss/ }));
    expect(box.getAttribute('placeholder')).toBe('Discuss "Is tea better than coffee?"');
  });

  it('truncates the placeholder text at 100 characters', () => {
    const long = 'x'.repeat(99) + 'yz and more words';
    renderWithData(<Harness replyingTo={long} />);
    expect(screen.getByLabelText('Your response').getAttribute('placeholder')).toBe(`Agree with "${'x'.repeat(99)}y…"`);
  });

  it('opens the quote and sources panels', () => {
    renderWithData(<Harness replyingTo="Tea?" />);
    fireEvent.click(screen.getByRole('button', { name: 'Quote a response' }));
    expect(screen.getByLabelText('Search a response to quote')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Sources' }));
    expect(screen.queryByLabelText('Search a response to quote')).toBeNull();
    expect(screen.getByLabelText('Source URL')).toBeTruthy();
  });

  it('the quote search offers matches, and says politely when nothing matches', async () => {
    const responses = [
      fakeResponse({ id: 'r1', content: 'Coffee keeps me awake.' }),
      fakeResponse({ id: 'r2', content: 'Tea is calmer.' }),
    ];
    renderWithData(<Harness replyingTo="Tea?" />, fakeData({ topicResponses$: () => of(responses) }));
    fireEvent.click(screen.getByRole('button', { name: 'Quote a response' }));
    const search = screen.getByLabelText('Search a response to quote');
    const note = screen.getByTestId('quote-no-match');
    // One live region, mounted before anything is said in it, so the message is announced.
    expect(note.getAttribute('aria-live')).toBe('polite');
    expect(note.textContent).toBe('');

    fireEvent.change(search, { target: { value: 'coffee' } });
    const suggestions = await screen.findByRole('list', { name: 'Quote suggestions' });
    expect(suggestions.textContent).toBe('Coffee keeps me awake.');
    expect(note.textContent).toBe('');

    fireEvent.change(search, { target: { value: '  chocolate ' } });
    await waitFor(() => expect(note.textContent).toBe('No response matches “chocolate”.'));
    expect(screen.queryByRole('list', { name: 'Quote suggestions' })).toBeNull();
    expect(screen.getByTestId('quote-no-match')).toBe(note);

    // Too short to search: nothing is said.
    fireEvent.change(search, { target: { value: 'ch' } });
    await waitFor(() => expect(note.textContent).toBe(''));
  });

  it('posts a reply through the data layer, then empties the form and forgets the draft', async () => {
    session.current = SIGNED_IN;
    const createResponse = vi.fn(async () => fakeResponse({ content: 'Tea wins.', isPending: true }));
    const deleteDraft = vi.fn(async () => {});
    renderWithData(
      <Harness replyingTo="Coffee is better." parentId="r1" initialType="against" />,
      fakeData({ createResponse, deleteDraft, uid$: of('uid-ada') }),
    );
    const box = screen.getByLabelText<HTMLTextAreaElement>('Your response');
    fireEvent.change(box, { target: { value: 'Tea wins.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Post response' }));
    await waitFor(() => expect(box.value).toBe(''));
    expect(createResponse).toHaveBeenCalledExactlyOnceWith({
      topicId: 't1',
      parentResponseId: 'r1',
      type: 'against',
      content: 'Tea wins.',
      quotedResponseId: null,
      sources: [],
    });
    expect(deleteDraft).toHaveBeenCalledWith('reply:r1');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('keeps the text and shows the reason when the data layer refuses the write', async () => {
    session.current = SIGNED_IN;
    const createResponse = vi.fn(async () => Promise.reject(new Error('That topic no longer exists.')));
    renderWithData(<Harness replyingTo="Tea?" />, fakeData({ createResponse }));
    const box = screen.getByLabelText<HTMLTextAreaElement>('Your response');
    fireEvent.change(box, { target: { value: 'Tea wins.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Post response' }));
    expect((await screen.findByRole('alert')).textContent).toBe('That topic no longer exists.');
    expect(box.value).toBe('Tea wins.');
  });

  it("restores the signed-in user's draft for this form", async () => {
    session.current = SIGNED_IN;
    const loadDraft = vi.fn(async (key: string) => ({ key, text: 'Half a thought', extra: {}, updated_at: '2026-01-01T12:00:00.000Z' }));
    renderWithData(<Harness replyingTo="Tea?" />, fakeData({ loadDraft, uid$: of('uid-ada') }));
    await waitFor(() => expect(screen.getByLabelText<HTMLTextAreaElement>('Your response').value).toBe('Half a thought'));
    expect(loadDraft).toHaveBeenCalledWith('topic:t1');
  });

  it('saves an edit through the data layer with the kept quote and sources', async () => {
    session.current = SIGNED_IN;
    const editResponse = vi.fn(async () => {});
    const onDone = vi.fn();
    const edit = {
      responseId: 'r2',
      content: 'Old text',
      quote: { id: 'r1', content: 'Coffee is better.', username: 'Bo' },
      sources: [{ url: 'https://a.example', name: 'A', description: null }],
    };
    renderWithData(
      <Composer topicId="t1" parentId={null} replyingTo="Tea?" type="for" onType={() => {}} edit={edit} onDone={onDone} />,
      fakeData({ editResponse }),
    );
    fireEvent.change(screen.getByLabelText('Response content'), { target: { value: 'New text' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onDone).toHaveBeenCalledOnce());
    expect(editResponse).toHaveBeenCalledExactlyOnceWith('r2', {
      content: 'New text',
      quotedResponseId: 'r1',
      sources: edit.sources,
      editedFrom: { content: 'Old text', quotedResponseId: 'r1', sources: edit.sources },
    });
  });

  it('sends the edit as made on the text the editor opened with, not on a newer one a pull brought meanwhile', async () => {
    session.current = SIGNED_IN;
    const editResponse = vi.fn(async () => {});
    const data = fakeData({ editResponse });
    const opened = { responseId: 'r2', content: 'Old text', quote: null, sources: [] };
    const composer = (edit: typeof opened) => (
      <MemoryRouter>
        <DataProvider data={data}>
          <Composer topicId="t1" parentId={null} replyingTo="Tea?" type="for" onType={() => {}} edit={edit} />
        </DataProvider>
      </MemoryRouter>
    );
    const { rerender } = render(composer(opened));
    fireEvent.change(screen.getByLabelText('Response content'), { target: { value: 'My text' } });
    // Another device's edit pulled while the editor is open: the response item passes the new text.
    rerender(composer({ ...opened, content: 'Text from the phone' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(editResponse).toHaveBeenCalledOnce());
    expect(editResponse).toHaveBeenCalledWith(
      'r2',
      expect.objectContaining({ content: 'My text', editedFrom: expect.objectContaining({ content: 'Old text' }) }),
    );
  });
});

const BOB: SessionState = { ready: true, user: { uid: 'uid-bob', email: 'bob@example.org', displayName: 'Bob' }, profilePending: false };
const draftOf = (key: string, text: string): Draft => ({ key, text, extra: {}, updated_at: '2026-01-01T12:00:00.000Z' });

/** Renders with a data layer whose open user database follows `uid$`; `rerender()` re-reads the mocked session. */
function renderLive(ui: ReactElement, data: CruxData) {
  const tree = () => (
    <MemoryRouter>
      <DataProvider data={data}>{cloneElement(ui)}</DataProvider>
    </MemoryRouter>
  );
  const result = render(tree());
  return { ...result, rerender: () => result.rerender(tree()) };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('Composer drafts', () => {
  it("restores the draft once the user's database is open, never writing the empty box first", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      session.current = SIGNED_IN; // Firebase knows the user at once on a reload...
      const uid$ = new BehaviorSubject<string | null>(null); // ...the database opens later.
      const loadDraft = vi.fn(async (key: string) => (uid$.value ? draftOf(key, 'Kept across the reload') : null));
      const saveDraft = vi.fn(async () => {});
      const deleteDraft = vi.fn(async () => {});
      renderLive(<Harness replyingTo="Tea?" />, fakeData({ uid$, loadDraft, saveDraft, deleteDraft }));
      await act(() => vi.advanceTimersByTimeAsync(1_000));
      expect(loadDraft).not.toHaveBeenCalled();
      act(() => uid$.next('uid-ada'));
      const box = screen.getByLabelText<HTMLTextAreaElement>('Your response');
      await waitFor(() => expect(box.value).toBe('Kept across the reload'));
      await act(() => vi.advanceTimersByTimeAsync(1_000));
      expect(deleteDraft).not.toHaveBeenCalled();
      expect(saveDraft).not.toHaveBeenCalled();

      fireEvent.change(box, { target: { value: 'Kept across the reload, and more' } });
      await act(() => vi.advanceTimersByTimeAsync(1_000));
      expect(saveDraft).toHaveBeenCalledExactlyOnceWith('topic:t1', 'Kept across the reload, and more');
    } finally {
      vi.useRealTimers();
    }
  });

  it('saves what was typed while the database was still opening once the restore has run', async () => {
    session.current = SIGNED_IN;
    const uid$ = new BehaviorSubject<string | null>(null);
    const saveDraft = vi.fn(async () => {});
    renderLive(<Harness replyingTo="Tea?" />, fakeData({ uid$, saveDraft }));
    fireEvent.change(screen.getByLabelText('Your response'), { target: { value: 'Quick, before it opens' } });
    act(() => uid$.next('uid-ada'));
    await waitFor(() => expect(saveDraft).toHaveBeenCalledWith('topic:t1', 'Quick, before it opens'), { timeout: 5_000 });
  });

  it("keeps text typed before the session was known as the user's draft once their database has opened", async () => {
    // A reload on a slow phone: the page is there before Firebase has restored the user, and
    // the box already holds what they typed when the session arrives.
    const uid$ = new BehaviorSubject<string | null>(null);
    const stored = new Map<string, Draft>();
    const saveDraft = vi.fn(async (key: string, text: string) => void stored.set(key, draftOf(key, text)));
    const view = renderLive(<Harness replyingTo="Tea?" />, fakeData({ uid$, saveDraft, loadDraft: async () => null }));
    fireEvent.change(screen.getByLabelText('Your response'), { target: { value: 'Typed while the page was starting' } });
    session.current = SIGNED_IN;
    view.rerender();
    act(() => uid$.next('uid-ada'));
    await waitFor(() => expect(stored.get('topic:t1')?.text).toBe('Typed while the page was starting'), { timeout: 5_000 });
    expect(screen.getByLabelText<HTMLTextAreaElement>('Your response').value).toBe('Typed while the page was starting');
    await waitFor(() => expect(screen.getByTestId('draft-status').textContent).toBe(DRAFT_SAVED));
    // Typing on: no longer what is stored, until the next save.
    fireEvent.change(screen.getByLabelText('Your response'), { target: { value: 'Typed while the page was starting, and more' } });
    expect(screen.getByTestId('draft-status').textContent).toBe('');
    await waitFor(() => expect(screen.getByTestId('draft-status').textContent).toBe(DRAFT_SAVED), { timeout: 5_000 });
    expect(stored.get('topic:t1')?.text).toBe('Typed while the page was starting, and more');
  });

  it("saves a visitor's text as the draft of whoever signs in, also when that user's draft was restored before", async () => {
    session.current = SIGNED_IN;
    const uid$ = new BehaviorSubject<string | null>('uid-ada');
    const stored = new Map<string, Draft>();
    const loadDraft = vi.fn(async (key: string) => stored.get(key) ?? null);
    const saveDraft = vi.fn(async (key: string, text: string) => void stored.set(key, draftOf(key, text)));
    const view = renderLive(<Harness replyingTo="Tea?" />, fakeData({ uid$, loadDraft, saveDraft }));
    await waitFor(() => expect(loadDraft).toHaveBeenCalled());
    act(() => uid$.next(null));
    session.current = SIGNED_OUT;
    view.rerender();
    fireEvent.change(screen.getByLabelText('Your response'), { target: { value: 'Written signed out' } });
    session.current = SIGNED_IN;
    view.rerender();
    act(() => uid$.next('uid-ada'));
    await waitFor(() => expect(stored.get('topic:t1')?.text).toBe('Written signed out'), { timeout: 5_000 });
  });

  it('saves text typed in the same render that brings the restore in (a slow machine)', async () => {
    session.current = SIGNED_IN;
    const uid$ = new BehaviorSubject<string | null>('uid-ada');
    const restored = deferred<Draft | null>();
    const loadDraft = vi.fn(() => restored.promise);
    const saveDraft = vi.fn(async () => {});
    renderLive(<Harness replyingTo="Tea?" />, fakeData({ uid$, loadDraft, saveDraft }));
    await waitFor(() => expect(loadDraft).toHaveBeenCalled());
    // The restore lands and schedules its render; before React runs it, the user types, so one
    // render brings both the restore and the typed text.
    restored.resolve(null);
    for (let hop = 0; hop < 5; hop += 1) await new Promise<void>((resolve) => queueMicrotask(resolve));
    fireEvent.change(screen.getByLabelText('Your response'), { target: { value: 'Typed as the restore landed' } });
    await waitFor(() => expect(saveDraft).toHaveBeenCalledWith('topic:t1', 'Typed as the restore landed'));
  });

  it('stores what is typed when the page is left before the pause ends', async () => {
    session.current = SIGNED_IN;
    const uid$ = new BehaviorSubject<string | null>('uid-ada');
    const saveDraft = vi.fn(async () => {});
    const loadDraft = vi.fn(async () => null);
    renderLive(<Harness replyingTo="Tea?" />, fakeData({ uid$, saveDraft, loadDraft }));
    await waitFor(() => expect(loadDraft).toHaveBeenCalled());
    await act(() => new Promise((r) => setTimeout(r, 0)));
    fireEvent.change(screen.getByLabelText('Your response'), { target: { value: 'Closing the tab now' } });
    act(() => void window.dispatchEvent(new Event('pagehide')));
    expect(saveDraft).toHaveBeenCalledWith('topic:t1', 'Closing the tab now');
  });

  it('empties the box on sign-out without deleting the draft, and shows the next user only their own draft', async () => {
    session.current = SIGNED_IN;
    const uid$ = new BehaviorSubject<string | null>('uid-ada');
    const stored = new Map<string, Draft>([['uid-bob topic:t1', draftOf('topic:t1', "Bob's own draft")]]);
    const loadDraft = vi.fn(async (key: string) => stored.get(`${uid$.value} ${key}`) ?? null);
    const saveDraft = vi.fn(async (key: string, text: string) => void stored.set(`${uid$.value} ${key}`, draftOf(key, text)));
    const deleteDraft = vi.fn(async (key: string) => void stored.delete(`${uid$.value} ${key}`));
    const view = renderLive(<Harness replyingTo="Tea?" />, fakeData({ uid$, loadDraft, saveDraft, deleteDraft }));
    const box = screen.getByLabelText<HTMLTextAreaElement>('Your response');
    await waitFor(() => expect(loadDraft).toHaveBeenCalled());
    fireEvent.change(box, { target: { value: "Ada's private reply" } });
    await waitFor(() => expect(stored.get('uid-ada topic:t1')?.text).toBe("Ada's private reply"), { timeout: 5_000 });

    // Logout: the data layer closes Ada's database, then the session says signed out.
    act(() => uid$.next(null));
    session.current = SIGNED_OUT;
    view.rerender();
    expect(box.value).toBe('');
    expect(screen.getByText(SIGN_IN_NOTE)).toBeTruthy();

    session.current = BOB;
    view.rerender();
    act(() => uid$.next('uid-bob'));
    await waitFor(() => expect(box.value).toBe("Bob's own draft"));

    act(() => uid$.next(null));
    session.current = SIGNED_OUT;
    view.rerender();
    session.current = SIGNED_IN;
    view.rerender();
    act(() => uid$.next('uid-ada'));
    await waitFor(() => expect(box.value).toBe("Ada's private reply"));
    expect(deleteDraft).not.toHaveBeenCalled();
    expect(stored.get('uid-bob topic:t1')?.text).toBe("Bob's own draft");
  });
});

describe('Composer posting', () => {
  it('empties the box at once on submit and keeps whatever is typed while the post lands', async () => {
    session.current = SIGNED_IN;
    const landing = deferred<ReturnType<typeof fakeResponse>>();
    const createResponse = vi.fn(() => landing.promise);
    renderLive(<Harness replyingTo="Tea?" />, fakeData({ createResponse, uid$: of('uid-ada') }));
    const box = screen.getByLabelText<HTMLTextAreaElement>('Your response');
    fireEvent.change(box, { target: { value: 'First point.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Post response' }));
    expect(box.value).toBe('');
    fireEvent.change(box, { target: { value: 'Second point, typed at once.' } });
    await act(async () => landing.resolve(fakeResponse({ content: 'First point.' })));
    expect(box.value).toBe('Second point, typed at once.');
    expect(createResponse).toHaveBeenCalledExactlyOnceWith(expect.objectContaining({ content: 'First point.' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('gives the refused reply back, before what was typed since, with the reason', async () => {
    session.current = SIGNED_IN;
    const landing = deferred<ReturnType<typeof fakeResponse>>();
    renderLive(<Harness replyingTo="Tea?" />, fakeData({ createResponse: () => landing.promise, uid$: of('uid-ada') }));
    const box = screen.getByLabelText<HTMLTextAreaElement>('Your response');
    fireEvent.change(box, { target: { value: 'First point.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Post response' }));
    fireEvent.change(box, { target: { value: 'Second point.' } });
    await act(async () => landing.reject(new Error('That topic no longer exists.')));
    expect(box.value).toBe('First point.\n\nSecond point.');
    expect(screen.getByRole('alert').textContent).toBe('That topic no longer exists.');
  });
});

describe('Composer for a signed-out visitor', () => {
  it('says before any typing that posting needs a sign-in, with a button for it', () => {
    renderWithData(<Harness replyingTo="Tea?" />);
    const note = screen.getByText(SIGN_IN_NOTE);
    expect(screen.getByLabelText('Your response').getAttribute('aria-describedby')).toBe(note.id);
    fireEvent.click(screen.getByRole('button', { name: 'Sign in to post' }));
    expect(screen.getByRole('dialog', { name: 'Sign in to Crux' })).toBeTruthy();
  });

  it('opens the sign-in on Post, keeps the text, and posts it exactly once after signing in', async () => {
    const uid$ = new BehaviorSubject<string | null>(null);
    const createResponse = vi.fn(async () => fakeResponse({ content: 'Tea wins.', isPending: true }));
    const deleteDraft = vi.fn(async () => {});
    const view = renderLive(<Harness replyingTo="Tea?" />, fakeData({ uid$, createResponse, deleteDraft }));
    const box = screen.getByLabelText<HTMLTextAreaElement>('Your response');
    fireEvent.change(box, { target: { value: 'Tea wins.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Post response' }));
    expect(screen.getByRole('dialog', { name: 'Sign in to Crux' })).toBeTruthy();
    expect(box.value).toBe('Tea wins.');
    expect(createResponse).not.toHaveBeenCalled();

    // The sign-in lands: Firebase first, then the user's database opens.
    session.current = SIGNED_IN;
    view.rerender();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(createResponse).not.toHaveBeenCalled();
    act(() => uid$.next('uid-ada'));
    await waitFor(() => expect(createResponse).toHaveBeenCalledOnce());
    expect(createResponse).toHaveBeenCalledWith(expect.objectContaining({ topicId: 't1', content: 'Tea wins.' }));
    await waitFor(() => expect(box.value).toBe(''));
    expect(screen.queryByRole('alert')).toBeNull();
    view.rerender();
    act(() => uid$.next('uid-ada'));
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(createResponse).toHaveBeenCalledOnce();
  });

  it('sends nothing later when the visitor closes the sign-in instead', async () => {
    const uid$ = new BehaviorSubject<string | null>(null);
    const createResponse = vi.fn(async () => fakeResponse());
    const view = renderLive(<Harness replyingTo="Tea?" />, fakeData({ uid$, createResponse }));
    const box = screen.getByLabelText<HTMLTextAreaElement>('Your response');
    fireEvent.change(box, { target: { value: 'Maybe later.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Post response' }));
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    session.current = SIGNED_IN;
    view.rerender();
    act(() => uid$.next('uid-ada'));
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(createResponse).not.toHaveBeenCalled();
    expect(box.value).toBe('Maybe later.');
  });
});

describe('Composer offering a draft kept under another account', () => {
  // Typed as an account the identity provider has since forgotten (a restarted Auth emulator).
  const LOST = { owner: 'uid-forgotten', key: 'topic:t1', text: 'Typed before the restart', updated_at: '2026-01-01T12:00:00.000Z' };
  /** A data layer whose device keeps LOST until it is adopted or discarded. */
  function deviceWithLost(uid$: BehaviorSubject<string | null>, overrides: Partial<CruxData> = {}) {
    const kept = new Set([LOST.owner]);
    const adoptDraft = vi.fn(async (owner: string) => void kept.delete(owner));
    const discardDraft = vi.fn(async (owner: string) => void kept.delete(owner));
    const unsentDrafts = vi.fn(async (key: string) => (key === LOST.key && kept.has(LOST.owner) ? [LOST] : []));
    const data = fakeData({ uid$, unsentDrafts, adoptDraft, discardDraft, ...overrides });
    return { data, adoptDraft, discardDraft };
  }
  const offer = () => screen.findByRole('group', { name: 'Unsent draft' });

  it('offers it with its time; Restore puts it in the box, makes it this user’s, and posting deletes it', async () => {
    session.current = SIGNED_IN;
    const uid$ = new BehaviorSubject<string | null>('uid-ada');
    const deleteDraft = vi.fn(async () => {});
    const createResponse = vi.fn(async () => fakeResponse({ content: LOST.text, isPending: true }));
    const { data, adoptDraft } = deviceWithLost(uid$, { deleteDraft, createResponse });
    renderLive(<Harness replyingTo="Tea?" />, data);
    const group = await offer();
    expect(group.textContent).toMatch(/^You have an unsent draft from .+\.RestoreDiscard$/);
    expect(group.querySelector('time')?.getAttribute('datetime')).toBe(LOST.updated_at);

    fireEvent.click(screen.getByRole('button', { name: 'Restore' }));
    const box = screen.getByLabelText<HTMLTextAreaElement>('Your response');
    expect(box.value).toBe(LOST.text);
    expect(screen.queryByRole('group', { name: 'Unsent draft' })).toBeNull();
    expect(adoptDraft).toHaveBeenCalledExactlyOnceWith(LOST.owner, LOST.key, LOST.text);

    fireEvent.click(screen.getByRole('button', { name: 'Post response' }));
    await waitFor(() => expect(createResponse).toHaveBeenCalledWith(expect.objectContaining({ content: LOST.text })));
    await waitFor(() => expect(deleteDraft).toHaveBeenCalledWith(LOST.key));
  });

  it('puts a restored draft under what is already typed, never in its place', async () => {
    session.current = SIGNED_IN;
    const uid$ = new BehaviorSubject<string | null>('uid-ada');
    const { data, adoptDraft } = deviceWithLost(uid$, { loadDraft: async (key) => draftOf(key, 'My own start') });
    renderLive(<Harness replyingTo="Tea?" />, data);
    const box = screen.getByLabelText<HTMLTextAreaElement>('Your response');
    await waitFor(() => expect(box.value).toBe('My own start'));
    await offer();
    fireEvent.click(screen.getByRole('button', { name: 'Restore' }));
    expect(box.value).toBe(`My own start\n\n${LOST.text}`);
    expect(adoptDraft).toHaveBeenCalledWith(LOST.owner, LOST.key, `My own start\n\n${LOST.text}`);
  });

  it('opens the one-line form of a topic page to show the offer, which it would otherwise hide until used', async () => {
    session.current = SIGNED_IN;
    const uid$ = new BehaviorSubject<string | null>('uid-ada');
    const { data } = deviceWithLost(uid$);
    renderLive(<Harness replyingTo="Tea?" compact />, data);
    const form = screen.getByRole('form', { name: 'Add a response' });
    expect(form.className).toContain('composer-compact');
    await offer();
    expect(form.className).not.toContain('composer-compact');
    fireEvent.click(screen.getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(screen.queryByRole('group', { name: 'Unsent draft' })).toBeNull());
    expect(form.className).toContain('composer-compact');
  });

  it('Discard deletes it from the device and leaves the box as it was', async () => {
    session.current = SIGNED_IN;
    const uid$ = new BehaviorSubject<string | null>('uid-ada');
    const { data, discardDraft, adoptDraft } = deviceWithLost(uid$);
    renderLive(<Harness replyingTo="Tea?" />, data);
    await offer();
    fireEvent.click(screen.getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(screen.queryByRole('group', { name: 'Unsent draft' })).toBeNull());
    expect(discardDraft).toHaveBeenCalledExactlyOnceWith(LOST.owner, LOST.key);
    expect(adoptDraft).not.toHaveBeenCalled();
    expect(screen.getByLabelText<HTMLTextAreaElement>('Your response').value).toBe('');
  });

  it('offers it to a signed-out visitor too, and it becomes theirs when they sign in', async () => {
    const uid$ = new BehaviorSubject<string | null>(null);
    const { data, adoptDraft } = deviceWithLost(uid$);
    const view = renderLive(<Harness replyingTo="Tea?" />, data);
    await offer();
    fireEvent.click(screen.getByRole('button', { name: 'Restore' }));
    const box = screen.getByLabelText<HTMLTextAreaElement>('Your response');
    expect(box.value).toBe(LOST.text);
    // Signed out, nothing is moved: the draft stays where it was until someone signs in.
    expect(adoptDraft).not.toHaveBeenCalled();

    session.current = BOB;
    view.rerender();
    act(() => uid$.next('uid-bob'));
    await waitFor(() => expect(adoptDraft).toHaveBeenCalledExactlyOnceWith(LOST.owner, LOST.key, LOST.text));
    expect(box.value).toBe(LOST.text);
    expect(screen.queryByRole('group', { name: 'Unsent draft' })).toBeNull();
  });
});
