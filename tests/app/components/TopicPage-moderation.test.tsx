// @vitest-environment jsdom
// Moderation on the topic page: a removed response keeps its place, votes and replies and reads as a
// notice with no Edit; a response quoting it shows the replacement; Report on others' items only;
// a locked topic has its badge and the lock's words instead of the composer, and offers no Respond or Reply;
// a suspended account reads why once and is offered none of the writes the server refuses it.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { of } from 'rxjs';
import type { SessionState } from '../../../app/src/auth/session';
import { CruxError, type MyAccount } from '../../../app/src/data/index.js';
import type { ModerationActionInput } from '../../../shared/schemas/moderation';
import type { ModerationLogEntry } from '../../../shared/types';
import { MSG, removedByModerator, suspendedMessage } from '../../../shared/messages';
import { SuspensionBanner } from '../../../app/src/components/SuspensionBanner/SuspensionBanner';
import { TopicPage } from '../../../app/src/routes/TopicPage';
import { fakeData, fakeResponse, fakeTopic } from '../../fixtures/fake-data';
import { ONLINE, renderTopicPage } from './topic-page';
import { renderWithData, SIGNED_IN, SIGNED_OUT } from './with-data';

const session = vi.hoisted(() => ({ current: null as SessionState | null }));
vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: () => session.current }));

beforeEach(() => {
  session.current = SIGNED_IN;
  // jsdom does not scroll: Agree / Disagree / Discuss brings the composer into view.
  Element.prototype.scrollIntoView = vi.fn();
});
afterEach(cleanup);

