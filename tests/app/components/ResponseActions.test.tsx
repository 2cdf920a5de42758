// @vitest-environment jsdom
// A response's row: one way to answer (Reply: Agree / Disagree / Discuss), no
// "Show All (0)" for a response nobody answered, and on a desktop (jsdom has no matchMedia: the
// desktop layout) Edit / Delete / Report on the row itself, with no More menu. The phone's More
// menu is exercised in Chromium (tests/e2e/topic-calm.test.ts).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { of } from 'rxjs';
import type { SessionState } from '../../../app/src/auth/session';
import { fakeResponse, fakeTopic } from '../../fixtures/fake-data';
import { renderTopicPage } from './topic-page';
import { SIGNED_IN } from './with-data';

const session = vi.hoisted(() => ({ current: null as SessionState | null }));
vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: () => session.current }));

beforeEach(() => {
  session.current = SIGNED_IN;
});
afterEach(cleanup);

describe('a response row', () => {
  it('offers Show All only when there are replies, and one Reply group of three types', async () => {
    const topic = fakeTopic({ responses_count: 2 });
    const answered = fakeResponse({ topic_id: topic.id, content: 'Answered.', comment_count: 2, creator_uid: 'uid-other' });
    const leaf = fakeResponse({ topic_id: topic.id, content: 'Nobody answered.', comment_count: 0, creator_uid: 'uid-other' });
    renderTopicPage(topic, { rootResponses$: () => of([answered, leaf]), replies$: () => of([]) });
    const [first, second] = await screen.findAllByTestId('response');
    expect(within(first!).getByRole('button', { name: 'Show All (2)' })).toBeTruthy();
    expect(within(second!).queryByRole('button', { name: /All \(/ })).toBeNull();
    const reply = within(second!).getByRole('group', { name: 'Reply' });
    expect(
      within(reply)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['✔ Agree', '✖ Disagree', '◆ Discuss']);
    // Agree opens the reply form with that type.
    fireEvent.click(within(reply).getByRole('button', { name: 'Agree' }));
    expect(await within(second!).findByRole('form', { name: 'Reply' })).toBeTruthy();
    // Someone else's response: Report on the row, no Edit, no More menu on a desktop.
    expect(within(second!).getByRole('button', { name: 'Report response: Nobody answered.' })).toBeTruthy();
    expect(within(second!).queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(within(second!).queryByRole('button', { name: 'More' })).toBeNull();
  });

  it("shows the creator's Edit and Delete on the row on a desktop", async () => {
    const topic = fakeTopic({ responses_count: 1 });
    const mine = fakeResponse({ topic_id: topic.id, content: 'Mine.', comment_count: 0, creator_uid: SIGNED_IN.user!.uid });
    renderTopicPage(topic, { rootResponses$: () => of([mine]) });
    const [row] = await screen.findAllByTestId('response');
    expect(within(row!).getByRole('button', { name: 'Edit' })).toBeTruthy();
    expect(within(row!).getByRole('button', { name: 'Delete' })).toBeTruthy();
    fireEvent.click(within(row!).getByRole('button', { name: 'Edit' }));
    expect(await within(row!).findByRole('form', { name: 'Edit response' })).toBeTruthy();
  });
});
