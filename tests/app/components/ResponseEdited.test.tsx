// @vitest-environment jsdom
// A response its author changed says "edited" with when, on its meta line (the exact
// time in the <time> element's dateTime and title); a response never edited says nothing of the kind.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { of } from 'rxjs';
import type { SessionState } from '../../../app/src/auth/session';
import { TopicPage } from '../../../app/src/routes/TopicPage';
import { fakeData, fakeResponse, fakeTopic } from '../../fixtures/fake-data';
import { renderWithData, SIGNED_IN } from './with-data';

const session = vi.hoisted(() => ({ current: null as SessionState | null }));
vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: () => session.current }));

beforeEach(() => {
  session.current = SIGNED_IN;
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-01-01T15:00:00.000Z') });
  Element.prototype.scrollIntoView = vi.fn();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('ResponseItem: the edited mark', () => {
  it('shows "· edited <relative time>" on the meta line of an edited response only', async () => {
    const topic = fakeTopic();
    const edited = fakeResponse({ id: 'edited', topic_id: topic.id, content: 'Changed later', edited_at: '2026-01-01T14:00:00.000Z' });
    const plain = fakeResponse({ id: 'plain', topic_id: topic.id, content: 'Never changed' });
    const data = fakeData({
      topic$: () => of(topic),
      rootResponses$: () => of([edited, plain]),
      topicResponses$: () => of([edited, plain]),
    });
    renderWithData(
      <Routes>
        <Route path="/topics/:topicId" element={<TopicPage />} />
      </Routes>,
      data,
      `/topics/${topic.id}`,
    );
    await screen.findByText('Changed later');
    const row = (id: string) => document.querySelector<HTMLElement>(`[data-response-id="${id}"]`)!;

    const mark = within(row('edited')).getByTestId('response-edited');
    expect(mark.textContent).toBe(' · edited 1 hour ago');
    expect(mark.closest('.response-meta')).not.toBeNull();
    const time = mark.querySelector('time')!;
    expect(time.getAttribute('dateTime')).toBe('2026-01-01T14:00:00.000Z');
    expect(time.getAttribute('title')).toMatch(/2026/);

    expect(within(row('plain')).queryByTestId('response-edited')).toBeNull();
    expect(row('plain').textContent).not.toMatch(/edited/);
  });
});
