// @vitest-environment jsdom
// On the topic page: the strongest case on each side above the composer, ranked by
// shared/rules/strongest-case.ts from the device's responses, moving live, collapsible (and
// remembered), each argument opening its thread; and on the debate map, the same arguments ringed.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { BehaviorSubject, of } from 'rxjs';
import type { SessionState } from '../../../app/src/auth/session';
import type { ResponseView } from '../../../app/src/data/index.js';
import {
  NO_SIDES_YET,
  SIDE_EMPTY,
  STRONGEST_CASE,
  STRONGEST_CASE_EXPLAINED,
  STRONGEST_OPEN_KEY,
} from '../../../app/src/components/StrongestCase/StrongestCase';
import { fakeResponse, fakeTopic } from '../../fixtures/fake-data';
import { renderTopicPage } from './topic-page';
import { SIGNED_OUT } from './with-data';

const session = vi.hoisted(() => ({ current: null as SessionState | null }));
vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: () => session.current }));

const scrolled: string[] = [];
beforeEach(() => {
  session.current = SIGNED_OUT;
  localStorage.clear();
  scrolled.length = 0;
  Element.prototype.scrollIntoView = function (this: Element) {
    scrolled.push(this.id);
  };
});
afterEach(cleanup);

// 10 agree and 8 disagree: the worked example of docs/COMMON-GROUND.md.
const topic = fakeTopic({ id: 't1', responses_count: 7, stance_agree: 10, stance_disagree: 8 });
const at = (id: string, type: ResponseView['type'], agree: number, disagree: number, extra: Partial<ResponseView> = {}) =>
  fakeResponse({ id, topic_id: 't1', type, content: `Point ${id}.`, upvotes_agree: agree, upvotes_disagree: disagree, ...extra });
const F1 = at('F1', 'for', 6, 3, { username: 'Bea' });
const F2 = at('F2', 'for', 9, 0);
const F3 = at('F3', 'for', 7, 0);
const F4 = at('F4', 'for', 2, 5);
// The highest score of all, from people who took no side: never the best by score alone.
const loud = at('loud', 'for', 0, 0, { score: 50 });
const A1 = at('A1', 'against', 1, 6);
// Agrees with A1, so it argues against the question; nested, so only the tree's full list has it.
const A2 = at('A2', 'for', 0, 4, { parent_response_id: 'A1' });
const ALL = [F1, F2, F3, F4, loud, A1, A2];

const region = () => screen.findByRole('region', { name: STRONGEST_CASE });
const listOf = (name: string) =>
  within(screen.getByRole('list', { name }))
    .getAllByRole('link')
    .map((a) => a.getAttribute('href'));

