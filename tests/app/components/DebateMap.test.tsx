// @vitest-environment jsdom
// The debate map (laid out by d3-hierarchy, loaded on first open): nodes coloured and
// iconed by type, sized by score, Δ marked; a node (click or Enter) opens a deep response in the
// thread and scrolls to it; zoom buttons; the Outline view as nested links.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { of } from 'rxjs';
import type { SessionState } from '../../../app/src/auth/session';
import {
  fitScale,
  LABEL_MAX_CHARS,
  LABELS_TOP_N,
  labelsAt,
  layoutDebate,
  nodeRadius,
  outlineOf,
  TOPIC_NODE,
} from '../../../app/src/components/DebateMap/debate-tree';
import { fakeResponse, fakeTopic } from '../../fixtures/fake-data';
import { renderTopicPage } from './topic-page';
import { SIGNED_OUT } from './with-data';

/** A response's text box whose words are `text` (formatted text may wrap them in paragraphs). */
const responseText = (text: string) => (_content: string, element: Element | null) =>
  element?.getAttribute('data-testid') === 'response-content' && element.textContent?.trim() === text;

const session = vi.hoisted(() => ({ current: null as SessionState | null }));
vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: () => session.current }));

const scrolled: string[] = [];
beforeEach(() => {
  session.current = SIGNED_OUT;
  scrolled.length = 0;
  Element.prototype.scrollIntoView = function (this: Element) {
    scrolled.push(this.id);
  };
});
afterEach(cleanup);

const topic = fakeTopic({ id: 't1', responses_count: 5 });
// A thread four levels deep, and a second root.
const r1 = fakeResponse({ id: 'r1', topic_id: 't1', type: 'for', content: 'Cars crowd streets.', score: 9, comment_count: 1 });
const r2 = fakeResponse({
  id: 'r2',
  topic_id: 't1',
  type: 'against',
  parent_response_id: 'r1',
  content: 'Deliveries need roads.',
  comment_count: 1,
});
const r3 = fakeResponse({
  id: 'r3',
  topic_id: 't1',
  type: 'neutral',
  parent_response_id: 'r2',
  content: 'Cargo bikes exist.',
  comment_count: 1,
});
const r4 = fakeResponse({ id: 'r4', topic_id: 't1', type: 'for', parent_response_id: 'r3', content: 'Deep point.', delta_count: 2 });
const r5 = fakeResponse({ id: 'r5', topic_id: 't1', type: 'against', content: 'Second root.' });
const ALL = [r1, r2, r3, r4, r5];
const PARENT: Record<string, string | null> = Object.fromEntries(ALL.map((r) => [r.id, r.parent_response_id]));

function renderMapPage() {
  const ancestorPath = vi.fn(async (id: string) => {
    const path = [id];
    for (let p = PARENT[id]; p; p = PARENT[p]) path.unshift(p);
    return path;
  });
  renderTopicPage(topic, {
    rootResponses$: () => of([r1, r5]),
    replies$: (id) => of(ALL.filter((r) => r.parent_response_id === id)),
    topicResponses$: () => of(ALL),
    ancestorPath,
  });
  return ancestorPath;
}

async function openMap() {
  const toggle = await screen.findByRole('button', { name: 'Debate map' });
  expect(toggle.getAttribute('aria-expanded')).toBe('false');
  fireEvent.click(toggle);
  expect(toggle.getAttribute('aria-expanded')).toBe('true');
  const region = screen.getByRole('region', { name: 'Debate map' });
  expect(toggle.getAttribute('aria-controls')).toBe(region.id);
  // The map's module (with d3-hierarchy) arrives lazily.
  await within(region).findByRole('group', { name: 'Debate map: 5 responses' }, { timeout: 5000 });
  return region;
}