describe('TopicPage: moderation', () => {
  it('a removed response is a notice in its place, with its score and replies, no Edit; its quote shows the replacement', async () => {
    const topic = fakeTopic({ responses_count: 2, creator_uid: 'uid-bob' });
    const removed = fakeResponse({
      topic_id: topic.id,
      creator_uid: 'uid-ada',
      content: removedByModerator('Personal attack'),
      moderation: 'removed',
      moderation_reason: 'Personal attack',
      score: 4,
      comment_count: 1,
    });
    const quoting = fakeResponse({
      topic_id: topic.id,
      creator_uid: 'uid-bob',
      username: 'Bob',
      content: 'Answering it.',
      quoted_response: { id: removed.id, content: removed.content, username: 'Ada', creator_uid: 'uid-ada' },
      quoted_response_id: removed.id,
    });
    renderTopicPage(topic, { rootResponses$: () => of([removed, quoting]) });
    const rows = await screen.findAllByTestId('response');
    expect(rows).toHaveLength(2);
    const first = rows[0]!;
    const text = within(first).getByTestId('response-content');
    expect(text.textContent).toBe(removedByModerator('Personal attack'));
    expect(text.className).toContain('moderated-text');
    expect(within(first).getByTestId('score').textContent).toBe('4');
    expect(within(first).getByRole('button', { name: 'Show All (1)' })).toBeTruthy();
    // Ada's own removed response: Delete stays, Edit goes, her own text is one click away; no Report of her own.
    expect(within(first).queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(within(first).getByRole('button', { name: 'Delete' })).toBeTruthy();
    expect(within(first).getByRole('button', { name: 'Show my text' })).toBeTruthy();
    expect(within(first).queryByRole('button', { name: /^Report/ })).toBeNull();

    const second = rows[1]!;
    expect(within(second).getByTestId('quoted-block').textContent).toContain(removedByModerator('Personal attack'));
    expect(within(second).getByRole('button', { name: 'Report response: Answering it.' })).toBeTruthy();
    // The topic is Bob's: Ada may report it.
    expect(screen.getByRole('button', { name: `Report topic: ${topic.title}` })).toBeTruthy();
  });

  it('a locked topic shows its badge and the lock’s words once, where the composer would be; no Respond or Reply is offered', async () => {
    session.current = SIGNED_OUT;
    const topic = fakeTopic({ locked: true, creator_uid: 'uid-bob', responses_count: 1 });
    const answer = fakeResponse({ topic_id: topic.id, creator_uid: 'uid-ada', content: 'Said before the lock.' });
    renderTopicPage(topic, { rootResponses$: () => of([answer]) });
    expect(await screen.findByTestId('topic-locked')).toBeTruthy();
    expect(screen.getByTestId('topic-locked').textContent).toContain('Locked');
    expect(await screen.findAllByTestId('composer-blocked')).toHaveLength(1);
    expect(screen.getByTestId('composer-blocked').textContent).toBe(MSG.topicLocked);
    expect(screen.queryByLabelText('Your response')).toBeNull();
    // Responses are on the page, with their votes, but nothing offers to answer them.
    expect((await screen.findByTestId('response-content')).textContent).toBe('Said before the lock.');
    expect(screen.queryByRole('group', { name: /^(Respond|Reply)/ })).toBeNull();
  });

  it('a suspended member reads why once, in the banner; votes and stance show but cannot be pressed; no Respond, Reply, Report, Follow, Edit', async () => {
    const until = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const topic = fakeTopic({ creator_uid: 'uid-bob', responses_count: 1, title: 'Is tea better?' });
    const answer = fakeResponse({ topic_id: topic.id, creator_uid: 'uid-bob', content: 'Coffee wins.' });
    const mine = fakeResponse({ topic_id: topic.id, creator_uid: SIGNED_IN.user!.uid, content: 'My own words.' });
    const suspended: MyAccount = { uid: 'uid-ada', role: 'member', suspended_until: until, suspension_reason: 'Insults' };
    const data = fakeData({
      topic$: () => of(topic),
      rootResponses$: () => of([answer, mine]),
      status$: of(ONLINE),
      myAccount$: () => of(suspended),
    });
    renderWithData(
      <>
        <SuspensionBanner />
        <Routes>
          <Route path="/topics/:topicId" element={<TopicPage />} />
        </Routes>
      </>,
      data,
      `/topics/${topic.id}`,
    );
    const [row, own] = await screen.findAllByTestId('response');
    expect(screen.getAllByText(suspendedMessage(until, 'Insults'))).toHaveLength(1);
    // Their own response may be deleted, not edited (the server refuses a suspended account's edits).
    expect(within(own!).getByRole('button', { name: 'Delete' })).toBeTruthy();
    expect(within(own!).queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(screen.queryByTestId('composer-blocked')).toBeNull();
    expect(screen.queryByRole('group', { name: /^(Respond|Reply)/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Report/ })).toBeNull();
    expect(screen.queryByTestId('follow-button')).toBeNull();
    expect(screen.queryByRole('button', { name: /This changed my view/ })).toBeNull();
    // The scores are read as before; none of the votes can be pressed.
    expect(screen.getByRole('button', { name: 'Upvote topic: Is tea better?' })).toHaveProperty('disabled', true);
    for (const name of [
      /^Upvote response: Coffee wins/,
      /^Vote disagree with response: Coffee wins/,
      /^Vote pass on response: Coffee wins/,
    ])
      expect(within(row!).getByRole('button', { name })).toHaveProperty('disabled', true);
    for (const choice of screen.getAllByRole('radio', { hidden: true })) expect(choice).toHaveProperty('disabled', true);
  });

  it('a removed topic’s title is the notice; its author cannot report it', async () => {
    const topic = fakeTopic({
      creator_uid: 'uid-ada',
      title: removedByModerator('Spam'),
      moderation: 'removed',
      moderation_reason: 'Spam',
    });
    renderTopicPage(topic);
    const title = await screen.findByRole('heading', { level: 1 });
    expect(title.textContent).toBe(removedByModerator('Spam'));
    expect(title.className).toContain('moderated-text');
    expect(screen.queryByRole('button', { name: /^Report topic/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Show my text' })).toBeTruthy();
  });

  describe('a moderator acts where they read', () => {
    const account = (role: MyAccount['role']): MyAccount => ({ uid: 'uid-ada', role, suspended_until: null, suspension_reason: null });

    it('a member sees no Lock, Remove or Restore on the topic or its responses', async () => {
      const topic = fakeTopic({ creator_uid: 'uid-bob', responses_count: 1 });
      const answer = fakeResponse({ topic_id: topic.id, creator_uid: 'uid-bob', content: 'An answer.' });
      renderTopicPage(topic, { rootResponses$: () => of([answer]), myAccount$: () => of(account('member')) });
      expect(await screen.findByTestId('response')).toBeTruthy();
      expect(screen.queryByRole('button', { name: /^(Lock|Unlock|Remove|Restore) / })).toBeNull();
    });

    it('Lock and Remove on the topic, Remove on each response; each asks a reason and sends the action', async () => {
      const topic = fakeTopic({ creator_uid: 'uid-bob', responses_count: 1, title: 'Is tea better?' });
      const answer = fakeResponse({ topic_id: topic.id, creator_uid: 'uid-bob', content: 'Coffee is a personal attack.' });
      const moderate = vi.fn(async (input: ModerationActionInput) => ({ ...input, id: 'log-1' }) as unknown as ModerationLogEntry);
      renderTopicPage(topic, { rootResponses$: () => of([answer]), myAccount$: () => of(account('moderator')), moderate });
      const row = await screen.findByTestId('response');
      expect(screen.getByRole('button', { name: 'Remove topic: Is tea better?' })).toBeTruthy();
      const removeResponse = within(row).getByRole('button', { name: 'Remove response: Coffee is a personal attack.' });

      fireEvent.click(screen.getByRole('button', { name: 'Lock topic: Is tea better?' }));
      const dialog = screen.getByRole('dialog', { name: 'Lock this topic' });
      expect(within(dialog).getByTestId('moderation-excerpt').textContent).toBe('Is tea better?');
      // No reason: said, nothing sent.
      fireEvent.click(within(dialog).getByRole('button', { name: 'Lock' }));
      expect(within(dialog).getByRole('alert').textContent).toBe(MSG.moderationReasonEmpty);
      expect(moderate).not.toHaveBeenCalled();
      fireEvent.change(within(dialog).getByLabelText('Reason (the author sees it)'), { target: { value: 'Going in circles' } });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Lock' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      expect(moderate).toHaveBeenCalledWith({ action: 'lock', target_type: 'topic', target_id: topic.id, reason: 'Going in circles' });
      expect(screen.getByText('Lock done: Going in circles')).toBeTruthy();

      fireEvent.click(removeResponse);
      const second = screen.getByRole('dialog', { name: 'Remove this response' });
      expect(within(second).getByTestId('moderation-excerpt').textContent).toBe('Coffee is a personal attack.');
      fireEvent.change(within(second).getByLabelText('Reason (the author sees it)'), { target: { value: 'Personal attack' } });
      fireEvent.click(within(second).getByRole('button', { name: 'Remove' }));
      await waitFor(() =>
        expect(moderate).toHaveBeenLastCalledWith({
          action: 'remove',
          target_type: 'response',
          target_id: answer.id,
          reason: 'Personal attack',
        }),
      );
    });

    it('a locked, removed topic offers Unlock and Restore; a refusal is shown as the server says it', async () => {
      const topic = fakeTopic({ creator_uid: 'uid-bob', locked: true, moderation: 'removed', moderation_reason: 'Spam', title: 'Buy now' });
      const moderate = vi.fn(async () => {
        throw new CruxError('permission-denied', MSG.cannotActOnAdmin);
      });
      renderTopicPage(topic, { myAccount$: () => of(account('admin')), moderate });
      expect(await screen.findByRole('button', { name: 'Restore topic: Buy now' })).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Lock topic: Buy now' })).toBeNull();
      fireEvent.click(screen.getByRole('button', { name: 'Unlock topic: Buy now' }));
      fireEvent.change(screen.getByLabelText('Reason (the author sees it)'), { target: { value: 'Settled' } });
      fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Unlock' }));
      await waitFor(() => expect(within(screen.getByRole('dialog')).getByRole('alert').textContent).toBe(MSG.cannotActOnAdmin));
    });
  });
});
