// @vitest-environment jsdom
// useObservable in the app's first render (main.tsx, issue 28): a source with a value at once (a
// kept page's first screen) is shown in the first commit, so the rows painted from the kept page's
// HTML are never replaced by a frame without them; outside that render a source is read by the
// effect alone, as before.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { useLayoutEffect } from 'react';
import { BehaviorSubject, Observable } from 'rxjs';
import { firstValuesAtOnce, useObservable } from '../../../app/src/hooks/useObservable';

afterEach(() => {
  cleanup();
  firstValuesAtOnce(false);
});

/** Shows the source's value and records what each commit showed. */
function Shows({ source, commits }: { source: Observable<string>; commits: (string | undefined)[] }) {
  const { value } = useObservable(source);
  useLayoutEffect(() => {
    commits.push(value);
  });
  return <p>{value ?? 'loading'}</p>;
}

/** A source that counts its open subscriptions and gives `value` at once. */
function counted(value: string) {
  const open = { count: 0 };
  const source = new Observable<string>((subscriber) => {
    open.count++;
    subscriber.next(value);
    return () => open.count--;
  });
  return { source, open };
}

describe('useObservable', () => {
  it("in the app's first render, a value given at once is in the first commit, and only the effect's subscription stays open", async () => {
    firstValuesAtOnce(true);
    const { source, open } = counted('kept first screen');
    const commits: (string | undefined)[] = [];
    render(<Shows source={source} commits={commits} />);
    expect(commits[0]).toBe('kept first screen');
    await screen.findByText('kept first screen');
    expect(open.count).toBe(1);
  });

  it('otherwise the first commit shows nothing yet and the effect brings the value', async () => {
    const commits: (string | undefined)[] = [];
    render(<Shows source={new BehaviorSubject('later')} commits={commits} />);
    expect(commits[0]).toBeUndefined();
    await screen.findByText('later');
  });

  it("in the app's first render, a source with no value yet shows nothing and keeps one subscription", async () => {
    firstValuesAtOnce(true);
    const subject = new BehaviorSubject<string | null>(null);
    const open = { count: 0 };
    const source = new Observable<string>((subscriber) => {
      open.count++;
      const sub = subject.subscribe((v) => v !== null && subscriber.next(v));
      return () => {
        open.count--;
        sub.unsubscribe();
      };
    });
    const commits: (string | undefined)[] = [];
    render(<Shows source={source} commits={commits} />);
    expect(commits[0]).toBeUndefined();
    expect(open.count).toBe(1);
    subject.next('from the database');
    await screen.findByText('from the database');
  });
});
