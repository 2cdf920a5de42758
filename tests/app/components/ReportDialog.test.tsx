// @vitest-environment jsdom
// The Report control and dialog — six reasons with human labels, an optional note with
// its counter, Report / Cancel, the thanks after; signed out, the login message and no dialog.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { SessionState } from '../../../app/src/auth/session';
import { ReportButton, REPORTED_EXCERPT_CHARS } from '../../../app/src/components/ReportDialog/ReportDialog';
import { CruxError } from '../../../app/src/data/index.js';
import { MSG } from '../../../shared/messages';
import { fakeData } from '../../fixtures/fake-data';
import { renderWithData, SIGNED_IN, SIGNED_OUT } from './with-data';

const held = vi.hoisted(() => ({ session: null as SessionState | null }));
vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: () => held.session }));

beforeEach(() => {
  held.session = SIGNED_IN;
});
afterEach(cleanup);

describe('ReportDialog', () => {
  it('reports with a reason and a note, then thanks the reporter', async () => {
    const report = vi.fn(async () => undefined);
    renderWithData(
      <ReportButton targetType="response" targetId="r1" label="response: Tea wins" target="Tea wins, because it is calmer." />,
      fakeData({ report }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Report response: Tea wins' }));
    const dialog = screen.getByRole('dialog', { name: 'Report this response' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    // What is reported is quoted at the top: the reporter sees which response the reason is about.
    expect(within(dialog).getByTestId('reported').textContent).toBe('Tea wins, because it is calmer.');
    const radios = screen.getAllByRole('radio');
    expect(radios.map((r) => (r.closest('label') as HTMLElement).textContent)).toEqual([
      'Spam',
      'Harassment',
      'Hate',
      'Misinformation',
      'Off-topic',
      'Other',
    ]);
    // No reason yet: said, nothing sent.
    fireEvent.click(screen.getByRole('button', { name: 'Report' }));
    expect(screen.getByRole('alert').textContent).toBe(MSG.reportReasonMissing);
    expect(report).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('radio', { name: 'Harassment' }));
    const note = screen.getByLabelText('Note (optional)');
    expect(note.getAttribute('maxlength')).toBe('500');
    fireEvent.change(note, { target: { value: 'Rude!' } });
    expect(screen.getByText('5/500')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Report' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe(MSG.reportThanks));
    expect(report).toHaveBeenCalledWith('response', 'r1', 'harassment', 'Rude!');
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('an empty note is sent as none, Cancel sends nothing, a refusal shows its text', async () => {
    const report = vi.fn(async () => {
      throw new CruxError('invalid-argument', MSG.reportOwnItem);
    });
    renderWithData(<ReportButton targetType="topic" targetId="t1" label="topic: Tea?" target="Tea?" />, fakeData({ report }));
    fireEvent.click(screen.getByRole('button', { name: 'Report topic: Tea?' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(report).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Report topic: Tea?' }));
    fireEvent.click(screen.getByRole('radio', { name: 'Spam' }));
    fireEvent.change(screen.getByLabelText('Note (optional)'), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Report' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(MSG.reportOwnItem));
    expect(report).toHaveBeenCalledWith('topic', 't1', 'spam', null);
  });

  it('names the topic by its title, the user by name, and quotes a long response only in part', () => {
    renderWithData(<ReportButton targetType="topic" targetId="t1" label="topic: Tea?" target="Is tea better than coffee?" />);
    fireEvent.click(screen.getByRole('button', { name: 'Report topic: Tea?' }));
    expect(within(screen.getByRole('dialog', { name: 'Report this topic' })).getByTestId('reported').textContent).toBe(
      'Is tea better than coffee?',
    );
    cleanup();
    renderWithData(<ReportButton targetType="user" targetId="uid-bob" label="user Bob" target="Bob" />);
    fireEvent.click(screen.getByRole('button', { name: 'Report user Bob' }));
    expect(within(screen.getByRole('dialog', { name: 'Report this user' })).getByTestId('reported').textContent).toBe('User: Bob');
    cleanup();
    const long = 'word '.repeat(200).trim();
    renderWithData(<ReportButton targetType="response" targetId="r1" label="response: word" target={long} />);
    fireEvent.click(screen.getByRole('button', { name: 'Report response: word' }));
    const quoted = screen.getByTestId('reported').textContent;
    expect(quoted.endsWith('…')).toBe(true);
    expect(Array.from(quoted).length).toBeLessThanOrEqual(REPORTED_EXCERPT_CHARS + 1);
    expect(long.startsWith(quoted.slice(0, -1))).toBe(true);
  });

  it('signed out: the sign-in opens with the login message, no report dialog', () => {
    held.session = SIGNED_OUT;
    const report = vi.fn();
    renderWithData(<ReportButton targetType="user" targetId="uid-bob" label="user Bob" target="Bob" />, fakeData({ report }));
    const button = screen.getByRole('button', { name: 'Report user Bob' });
    expect(button.getAttribute('aria-disabled')).toBeNull();
    expect(button.getAttribute('aria-haspopup')).toBe('dialog');
    fireEvent.click(button);
    const dialog = screen.getByRole('dialog', { name: 'Sign in to Crux' });
    expect(within(dialog).getByRole('alert').textContent).toBe(MSG.loginToReport);
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    expect(screen.queryByRole('radio', { name: 'Spam' })).toBeNull();
    expect(report).not.toHaveBeenCalled();
  });

  it("quotes a reported response's words without their Markdown marks", async () => {
    renderWithData(
      <ReportButton
        targetType="response"
        targetId="r1"
        label="response: x"
        target={'> quoted\n\n**Strong** claim, [source](https://example.org)'}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Report response: x' }));
    await waitFor(() => expect(screen.getByTestId('reported').textContent).toBe('quoted Strong claim, source'));
  });
});
