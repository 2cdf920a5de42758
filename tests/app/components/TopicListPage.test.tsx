// @vitest-environment jsdom
// The topic list's paging (SPEC.md §4): the sentinel in view asks for the next page, the rows
// already shown stay while it is read and "Loading more..." says so, and a short page ends it.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen } from '@testing-library/react';
import { Subject, type Observable } from 'rxjs';
import type { TopicQuery, TopicView } from '../../../app/src/data/index.js';
import type { SessionState } from '../../../app/src/auth/session';
import { TopicListPage } from '../../../app/src/routes/TopicListPage';
import { fakeData, fakeTopic } from '../../fixtures/fake-data';
import { SIGNED_OUT, renderWithData } from './with-data';

vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: (): SessionState => SIGNED_OUT }));

/** jsdom has no layout: the test says when the sentinel enters the view. */
let reportIntersection: (isIntersecting: boolean) => void = () => {};
beforeEach(() => {
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      constructor(callback: (entries: { isIntersecting: boolean }[]) => void) {
        reportIntersection = (isIntersecting) => act(() => callback([{ isIntersecting }]));
      }
      observe() {}
      disconnect() {}
    },
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const topics = Array.from({ length: 25 }, (_, i) => fakeTopic({ title: `Question ${i + 1}` }));

function renderList() {
  const asked: { query: TopicQuery; answer: Subject<TopicView[]> }[] = [];
  const topics$ = (query: TopicQuery = {}): Observable<TopicView[]> => {
    const answer = new Subject<TopicView[]>();
    asked.push({ query, answer });
    return answer;
  };
  renderWithData(<TopicListPage />, fakeData({ topics$ }));
  return asked;
}

describe('TopicListPage paging', () => {
  it('keeps the first page while the next is read, says "Loading more...", and stops after a short page', () => {
    const asked = renderList();
    expect(screen.getByRole('status').textContent).toBe('Loading topics...');
    expect(asked.map((a) => a.query.limit)).toEqual([20]);
    act(() => asked[0]!.answer.next(topics.slice(0, 20)));
    expect(screen.getAllByRole('listitem')).toHaveLength(20);
    expect(screen.queryByText('Loading more...')).toBeNull();

    reportIntersection(true);
    expect(asked.map((a) => a.query.limit)).toEqual([20, 40]);
    expect(screen.getAllByRole('listitem')).toHaveLength(20);
    expect(screen.getByText('Loading more...')).toBeTruthy();

    act(() => asked[1]!.answer.next(topics));
    expect(screen.getAllByRole('listitem')).toHaveLength(25);
    expect(screen.queryByText('Loading more...')).toBeNull();
    // 25 of 40: the last page was short, so the sentinel still in view asks for nothing more.
    reportIntersection(true);
    expect(asked).toHaveLength(2);
  });

  it('asks for the next page when the sentinel was already in view as a page landed', () => {
    const asked = renderList();
    reportIntersection(true);
    expect(asked).toHaveLength(1);
    act(() => asked[0]!.answer.next(topics.slice(0, 20)));
    expect(asked.map((a) => a.query.limit)).toEqual([20, 40]);
  });
});
