// @vitest-environment jsdom
// A refused write names its item, shows its text, offers only what can work, and
// asks before its text is discarded. another account's write (its session ended on
// this device) is offered to the person now signed in.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { of } from 'rxjs';
import { SyncIssues } from '../../../app/src/components/SyncStatus/SyncIssues';
import type { SyncProblem } from '../../../app/src/data/index.js';
import { MSG } from '../../../shared/messages';
import { fakeData, fakeResponse, fakeTopic } from '../../fixtures/fake-data';
import { renderWithData, SIGNED_IN } from './with-data';

vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: () => SIGNED_IN }));

afterEach(cleanup);

const TOPIC = fakeTopic({ id: 't1', title: 'Is tea better than coffee?' });
const PARENT = fakeResponse({ id: 'r0', topic_id: 't1', content: 'Coffee wakes you up, tea only pretends to.' });

const REPLY: SyncProblem = {
  id: 'p1',
  kind: 'rejected',
  collection: 'responses',
  itemId: 'r1',
  action: 'create',
  error: MSG.responseNotFound,
  status: 404,
  localState: {
    id: 'r1',
    topic_id: 't1',
    parent_response_id: 'r0',
    quoted_response_id: null,
    type: 'against',
    content: 'Tea has more than one way to wake you.',
    creator_uid: 'uid-ada',
  },
  serverState: null,
  created_at: '2026-01-01T12:00:00.000Z',
};

function renderProblems(problems: SyncProblem[], onDevice: { topics?: boolean; parent?: boolean } = {}) {
  const calls = { fixProblem: vi.fn(async () => {}), discardProblem: vi.fn(async () => {}) };
  renderWithData(
    <SyncIssues />,
    fakeData({
      syncProblems$: () => of(problems),
      topic$: () => of(onDevice.topics === false ? null : TOPIC),
      topicResponses$: () => of(onDevice.parent === false ? [] : [PARENT]),
      ...calls,
    }),
  );
  return calls;
}

const issue = () => screen.getByTestId('sync-issue');
const buttons = () =>
  within(issue())
    .getAllByRole('button')
    .map((b) => b.textContent);

