// @vitest-environment jsdom
// The topic list's paging: the sentinel in view asks for the next page, the rows
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

/**
 * jsdom has no layout: the test says where the sentinel is (its top, in a 768 px high window) and
 * when the observer reports it (which, as in a browser, may lag behind the layout).
 */
let sentinelTop = 5_000;
let reportIntersection: (isIntersecting: boolean, time?: number) => void = () => {};
beforeEach(() => {
  sentinelTop = 5_000;
  const rect = HTMLElement.prototype.getBoundingClientRect;
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
    return this.dataset.testid === 'list-sentinel' ? ({ top: sentinelTop } as DOMRect) : rect.call(this);
  });
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      constructor(callback: (entries: { isIntersecting: boolean; time?: number }[]) => void) {
        reportIntersection = (isIntersecting, time) => act(() => callback([{ isIntersecting, ...(time === undefined ? {} : { time }) }]));
      }
      observe() {}
      disconnect() {}
    },
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** The reader scrolls to the end of the list: the sentinel is in view and the observer says so. */
const scrollToSentinel = () => {
  sentinelTop = 600;
  reportIntersection(true);
};

/** Lets the next frame and the task after it run (the sentinel reads the layout then). */
const afterTheFrame = () =>
  act(async () => {
    if (typeof requestAnimationFrame === 'function') await new Promise((resolve) => requestAnimationFrame(resolve));
    await new Promise((resolve) => setTimeout(resolve, 0));
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

    scrollToSentinel();
    expect(asked.map((a) => a.query.limit)).toEqual([20, 40]);
    expect(screen.getAllByRole('listitem')).toHaveLength(20);
    expect(screen.getByText('Loading more...')).toBeTruthy();

    act(() => asked[1]!.answer.next(topics));
    expect(screen.getAllByRole('listitem')).toHaveLength(25);
    expect(screen.queryByText('Loading more...')).toBeNull();
    // 25 of 40: the last page was short, so the sentinel still in view asks for nothing more.
    scrollToSentinel();
    expect(asked).toHaveLength(2);
  });

  it('asks for the next page when the sentinel was already in view as a page landed', async () => {
    const asked = renderList();
    scrollToSentinel();
    expect(asked).toHaveLength(1);
    act(() => asked[0]!.answer.next(topics.slice(0, 20)));
    // The layout is read after the next frame, not in the task that committed the rows.
    expect(asked).toHaveLength(1);
    await afterTheFrame();
    expect(asked.map((a) => a.query.limit)).toEqual([20, 40]);
  });

  it('asks for no page while the sentinel is far below the view', async () => {
    const asked = renderList();
    act(() => asked[0]!.answer.next(topics.slice(0, 20)));
    await afterTheFrame();
    expect(asked).toHaveLength(1);
  });

  it("acts on the observer's report even when the layout moved before the check (no stuck first page)", () => {
    // A full-page capture or a resize: the observer saw the sentinel in view, the layout is back
    // to "far" when React runs, and the reader's own scroll then brings no new report (no change).
    const asked = renderList();
    act(() => asked[0]!.answer.next(topics.slice(0, 20)));
    reportIntersection(true);
    expect(asked.map((a) => a.query.limit)).toEqual([20, 40]);
  });

  it('ignores a report observed before the rows arrived (the sentinel was in view only while the list was empty)', () => {
    const asked = renderList();
    // Observed while the list was still loading, delivered after its 20 rows pushed the sentinel down.
    const observedAt = performance.now();
    act(() => asked[0]!.answer.next(topics.slice(0, 20)));
    reportIntersection(true, observedAt);
    expect(asked.map((a) => a.query.limit)).toEqual([20]);
    // A report made after that is acted on.
    reportIntersection(true, performance.now() + 1);
    expect(asked.map((a) => a.query.limit)).toEqual([20, 40]);
  });
});
