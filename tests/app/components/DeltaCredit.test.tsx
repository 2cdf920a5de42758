// @vitest-environment jsdom
// A response's Δ count, and "This changed my view" for a signed-in user whose stance
// changed: never on their own response, pressed when credited, at most 3, refusals shown.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { of } from 'rxjs';
import type { SessionState } from '../../../app/src/auth/session';
import type { StanceView } from '../../../app/src/data/api';
import { MSG } from '../../../shared/messages';
import { fakeResponse, fakeTopic } from '../../fixtures/fake-data';
import { renderTopicPage } from './topic-page';
import { SIGNED_IN, SIGNED_OUT } from './with-data';

const session = vi.hoisted(() => ({ current: null as SessionState | null }));
vi.mock('../../../app/src/hooks/useSession', () => ({ useSession: () => session.current }));

beforeEach(() => {
  session.current = SIGNED_IN;
});
afterEach(cleanup);

const topic = fakeTopic({ id: 't1', responses_count: 3 });
const theirs = fakeResponse({
  id: 'r-theirs',
  topic_id: 't1',
  creator_uid: 'uid-bob',
  content: 'Buses carry more people.',
  delta_count: 2,
});
const mine = fakeResponse({ id: 'r-mine', topic_id: 't1', creator_uid: 'uid-ada', content: 'My own point.' });
const other = fakeResponse({ id: 'r-other', topic_id: 't1', creator_uid: 'uid-cy', content: 'Bikes are cheap.', delta_count: 1 });

const CHANGED = [
  { stance: 'agree' as const, at: '2026-01-01T00:00:00.000Z' },
  { stance: 'disagree' as const, at: '2026-01-02T00:00:00.000Z' },
];

function stance(overrides: Partial<StanceView> = {}): StanceView {
  return { topic_id: 't1', stance: 'disagree', first_stance: 'agree', history: CHANGED, credits: [], isPending: false, ...overrides };
}

const toggles = () => screen.queryAllByRole('button', { name: 'This changed my view' });
const toggleOf = (responseId: string) => document.querySelector<HTMLButtonElement>(`[data-response-id="${responseId}"] .delta-toggle`);

describe('Δ: This changed my view', () => {
  it('shows the Δ count with a label for screen readers, only when above 0', async () => {
    renderTopicPage(topic, { rootResponses$: () => of([theirs, mine, other]), stance$: () => of(null) });
    await screen.findByText('Buses carry more people.');
    const counts = screen.getAllByTestId('delta-count');
    expect(counts.map((c) => c.textContent)).toEqual([
      'Δ 22 people credited this with changing their view',
      'Δ 11 person credited this with changing their view',
    ]);
    expect(counts[0]!.getAttribute('title')).toBe('2 people credited this with changing their view');
    expect(document.querySelector('[data-response-id="r-mine"] [data-testid="delta-count"]')).toBeNull();
  });

  it('offers no toggle until the stance has changed, nor to a signed-out visitor', async () => {
    renderTopicPage(topic, {
      rootResponses$: () => of([theirs]),
      stance$: () => of(stance({ stance: 'agree', history: CHANGED.slice(0, 1) })),
    });
    await screen.findByText('Buses carry more people.');
    expect(toggles()).toHaveLength(0);
    cleanup();
    session.current = SIGNED_OUT;
    renderTopicPage(topic, { rootResponses$: () => of([theirs]), stance$: () => of(null) });
    await screen.findByText('Buses carry more people.');
    expect(toggles()).toHaveLength(0);
  });

  it("after a change, offers it on other people's responses, never on one's own", async () => {
    renderTopicPage(topic, { rootResponses$: () => of([theirs, mine, other]), stance$: () => of(stance({ credits: ['r-other'] })) });
    await screen.findByText('Buses carry more people.');
    expect(toggles()).toHaveLength(2);
    expect(toggleOf('r-mine')).toBeNull();
    expect(toggleOf('r-theirs')!.getAttribute('aria-pressed')).toBe('false');
    expect(toggleOf('r-other')!.getAttribute('aria-pressed')).toBe('true');
  });

  it('sends the full new list: adding one, then withdrawing one', async () => {
    const creditDeltas = vi.fn(async () => undefined);
    renderTopicPage(topic, {
      rootResponses$: () => of([theirs, other]),
      stance$: () => of(stance({ credits: ['r-other'] })),
      creditDeltas,
    });
    await screen.findByText('Buses carry more people.');
    fireEvent.click(toggleOf('r-theirs')!);
    await waitFor(() => expect(creditDeltas).toHaveBeenCalledWith('t1', ['r-other', 'r-theirs']));
    await waitFor(() => expect(toggleOf('r-other')!.disabled).toBe(false));
    fireEvent.click(toggleOf('r-other')!);
    await waitFor(() => expect(creditDeltas).toHaveBeenLastCalledWith('t1', []));
  });

  it('says at most 3 can be credited, without sending a fourth', async () => {
    const creditDeltas = vi.fn(async () => undefined);
    renderTopicPage(topic, {
      rootResponses$: () => of([theirs]),
      stance$: () => of(stance({ credits: ['a', 'b', 'c'] })),
      creditDeltas,
    });
    await screen.findByText('Buses carry more people.');
    fireEvent.click(toggleOf('r-theirs')!);
    expect((await screen.findByRole('alert')).textContent).toBe(MSG.deltaTooMany);
    expect(creditDeltas).not.toHaveBeenCalled();
  });

  it("shows the data layer's refusal", async () => {
    renderTopicPage(topic, {
      rootResponses$: () => of([theirs]),
      stance$: () => of(stance()),
      creditDeltas: async () => {
        throw new Error(MSG.deltaOtherTopic);
      },
    });
    await screen.findByText('Buses carry more people.');
    fireEvent.click(toggleOf('r-theirs')!);
    expect((await screen.findByRole('alert')).textContent).toBe(MSG.deltaOtherTopic);
    expect(toggleOf('r-theirs')!.getAttribute('aria-pressed')).toBe('false');
  });
});