describe('debate map layout (pure)', () => {
  it('hangs every response from the topic, depth left to right, siblings apart', () => {
    const layout = layoutDebate(ALL);
    expect(layout.nodes.map((n) => n.id).sort()).toEqual([TOPIC_NODE, 'r1', 'r2', 'r3', 'r4', 'r5']);
    const at = (id: string) => layout.nodes.find((n) => n.id === id)!;
    expect(at('r4').depth).toBe(4);
    expect(at('r1').x).toBeLessThan(at('r2').x);
    expect(at('r2').x).toBeLessThan(at('r4').x);
    expect(at('r1').y).not.toBe(at('r5').y);
    expect(layout.links).toHaveLength(5);
    for (const n of layout.nodes) {
      expect(n.x).toBeGreaterThan(0);
      expect(n.y).toBeGreaterThan(0);
      expect(n.x).toBeLessThan(layout.width);
      expect(n.y).toBeLessThan(layout.height);
    }
  });

  it('keeps a reply whose parent is not on this device, under the topic', () => {
    const orphan = fakeResponse({ id: 'o', parent_response_id: 'gone' });
    expect(layoutDebate([orphan]).nodes.find((n) => n.id === 'o')!.depth).toBe(1);
    expect(outlineOf([orphan]).map((i) => i.response.id)).toEqual(['o']);
  });

  it('fits the layout to a frame, by whichever of width and height is tighter, never above 1.5', () => {
    const layout = { width: 1000, height: 200 };
    expect(fitScale(layout, { width: 500, height: 400 })).toBe(0.5);
    expect(fitScale(layout, { width: 2000, height: 100 })).toBe(0.5);
    expect(fitScale(layout, { width: 9000, height: 9000 })).toBe(1.5);
    expect(fitScale(layout, { width: 0, height: 0 })).toBe(1);
  });

  it('labels each response with the start of its text, as much as the scale leaves room for', () => {
    const long = fakeResponse({ id: 'long', content: 'A'.repeat(100) });
    const full = labelsAt([long, ...ALL], 1);
    expect(full.get('r1')).toBe('Cars crowd streets.');
    expect(full.get('long')!.endsWith('…')).toBe(true);
    // A small debate on a wide screen (the fit's largest scale) reads the first 40 characters.
    expect(Array.from(labelsAt([long], 1.5).get('long')!)).toHaveLength(LABEL_MAX_CHARS);
    const small = labelsAt([long], 0.4);
    expect(Array.from(small.get('long')!).length).toBeLessThan(LABEL_MAX_CHARS);
    // Rows too close for every label: only the best-scored keep one.
    const many = Array.from({ length: 20 }, (_, i) => fakeResponse({ id: `m${i}`, score: i, content: `Point ${i}` }));
    const crowded = labelsAt(many, 0.3);
    expect([...crowded.keys()]).toHaveLength(LABELS_TOP_N);
    expect(crowded.has('m19')).toBe(true);
    expect(crowded.has('m0')).toBe(false);
    // Too small for a readable word: none.
    expect(labelsAt(many, 0.05).size).toBe(0);
  });

  it('sizes nodes by score, within bounds', () => {
    expect(nodeRadius(0)).toBe(7);
    expect(nodeRadius(-3)).toBe(7);
    expect(nodeRadius(4)).toBeGreaterThan(nodeRadius(1));
    expect(nodeRadius(10_000)).toBe(15);
  });
});

