// @vitest-environment jsdom
// A conflict shows the response, the server's text and yours, and waits for a choice.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { of } from 'rxjs';
import { SyncIssues } from '../../../app/src/components/SyncStatus/SyncIssues';
import type { SyncProblem } from '../../../app/src/data/index.js';
import { fakeData } from '../../fixtures/fake-data';
import { renderWithData } from './with-data';

afterEach(cleanup);

const CONFLICT: SyncProblem = {
  id: 'p1',
  kind: 'conflict',
  collection: 'responses',
  itemId: 'r1',
  action: 'edit',
  error: 'This item was changed elsewhere before your change arrived.',
  status: 409,
  localState: { id: 'r1', topic_id: 't1', content: 'Tea, edited on the phone.' },
  serverState: { id: 'r1', topic_id: 't1', content: 'Tea, edited on the laptop.' },
  created_at: '2026-01-01T12:00:00.000Z',
};

function renderProblems(problems: SyncProblem[]) {
  const calls = { resolveConflict: vi.fn(async () => {}), fixProblem: vi.fn(async () => {}), discardProblem: vi.fn(async () => {}) };
  renderWithData(<SyncIssues />, fakeData({ syncProblems$: () => of(problems), ...calls }));
  return calls;
}

describe('conflict view', () => {
  it('shows the response (linked), the server text and yours, and overwrites nothing on its own', () => {
    const calls = renderProblems([CONFLICT]);
    const conflict = screen.getByTestId('conflict');
    expect(within(conflict).getByRole('region', { name: 'On the server' }).textContent).toContain('Tea, edited on the laptop.');
    expect(within(conflict).getByRole('region', { name: 'Yours' }).textContent).toContain('Tea, edited on the phone.');
    expect(within(conflict).getByRole('link', { name: 'Open the response' }).getAttribute('href')).toBe('/topics/t1#response-r1');
    for (const name of ['Keep mine', 'Keep theirs', 'Edit and merge']) within(conflict).getByRole('button', { name });
    // No blind Retry for a conflict.
    expect(within(conflict).queryByRole('button', { name: 'Retry' })).toBeNull();
    expect(calls.resolveConflict).not.toHaveBeenCalled();
    expect(calls.fixProblem).not.toHaveBeenCalled();
  });

  it.each([
    ['Keep mine', { keep: 'mine' }],
    ['Keep theirs', { keep: 'theirs' }],
  ])('%s resolves the conflict that way', async (name, choice) => {
    const calls = renderProblems([CONFLICT]);
    fireEvent.click(screen.getByRole('button', { name }));
    await waitFor(() => expect(calls.resolveConflict).toHaveBeenCalledExactlyOnceWith('p1', choice));
  });

  it('Edit and merge opens a textarea with your text; Save sends the merged text', async () => {
    const calls = renderProblems([CONFLICT]);
    fireEvent.click(screen.getByRole('button', { name: 'Edit and merge' }));
    const box = screen.getByLabelText('Merged text');
    expect((box as HTMLTextAreaElement).value).toBe('Tea, edited on the phone.');
    expect(document.activeElement).toBe(box);
    fireEvent.change(box, { target: { value: 'Tea, edited on both.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(calls.resolveConflict).toHaveBeenCalledExactlyOnceWith('p1', { keep: 'merged', content: 'Tea, edited on both.' }),
    );
  });

  it('shows the resolver’s error and lets the person choose again', async () => {
    const resolveConflict = vi.fn(async () => {
      throw new Error('You are offline.');
    });
    renderWithData(<SyncIssues />, fakeData({ syncProblems$: () => of([CONFLICT]), resolveConflict }));
    fireEvent.click(screen.getByRole('button', { name: 'Keep mine' }));
    expect((await screen.findByRole('alert')).textContent).toBe('You are offline.');
    expect(screen.getByRole('button', { name: 'Keep mine' }).hasAttribute('disabled')).toBe(false);
  });
  // Refused (non-conflict) writes: SyncIssues.test.tsx.
});
