// @vitest-environment jsdom
// Big debates: the topic page renders the first screen of a long list at once and the rest
// in idle chunks, renders a linked response at once wherever it is, keeps focus while rows arrive,
// and opens a thread from the data layer's replies.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { BehaviorSubject, of } from 'rxjs';
import type { SessionState } from '../../../app/src/auth/session';
import type { ResponseView, TopicView } from '../../../app/src/data/index.js';
import { FIRST_ROWS } from '../../../app/src/components/ResponseList/ResponseList';
import { TopicPage } from '../../../app/src/routes/TopicPage';
import { fakeData, fakeResponse, fakeTopic } from '../../fixtures/fake-data';
import { renderWithData, SIGNED_IN } from './with-data';

const session = vi.hoisted(() => ({ current: null as SessionState | null }));
vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: () => session.current }));

/** Idle callbacks held until the test runs them (jsdom has none of its own). */
let idle: (() => void)[] = [];
beforeEach(() => {
  session.current = SIGNED_IN;
  idle = [];
  vi.stubGlobal('requestIdleCallback', (run: () => void) => idle.push(run));
  vi.stubGlobal('cancelIdleCallback', () => undefined);
  Element.prototype.scrollIntoView = vi.fn();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function runIdle() {
  act(() => {
    const pending = idle;
    idle = [];
    for (const run of pending) run();
  });
}

function manyRoots(topic: TopicView, n: number): ResponseView[] {
  return Array.from({ length: n }, (_, i) =>
    fakeResponse({ id: `root-${i}`, topic_id: topic.id, content: `Root argument ${i}`, comment_count: 1 }),
  );
}

function renderTopic(topic: TopicView, roots$: BehaviorSubject<ResponseView[]>, hash = '', replies: Record<string, ResponseView[]> = {}) {
  const data = fakeData({
    topic$: () => of(topic),
    rootResponses$: () => roots$,
    topicResponses$: () => of([...roots$.value, ...Object.values(replies).flat()]),
    replies$: (id) => of(replies[id] ?? []),
    ancestorPath: async (id) => [...Object.keys(replies).filter((parent) => replies[parent]!.some((r) => r.id === id)), id],
  });
  renderWithData(
    <Routes>
      <Route path="/topics/:topicId" element={<TopicPage />} />
      <Route path="/topics/:topicId/responses/:responseId" element={<TopicPage />} />
    </Routes>,
    data,
    `/topics/${topic.id}${hash}`,
  );
}

const rows = () => screen.getByRole('list', { name: 'Responses' }).querySelectorAll(':scope > li[data-testid="response"]');

describe('ResponseList: a long topic', () => {
  it('renders the first screen at once, then the rest while the browser is idle', async () => {
    const topic = fakeTopic({ responses_count: 120 });
    renderTopic(topic, new BehaviorSubject(manyRoots(topic, 120)));
    await screen.findByText('Root argument 0');
    expect(rows()).toHaveLength(FIRST_ROWS);
    expect(screen.queryByText('Root argument 119')).toBeNull();
    for (let i = 0; i < 20 && rows().length < 120; i++) runIdle();
    expect(rows()).toHaveLength(120);
    expect(screen.getByText('Root argument 119')).toBeTruthy();
    expect([...rows()].map((li) => li.getAttribute('data-response-id'))).toEqual(Array.from({ length: 120 }, (_, i) => `root-${i}`));
  });

  it('a #response link to a row beyond the first screen renders it at once, highlighted and focused', async () => {
    const topic = fakeTopic({ responses_count: 60 });
    renderTopic(topic, new BehaviorSubject(manyRoots(topic, 60)), '#response-root-50');
    const target = await waitFor(
      () => {
        const el = document.getElementById('response-root-50');
        if (!el) throw new Error('not rendered yet');
        return el;
      },
      { timeout: 15_000 },
    );
    expect(target.className).toContain('is-highlighted');
    await waitFor(() => expect(document.activeElement).toBe(target));
    expect(idle.length).toBeGreaterThan(0); // the rows in between still wait for idle time
  }, 30_000);

  it("a response's own address shows its topic with that response highlighted and focused", async () => {
    const topic = fakeTopic({ responses_count: 60 });
    renderTopic(topic, new BehaviorSubject(manyRoots(topic, 60)), '/responses/root-50');
    const target = await waitFor(
      () => {
        const el = document.getElementById('response-root-50');
        if (!el) throw new Error('not rendered yet');
        return el;
      },
      { timeout: 15_000 },
    );
    expect(target.className).toContain('is-highlighted');
    await waitFor(() => expect(document.activeElement).toBe(target));
  }, 30_000);

  it('a link to a reply expands its root, wherever the root is in the list', async () => {
    const topic = fakeTopic({ responses_count: 61 });
    const roots = manyRoots(topic, 60);
    const reply = fakeResponse({ id: 'reply-1', topic_id: topic.id, parent_response_id: 'root-55', content: 'A deep reply' });
    renderTopic(topic, new BehaviorSubject(roots), '#response-reply-1', { 'root-55': [reply] });
    // jsdom renders dozens of rows slowly: wait longer than the default second.
    await screen.findByText('A deep reply', undefined, { timeout: 15_000 });
    expect(document.getElementById('response-reply-1')!.className).toContain('is-highlighted');
    expect(screen.getAllByRole('button', { name: 'Hide All (1)' })).toHaveLength(1);
  }, 30_000);

  it('keeps keyboard focus on a row while more rows arrive and a vote changes the list', async () => {
    const topic = fakeTopic({ responses_count: 60 });
    const roots = manyRoots(topic, 60);
    const roots$ = new BehaviorSubject(roots);
    renderTopic(topic, roots$);
    await screen.findByText('Root argument 0');
    const showAll = screen.getAllByRole('button', { name: 'Show All (1)' })[2]!;
    showAll.focus();
    for (let i = 0; i < 10; i++) runIdle();
    act(() => roots$.next(roots.map((r, i) => (i === 1 ? { ...r, score: 1, user_has_upvoted: true } : r))));
    expect(rows()).toHaveLength(60);
    expect(document.activeElement).toBe(showAll);
    expect(screen.getAllByRole('button', { name: /^Remove upvote from/ })).toHaveLength(1);
  });

  it('Show All opens the thread with the replies the data layer gives', async () => {
    const topic = fakeTopic({ responses_count: 2 });
    const [root] = manyRoots(topic, 1);
    const reply = fakeResponse({ id: 'reply-a', topic_id: topic.id, parent_response_id: root!.id, content: 'First reply' });
    renderTopic(topic, new BehaviorSubject([root!]), '', { [root!.id]: [reply] });
    fireEvent.click(await screen.findByRole('button', { name: 'Show All (1)' }));
    expect(await screen.findByText('First reply')).toBeTruthy();
    expect(screen.getByRole('list', { name: /^Replies to/ }).querySelectorAll('li[data-testid="response"]')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Hide All (1)' }));
    expect(screen.queryByText('First reply')).toBeNull();
  });
});