describe('debate map', () => {
  it('draws each response with its type, icon and Δ, and opens a deep one in the thread on Enter', async () => {
    const ancestorPath = renderMapPage();
    const region = await openMap();
    const node = within(region).getByRole('button', { name: /^Open response: Agrees: Deep point\./ });
    expect(node.getAttribute('aria-label')).toBe(
      'Open response: Agrees: Deep point. (score 0, 2 people credited this with changing their view)',
    );
    expect(node.getAttribute('class')).toContain('debate-map-for');
    expect(node.textContent).toContain('✔');
    expect(node.textContent).toContain('Δ2');
    expect(region.querySelector('[data-response-id="r2"]')!.getAttribute('class')).toContain('debate-map-against');
    // Bigger for a better score.
    const radius = (id: string) => Number(region.querySelector(`[data-response-id="${id}"] circle`)!.getAttribute('r'));
    expect(radius('r1')).toBeGreaterThan(radius('r5'));

    // Read without hovering: each node's text beside it; a legend says what colour and size mean.
    expect(region.querySelector('[data-response-id="r1"] .debate-map-label')!.textContent).toBe('Cars crowd streets.');
    const legend = within(region).getByRole('list', { name: 'Map legend' });
    expect(legend.textContent).toContain('Agree');
    expect(legend.textContent).toContain('Disagree');
    expect(legend.textContent).toContain('Discuss');
    expect(legend.textContent).toContain('Bigger circle: higher score');
    // A thumb-sized target around even the smallest circle (scale 1 here: 22 units is 22 px).
    expect(Number(region.querySelector('[data-response-id="r5"] .debate-map-hit')!.getAttribute('r'))).toBe(22);

    fireEvent.keyDown(node, { key: 'Enter' });
    await waitFor(() => expect(ancestorPath).toHaveBeenCalledWith('r4'));
    // The thread opens down to it, and it scrolls into view with focus.
    const target = await screen.findByText(responseText('Deep point.'), {}, { timeout: 5000 });
    await waitFor(() => expect(scrolled).toContain('response-r4'));
    expect(document.activeElement?.id).toBe('response-r4');
    expect(target.closest('li')!.className).toContain('is-highlighted');
  });

  it('zooms in, out and back with buttons', async () => {
    renderMapPage();
    const region = await openMap();
    const svg = within(region).getByRole('group', { name: /^Debate map:/ });
    // The drawing's own width (the svg adds a fixed 44 px of room for the edge nodes' hit areas).
    const width = () => Number(svg.getAttribute('width')) - 44;
    const start = width();
    fireEvent.click(within(region).getByRole('button', { name: 'Zoom in' }));
    expect(width()).toBeCloseTo(start * 1.25);
    expect(within(region).getByText('125%')).toBeTruthy();
    fireEvent.click(within(region).getByRole('button', { name: 'Zoom out' }));
    fireEvent.click(within(region).getByRole('button', { name: 'Zoom out' }));
    expect(width()).toBeCloseTo(start * 0.8);
    fireEvent.click(within(region).getByRole('button', { name: 'Reset zoom' }));
    expect(width()).toBeCloseTo(start);
    // A plain wheel scrolls the page; Ctrl + wheel (or a pinch) zooms.
    fireEvent.wheel(svg.parentElement!, { deltaY: -100 });
    expect(width()).toBeCloseTo(start);
    fireEvent.wheel(svg.parentElement!, { deltaY: -100, ctrlKey: true });
    expect(width()).toBeCloseTo(start * 1.25);
  });

  it('offers an Outline of nested links that open the response', async () => {
    const ancestorPath = renderMapPage();
    const region = await openMap();
    fireEvent.click(within(region).getByRole('button', { name: 'Outline' }));
    const outline = within(region).getByRole('navigation', { name: 'Outline of the debate' });
    const deep = within(outline).getByRole('link', { name: /Deep point/ });
    expect(deep.getAttribute('href')).toBe('#response-r4');
    // Nested: r4 sits four lists deep.
    expect(
      deep.closest('ul')!.parentElement!.closest('ul')!.parentElement!.closest('ul')!.parentElement!.closest('ul')!.parentElement,
    ).toBe(outline);
    fireEvent.click(deep);
    await waitFor(() => expect(ancestorPath).toHaveBeenCalledWith('r4'));
    await waitFor(() => expect(scrolled).toContain('response-r4'));
  });

  it('says so when there is nothing to map yet', async () => {
    renderTopicPage(fakeTopic({ id: 't1' }), { topicResponses$: () => of([]) });
    fireEvent.click(await screen.findByRole('button', { name: 'Debate map' }));
    expect(await screen.findByText('No responses yet: the map fills in as people respond.', {}, { timeout: 5000 })).toBeTruthy();
  });

  it('names and labels a response by its words, without their Markdown marks', async () => {
    const marked = fakeResponse({ id: 'rm', topic_id: 't1', type: 'for', content: '**Bold** claim with [a source](https://example.org)' });
    renderTopicPage(fakeTopic({ id: 't1', responses_count: 1 }), {
      rootResponses$: () => of([marked]),
      replies$: () => of([]),
      topicResponses$: () => of([marked]),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Debate map' }));
    const region = screen.getByRole('region', { name: 'Debate map' });
    await within(region).findByRole('group', { name: 'Debate map: 1 response' }, { timeout: 5000 });
    await waitFor(() => expect(within(region).getByRole('button', { name: /^Open response: .*Bold claim with a source/ })).toBeTruthy());
    expect(region.textContent).not.toMatch(/\*\*|\]\(/);
    fireEvent.click(within(region).getByRole('button', { name: 'Outline' }));
    const outline = within(region).getByRole('navigation', { name: 'Outline of the debate' });
    expect(within(outline).getByRole('link', { name: /Bold claim with a source/ })).toBeTruthy();
  });
});
