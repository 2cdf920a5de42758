// @vitest-environment jsdom
// A first visit to a topic's page (the server's page, with its first screen's data): the topic's
// head paints with the app's header, before the page's chunk (routes/PageFallback.tsx), and the
// strongest case paints with the page from the server's ranking, not later when the device has
// ranked the topic's responses itself (a panel drawn late pushed every argument below it down).
// Its data block is put in the document before anything reads it (data/first-page.ts reads it once).
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, within } from '@testing-library/react';
import { BehaviorSubject, NEVER } from 'rxjs';
import type { SessionState } from '../../../app/src/auth/session';
import type { ResponseView } from '../../../app/src/data/index.js';
import { STRONGEST_CASE } from '../../../app/src/components/StrongestCase/StrongestCase';
import { PageFallback } from '../../../app/src/routes/PageFallback';
import type { FirstPageData } from '../../../shared/types';
import { fakeResponse, fakeTopic } from '../../fixtures/fake-data';
import { renderTopicPage } from './topic-page';
import { renderWithData, SIGNED_OUT } from './with-data';

const session = vi.hoisted(() => ({ current: null as SessionState | null }));
vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: () => session.current }));

const topic = fakeTopic({
  id: 't1',
  title: 'Should tea come first?',
  categories: ['Other'],
  responses_count: 2,
  stance_agree: 3,
  stance_disagree: 2,
});
const line = (id: string, agree: number, disagree: number) => ({
  id,
  content: `Server point ${id}.`,
  username: 'Bea',
  upvotes_agree: agree,
  upvotes_disagree: disagree,
  downvotes_agree: 0,
  downvotes_disagree: 0,
});
const FIRST_PAGE: FirstPageData = {
  topic,
  responses: [],
  stances: { topic_id: 't1', agree: 3, disagree: 2, unsure: 0, minds_changed: 0 },
  strongest: { for: [line('F1', 2, 1)], against: [line('A1', 0, 2)] },
};

beforeAll(() => {
  const block = document.createElement('script');
  block.type = 'application/json';
  block.id = 'crux-first-page';
  block.textContent = JSON.stringify(FIRST_PAGE);
  document.head.append(block);
});
beforeEach(() => {
  session.current = SIGNED_OUT;
  localStorage.clear();
  Element.prototype.scrollIntoView = vi.fn();
});
afterEach(cleanup);

const links = (name: string) =>
  within(screen.getByRole('list', { name }))
    .getAllByRole('link')
    .map((a) => a.textContent);

describe("a first visit's topic page before its chunk", () => {
  it("shows the topic's head where the page draws it: chips, title, author and count", () => {
    renderWithData(<PageFallback firstTopic={topic} />, undefined, '/topics/t1');
    const main = screen.getByRole('main');
    expect(main.getAttribute('aria-busy')).toBe('true');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Should tea come first?');
    expect(screen.getByRole('heading', { level: 1 }).className).toBe('topic-title');
    expect(screen.getByRole('region', { name: 'Should tea come first?' }).className).toBe('topic-header card');
    expect(screen.getByRole('link', { name: 'Other' }).getAttribute('href')).toBe('/c/Other');
    expect(main.textContent).toContain('2 responses');
    expect(screen.getByRole('button', { name: /Back to Topics/ })).toBeTruthy();
  });

  it("shows an empty page box on any other address, and for a moderator's hidden topic", () => {
    renderWithData(<PageFallback firstTopic={topic} />, undefined, '/topics/another');
    expect(screen.getByRole('main').childElementCount).toBe(0);
    cleanup();
    renderWithData(<PageFallback firstTopic={{ ...topic, moderation: 'hidden' }} />, undefined, '/topics/t1');
    expect(screen.queryByRole('heading')).toBeNull();
  });
});

describe("the strongest case on a first visit's page", () => {
  it("shows the server's ranking until the device has the topic's responses, then its own", async () => {
    // The device has not read the topic's responses yet.
    renderTopicPage(topic, { topicResponses$: () => NEVER });
    // Drawn with the page, from the first screen's data: nothing waits for the local store.
    expect(screen.getByRole('region', { name: STRONGEST_CASE })).toBeTruthy();
    expect(links('Best arguments for')).toEqual(['Server point F1.']);
    expect(links('Best arguments against')).toEqual(['Server point A1.']);
    expect(screen.getByRole('region', { name: STRONGEST_CASE }).textContent).toContain(
      'Upvoted by 2 of 3 who agree and 1 of 2 who disagree',
    );
    cleanup();
    // The device's own ranking once it has the responses.
    const mine = fakeResponse({ id: 'F9', topic_id: 't1', type: 'for', content: 'Device point.', upvotes_agree: 3 });
    renderTopicPage(topic, { topicResponses$: () => new BehaviorSubject<ResponseView[]>([mine]) });
    await act(async () => {});
    expect(links('Best arguments for')).toEqual(['Device point.']);
  });

  it('is not drawn for another topic than the first screen’s', () => {
    renderTopicPage(fakeTopic({ id: 't2', responses_count: 2 }), { topicResponses$: () => NEVER });
    expect(screen.queryByRole('region', { name: STRONGEST_CASE })).toBeNull();
  });
});