describe('the strongest case on each side', () => {
  it('lists the three best for and the best against above the composer, never by raw score, each linking into its thread', async () => {
    const ancestorPath = vi.fn(async (id: string) => (id === 'A2' ? ['A1', 'A2'] : [id]));
    renderTopicPage(topic, {
      rootResponses$: () => of([F1, F2, F3, F4, loud, A1]),
      replies$: (id) => of(ALL.filter((r) => r.parent_response_id === id)),
      topicResponses$: () => of(ALL),
      ancestorPath,
    });
    const panel = await region();
    // At the top: before the form to add a response.
    const form = screen.getByRole('form', { name: 'Add a response' });
    expect(panel.compareDocumentPosition(form) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(listOf('Best arguments for')).toEqual(['#response-F2', '#response-F1', '#response-F3']);
    expect(listOf('Best arguments against')).toEqual(['#response-A1', '#response-A2']);
    const f1 = within(panel).getByRole('link', { name: 'Point F1.' }).closest('li')!;
    expect(f1.textContent).toContain('Bea · Upvoted by 6 of 10 who agree and 3 of 8 who disagree');
    expect(f1.textContent).not.toContain('disagreed with by');

    // A reply of the list opens its thread (the ancestors expand) and scrolls to it.
    fireEvent.click(within(panel).getByRole('link', { name: 'Point A2.' }));
    await waitFor(() => expect(scrolled).toContain('response-A2'));
    expect(ancestorPath).toHaveBeenCalledWith('A2');
    expect(document.getElementById('response-A2')!.className).toContain('is-highlighted');
  });

  it('moves live with the votes on this device', async () => {
    const responses = new BehaviorSubject<ResponseView[]>(ALL);
    renderTopicPage(topic, { rootResponses$: () => of([]), topicResponses$: () => responses });
    await region();
    expect(listOf('Best arguments for')).toEqual(['#response-F2', '#response-F1', '#response-F3']);
    // F4 wins its own side and respect from the other: first.
    act(() => responses.next(ALL.map((r) => (r.id === 'F4' ? { ...r, upvotes_agree: 10, upvotes_disagree: 6 } : r))));
    await waitFor(() => expect(listOf('Best arguments for')).toEqual(['#response-F4', '#response-F2', '#response-F1']));
  });

  it('collapses from its heading button, and stays collapsed after a reload', async () => {
    renderTopicPage(topic, { topicResponses$: () => of(ALL) });
    const panel = await region();
    const toggle = within(panel).getByRole('button', { name: STRONGEST_CASE });
    expect(toggle.closest('h2')).not.toBeNull();
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const body = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(body.hidden).toBe(false);
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(body.hidden).toBe(true);
    expect(localStorage.getItem(STRONGEST_OPEN_KEY)).toBe('false');
    cleanup();
    renderTopicPage(topic, { topicResponses$: () => of(ALL) });
    const again = within(await region()).getByRole('button', { name: STRONGEST_CASE });
    expect(again.getAttribute('aria-expanded')).toBe('false');
    // And explains its rule.
    expect(screen.getByRole('button', { name: 'How are the best arguments chosen?' })).toBeTruthy();
  });

  it('says why a side is empty, and waits for people to take sides', async () => {
    renderTopicPage(topic, { topicResponses$: () => of([F1]) });
    await region();
    expect(screen.getByText(SIDE_EMPTY.against)).toBeTruthy();
    cleanup();
    renderTopicPage(fakeTopic({ id: 't1', stance_agree: 0, stance_disagree: 0 }), { topicResponses$: () => of(ALL) });
    await region();
    expect(screen.getByText(NO_SIDES_YET)).toBeTruthy();
  });

  it('shows nothing in a debate without responses, and never puts forward a blocked author', async () => {
    renderTopicPage(topic, { topicResponses$: () => of([]) });
    await screen.findByRole('form', { name: 'Add a response' });
    expect(screen.queryByRole('region', { name: STRONGEST_CASE })).toBeNull();
    cleanup();
    renderTopicPage(topic, {
      topicResponses$: () => of(ALL.map((r) => (r.id === 'F2' ? { ...r, creator_uid: 'uid-blocked' } : r))),
      blockedUids$: () => of(new Set(['uid-blocked'])),
    });
    await region();
    expect(listOf('Best arguments for')).toEqual(['#response-F1', '#response-F3', '#response-F4']);
  });

  it('rings the same arguments on the debate map, and names them in its labels', async () => {
    renderTopicPage(topic, { rootResponses$: () => of([F1, F2, F3, F4, loud, A1]), topicResponses$: () => of(ALL) });
    fireEvent.click(await screen.findByRole('button', { name: 'Debate map' }));
    const map = screen.getByRole('region', { name: 'Debate map' });
    await within(map).findByRole('group', { name: 'Debate map: 7 responses' }, { timeout: 5000 });
    const strongest = [...map.querySelectorAll('.debate-map-node.is-strongest')].map((n) => n.getAttribute('data-response-id'));
    expect(strongest.sort()).toEqual(['A1', 'A2', 'F1', 'F2', 'F3']);
    expect(map.querySelector('[data-response-id="F2"]')!.getAttribute('aria-label')).toMatch(/strongest case for, no\. 1\)$/);
    expect(map.querySelector('[data-response-id="A2"]')!.getAttribute('aria-label')).toMatch(/strongest case against, no\. 2\)$/);
    expect(map.querySelector('[data-response-id="loud"]')!.getAttribute('aria-label')).not.toMatch(/strongest/);
    expect(within(map).getByRole('list', { name: 'Map legend' }).textContent).toContain('Ringed: strongest case on its side');
  });

  it("counts its own side's disagrees against an argument, and says them", async () => {
    // F2 has the most upvotes from people who agree, but as many of them disagreed: it drops out.
    const contested = { ...F2, downvotes_agree: 9 };
    // F1 falls below F3 (a disagree cancels an upvote of the same side) and says its disagrees beside its upvotes.
    const said = { ...F1, downvotes_agree: 1, downvotes_disagree: 2 };
    const responses = [said, contested, F3, F4, loud, A1, A2];
    renderTopicPage(topic, { rootResponses$: () => of([]), topicResponses$: () => of(responses) });
    const panel = await region();
    expect(listOf('Best arguments for')).toEqual(['#response-F3', '#response-F1', '#response-F4']);
    const f1 = within(panel).getByRole('link', { name: 'Point F1.' }).closest('li')!;
    expect(f1.textContent).toContain(
      'Upvoted by 6 of 10 who agree and 3 of 8 who disagree; disagreed with by 1 who agrees and 2 who disagree',
    );
    within(panel).getByRole('button', { name: 'How are the best arguments chosen?' });
    expect(STRONGEST_CASE_EXPLAINED).toContain('less the disagree votes of that same side');
  });
});
