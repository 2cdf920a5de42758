// @vitest-environment jsdom
// useObservable in the app's first render (main.tsx): a first screen's source (a kept
// page's rows, data/first-page.ts) is shown in the first commit, so the rows painted from the kept
// page's HTML are never replaced by a frame without them. No other source is read there (a peek at a
// local database query would run it twice), and outside that render the effect alone reads sources.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { useLayoutEffect } from 'react';
import { BehaviorSubject, Subject, type Observable } from 'rxjs';
import { firstValuesAtOnce, useObservable } from '../../../app/src/hooks/useObservable';
import { firstPageReads } from '../../../app/src/data/first-page';
import type { ResponseView } from '../../../app/src/data/api';
import type { FirstPageData } from '../../../shared/types';

afterEach(() => {
  cleanup();
  firstValuesAtOnce(false);
});

/** Shows how many rows the source gives and records what each commit showed. */
function Shows({ source, commits, transition }: { source: Observable<unknown[]>; commits: (number | undefined)[]; transition?: boolean }) {
  const { value } = useObservable(source, { transition });
  useLayoutEffect(() => {
    commits.push(value?.length);
  });
  return <p>{value === undefined ? 'loading' : `${value.length} rows`}</p>;
}

/** A kept page's first screen of one topic with two roots, as the app reads it. */
function keptRows(): Observable<ResponseView[]> {
  const data = {
    topic: { id: 't1', title: 'A topic' },
    responses: [
      { id: 'r1', topic_id: 't1', content: 'One' },
      { id: 'r2', topic_id: 't1', content: 'Two' },
    ],
  } as unknown as FirstPageData;
  return firstPageReads(data).rootResponses$('t1', new Subject<ResponseView[]>());
}

describe('useObservable', () => {
  it("in the app's first render, a first screen's rows are in the first commit", async () => {
    firstValuesAtOnce(true);
    const commits: (number | undefined)[] = [];
    render(<Shows source={keptRows()} commits={commits} />);
    expect(commits[0]).toBe(2);
    await screen.findByText('2 rows');
  });

  it("in the app's first render, any other source waits for the effect, as everywhere else", async () => {
    firstValuesAtOnce(true);
    const commits: (number | undefined)[] = [];
    render(<Shows source={new BehaviorSubject(['from the database'])} commits={commits} />);
    expect(commits[0]).toBeUndefined();
    await screen.findByText('1 rows');
  });

  it('after the first render, a first screen waits for the effect too', async () => {
    const commits: (number | undefined)[] = [];
    render(<Shows source={keptRows()} commits={commits} />);
    expect(commits[0]).toBeUndefined();
    await screen.findByText('2 rows');
  });

  it('in a transition, every value still reaches the screen, the last one staying, and a failure shows as before', async () => {
    const commits: (number | undefined)[] = [];
    const source = new Subject<unknown[]>();
    render(<Shows source={source} commits={commits} transition />);
    expect(screen.getByText('loading')).toBeTruthy();
    await act(async () => source.next(['a']));
    await screen.findByText('1 rows');
    await act(async () => {
      source.next(['a', 'b']);
      source.next(['a', 'b', 'c']);
    });
    await screen.findByText('3 rows');
    // Two values in one turn are one render: a sync's burst of pages redraws the rows once.
    expect(commits.filter((n) => n === 2)).toHaveLength(0);

    const failing = new Subject<unknown[]>();
    function ShowsError() {
      const { value, error } = useObservable(failing, { transition: true });
      return <p>{error ? 'failed' : `${value?.length ?? 'no'} rows`}</p>;
    }
    cleanup();
    render(<ShowsError />);
    await act(async () => failing.next(['x']));
    await screen.findByText('1 rows');
    await act(async () => failing.error(new Error('offline')));
    await screen.findByText('failed');
  });
});
