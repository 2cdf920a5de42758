// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { SessionState } from '../../../app/src/auth/session';
import { VoteButton } from '../../../app/src/components/VoteButton/VoteButton';
import { fakeData } from '../../fixtures/fake-data';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router-dom';
import type { CruxData } from '../../../app/src/data/index.js';
import { DataProvider } from '../../../app/src/context/DataProvider';
import { renderWithData, SIGNED_IN, SIGNED_OUT } from './with-data';

const withProvider = (data: CruxData, ui: ReactElement) => (
  <MemoryRouter>
    <DataProvider data={data}>{ui}</DataProvider>
  </MemoryRouter>
);

const session = vi.hoisted(() => {
  const held: { current: SessionState | null } = { current: null };
  return held;
});
vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: () => session.current }));

beforeEach(() => {
  session.current = SIGNED_IN;
});
afterEach(cleanup);

describe('VoteButton', () => {
  it('toggles the upvote of its target through the data layer', async () => {
    const toggleVote = vi.fn(async () => true);
    renderWithData(
      <VoteButton targetType="response" targetId="r1" score={3} hasUpvoted={false} label="response: Tea wins" />,
      fakeData({ toggleVote }),
    );
    const button = screen.getByRole('button', { name: 'Upvote response: Tea wins' });
    fireEvent.click(button);
    await waitFor(() => expect(button.hasAttribute('disabled')).toBe(false));
    expect(toggleVote).toHaveBeenCalledExactlyOnceWith('response', 'r1');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("shows the Vote Error with the data layer's reason, or SPEC's text when it has none", async () => {
    const toggleVote = vi.fn(async (): Promise<boolean> => Promise.reject(new Error('')));
    renderWithData(<VoteButton targetType="topic" targetId="t1" score={1} hasUpvoted label="topic: Tea?" />, fakeData({ toggleVote }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove upvote from topic: Tea?' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Vote Error: Failed to remove upvote.');
  });

  it('shows the click at once (pressed, score + 1) before the store answers, then follows the store', async () => {
    let answer!: (upvoted: boolean) => void;
    const toggleVote = vi.fn(() => new Promise<boolean>((resolve) => (answer = resolve)));
    const data = fakeData({ toggleVote });
    const props = { targetType: 'response', targetId: 'r1', label: 'response: Tea wins' } as const;
    const { rerender } = renderWithData(<VoteButton {...props} score={3} hasUpvoted={false} />, data);
    const button = screen.getByRole('button', { name: 'Upvote response: Tea wins' });
    fireEvent.click(button);
    expect(button.getAttribute('aria-pressed')).toBe('true');
    expect(button.getAttribute('aria-label')).toBe('Remove upvote from response: Tea wins');
    expect(screen.getByTestId('score').textContent).toBe('4');
    answer(true);
    await waitFor(() => expect(button.hasAttribute('disabled')).toBe(false));
    expect(button.getAttribute('aria-pressed')).toBe('true');
    // The store's state takes over once it changes (here: another device took the vote back since).
    rerender(withProvider(data, <VoteButton {...props} score={3} hasUpvoted />));
    rerender(withProvider(data, <VoteButton {...props} score={3} hasUpvoted={false} />));
    expect(button.getAttribute('aria-pressed')).toBe('false');
    expect(screen.getByTestId('score').textContent).toBe('3');
  });

  it('a vote that fails goes back to the stored state, with the Vote Error', async () => {
    const toggleVote = vi.fn(async (): Promise<boolean> => Promise.reject(new Error('')));
    renderWithData(
      <VoteButton targetType="response" targetId="r1" score={3} hasUpvoted={false} label="response: Tea" />,
      fakeData({ toggleVote }),
    );
    const button = screen.getByRole('button', { name: 'Upvote response: Tea' });
    fireEvent.click(button);
    expect((await screen.findByRole('alert')).textContent).toBe('Vote Error: Failed to add upvote.');
    expect(button.getAttribute('aria-pressed')).toBe('false');
    expect(screen.getByTestId('score').textContent).toBe('3');
  });

  it('signed out, a press opens the sign-in saying why, instead of voting', () => {
    session.current = SIGNED_OUT;
    const toggleVote = vi.fn(async () => true);
    renderWithData(
      <VoteButton targetType="topic" targetId="t1" score={0} hasUpvoted={false} label="topic: Tea?" />,
      fakeData({ toggleVote }),
    );
    const upvote = screen.getByRole('button', { name: 'Upvote topic: Tea?' });
    // Not announced as unavailable: it is the way in, and says it opens a dialog.
    expect(upvote.getAttribute('aria-disabled')).toBe('false');
    expect(upvote.getAttribute('aria-haspopup')).toBe('dialog');
    fireEvent.click(upvote);
    const dialog = screen.getByRole('dialog', { name: 'Sign in to Crux' });
    expect(within(dialog).getByRole('alert').textContent).toBe('You must be logged in to vote.');
    expect(within(dialog).getByRole('button', { name: /Sign in with email/ })).toBeTruthy();
    expect(toggleVote).not.toHaveBeenCalled();
    // A second press does not pile up another message: one dialog, one reason.
    fireEvent.click(screen.getByRole('button', { name: 'Upvote topic: Tea?' }));
    expect(screen.getAllByText('You must be logged in to vote.')).toHaveLength(1);
  });
});