describe('a refused write', () => {
  it('a reply whose parent was deleted: named, its text shown, posted to the topic or copied, never retried', async () => {
    const calls = renderProblems([REPLY]);
    expect(within(issue()).getByRole('heading').textContent).toBe(
      'Your reply to “Coffee wakes you up, tea only pretends to.” in “Is tea better than coffee?”',
    );
    expect(issue().textContent).toContain('Tea has more than one way to wake you.');
    expect(issue().textContent).toContain(`It could not be saved: ${MSG.responseNotFound}`);
    expect(buttons()).toEqual(['Post as a reply to the topic', 'Copy text', 'Discard']);
    fireEvent.click(within(issue()).getByRole('button', { name: 'Post as a reply to the topic' }));
    await waitFor(() => expect(calls.fixProblem).toHaveBeenCalledWith('p1', { parent_response_id: null }));
  });

  it('the parent already gone from the device: says so', () => {
    renderProblems([REPLY], { parent: false });
    expect(within(issue()).getByRole('heading').textContent).toBe(
      'Your reply to a response that has since been deleted, in “Is tea better than coffee?”',
    );
  });

  it('a quote of the deleted parent goes with it', async () => {
    const calls = renderProblems([{ ...REPLY, localState: { ...REPLY.localState, quoted_response_id: 'r0' } }]);
    fireEvent.click(screen.getByRole('button', { name: 'Post as a reply to the topic' }));
    await waitFor(() => expect(calls.fixProblem).toHaveBeenCalledWith('p1', { parent_response_id: null, quoted_response_id: null }));
  });

  it.each([
    [
      { collection: 'topics', itemId: 't9', localState: { id: 't9', title: 'Cats or dogs?', creator_uid: 'uid-ada' } },
      'Your topic “Cats or dogs?”',
    ],
    [{ localState: { ...REPLY.localState, parent_response_id: null } }, 'Your response in “Is tea better than coffee?”'],
    [{ action: 'edit' }, 'Your edit of a response in “Is tea better than coffee?”'],
    [
      { action: 'vote', collection: 'votes', localState: { target_type: 'response', target_id: 'r0', topic_id: 't1' } },
      'Your vote on “Coffee wakes you up, tea only pretends to.” in “Is tea better than coffee?”',
    ],
    [
      { action: 'vote', collection: 'votes', localState: { target_type: 'topic', target_id: 't1', topic_id: 't1' } },
      'Your vote on the topic “Is tea better than coffee?”',
    ],
    [
      { action: 'stance', collection: 'stances', localState: { topic_id: 't1', stance: 'agree' } },
      'Your stance on “Is tea better than coffee?”',
    ],
    [
      { action: 'block', collection: 'blocks', localState: { blocked_uid: 'u9', display_name: 'Troll', blocked: true } },
      'Your block of Troll',
    ],
    [{ action: 'report', collection: 'reports', localState: { target_type: 'response', target_id: 'r0' } }, 'Your report of a response'],
    [{ action: 'preferences', collection: 'profile', localState: {} }, 'Your e-mail preference'],
  ] as [Partial<SyncProblem>, string][])('names the item: %j → %s', (change, subject) => {
    renderProblems([{ ...REPLY, error: 'Forbidden.', status: 403, ...change }]);
    expect(within(issue()).getByRole('heading').textContent).toBe(subject);
  });

  it('a topic not on the device is said to be so', () => {
    renderProblems([{ ...REPLY, localState: { ...REPLY.localState, parent_response_id: null } }], { topics: false });
    expect(within(issue()).getByRole('heading').textContent).toBe('Your response in a topic that is not on this device');
  });

  it.each([
    [0, true],
    [429, true],
    [503, true],
    [400, false],
    [403, false],
    [404, false],
  ])('status %i: Retry offered: %s', (status, offered) => {
    renderProblems([{ ...REPLY, error: 'Why not.', status, localState: { ...REPLY.localState, parent_response_id: null } }]);
    expect(buttons().includes('Retry')).toBe(offered);
    expect(buttons()).toContain('Discard');
  });

  it('Discard asks first, saying the text will be lost; "Keep it" keeps it', async () => {
    const calls = renderProblems([REPLY]);
    fireEvent.click(within(issue()).getByRole('button', { name: 'Discard' }));
    const dialog = screen.getByRole('dialog', { name: 'Discard this change?' });
    expect(dialog.textContent).toContain('Your text will be lost');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.discardProblem).not.toHaveBeenCalled();
    fireEvent.click(within(issue()).getByRole('button', { name: 'Discard' }));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Discard this change?' })).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(calls.discardProblem).toHaveBeenCalledWith('p1'));
  });

  it('Copy text puts the text on the clipboard', async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderProblems([REPLY]);
    fireEvent.click(screen.getByRole('button', { name: 'Copy text' }));
    expect(await screen.findByText('Copied.')).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith('Tea has more than one way to wake you.');
  });

  it("another account's write from an ended session: post it as me, copy or discard", async () => {
    const foreign = {
      ...REPLY,
      error: 'Not sent: that session ended.',
      status: 401,
      localState: { ...REPLY.localState, creator_uid: 'uid-gone' },
    };
    const calls = renderProblems([foreign]);
    expect(within(issue()).getByRole('heading').textContent).toBe(
      'A reply to “Coffee wakes you up, tea only pretends to.” in “Is tea better than coffee?”, written by another account whose session ended on this device',
    );
    expect(buttons()).toEqual(['Post it as Ada', 'Copy text', 'Discard']);
    expect(within(issue()).getByText('Not sent: that session ended.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Post it as Ada' }));
    await waitFor(() => expect(calls.fixProblem).toHaveBeenCalledWith('p1'));
  });
});
